import { Column, Entity, Index } from 'typeorm';
import { EditableAccountOwned } from '../auth/account-owned.entity';
import { uniqueField } from '../common/database-errors';

export const TAG_COLORS = [1, 2, 3, 4, 5, 6] as const;
export const DEFAULT_TAG_COLOR = 1;
/** The most tags one link holds, and the longest name a tag has (contract §13). */
export const MAX_LINK_TAGS = 20;
export const MAX_TAG_NAME = 50;

/** Unique on (account_id, lower(name)): an expression index, declared in the migration. */
export const TAG_NAME_UNIQUE = uniqueField('UQ_tags_account_name', 'name');

/** A workspace's label for links, many to a link; named as first written, matched regardless of case. */
@Entity('tags')
@Index('IDX_tags_account_id', ['accountId', 'id'])
@Index(TAG_NAME_UNIQUE, { synchronize: false })
export class Tag extends EditableAccountOwned {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'smallint', default: DEFAULT_TAG_COLOR })
  color!: number;

  /** Filled by the queries that count the links (TagsRepository); not a column. */
  linksCount?: number;
}
