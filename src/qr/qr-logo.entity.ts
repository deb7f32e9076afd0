import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Account } from '../auth/account.entity';
import { UpdatedAt } from '../common/columns';
import type { LogoType } from './logo-file';

/** What a logo keeps, whoever's it is: the file as uploaded, its media type, and its SHA-256 in hex. */
abstract class QrLogoColumns {
  @Column({ name: 'content_type', type: 'varchar', length: 13 })
  contentType!: LogoType;

  /** At most 64 KB: kept in its row (TOAST), read only when a code with it is drawn. */
  @Column({ type: 'bytea' })
  image!: Buffer;

  /** Names the logo in the cache of drawn codes, read without the image. */
  @Column({ type: 'varchar', length: 64 })
  digest!: string;

  @UpdatedAt()
  updatedAt!: Date;
}

/** A link's own logo, drawn in its codes with `logo=1`; removed with the link. */
@Entity('link_qr_logos')
export class LinkQrLogo extends QrLogoColumns {
  @PrimaryColumn({ name: 'link_id', type: 'integer', primaryKeyConstraintName: 'PK_link_qr_logos' })
  linkId!: number;

  // The link is named, not imported: links/ sits above qr/, which only knows its table.
  @ManyToOne('Link', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'FK_link_qr_logos_link' })
  link?: Relation<object>;
}

/** A workspace's logo, drawn with `logo=1` in the codes of its links that have none of their own. */
@Entity('account_qr_logos')
export class AccountQrLogo extends QrLogoColumns {
  @PrimaryColumn({ name: 'account_id', type: 'integer', primaryKeyConstraintName: 'PK_account_qr_logos' })
  accountId!: number;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'FK_account_qr_logos_account' })
  account?: Account;
}
