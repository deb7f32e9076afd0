import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/columns';
import { Account } from '../auth/account.entity';
import { uniqueField } from '../common/database-errors';

export const DOMAIN_NAME_UNIQUE = uniqueField('UQ_domains_name', 'name');

/** A domain that still has links stays: its short URLs are out in the world. */
export const DOMAIN_IN_USE = 'The domain has links and cannot be deleted.';

/** A host that serves short links. `accountId` null marks a system domain, usable by every account. */
@Entity('domains')
@Index('IDX_domains_account_id', ['accountId', 'id'])
export class Domain {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_domains' })
  id!: number;

  @Column({ name: 'account_id', type: 'integer', nullable: true })
  accountId!: number | null;

  @ManyToOne(() => Account, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'FK_domains_account' })
  account?: Account;

  /** Lower-case host, with a port where it has one (`localhost:3000`). */
  @Index(DOMAIN_NAME_UNIQUE, { unique: true })
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'index_page', type: 'varchar', length: 2048, nullable: true })
  indexPage!: string | null;

  @Column({ name: 'not_found_page', type: 'varchar', length: 2048, nullable: true })
  notFoundPage!: string | null;

  /** Served at `/.well-known/apple-app-site-association` of the domain: a JSON document, as given. */
  @Column({ name: 'apple_app_site_association', type: 'text', nullable: true })
  appleAppSiteAssociation!: string | null;

  /** Served at `/.well-known/assetlinks.json` of the domain: a JSON document, as given. */
  @Column({ type: 'text', nullable: true })
  assetlinks!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;

  /** The links on it, named by entity so that this module imports nothing of `links/`; never loaded. */
  @OneToMany('Link', 'domain')
  links?: object[];
}
