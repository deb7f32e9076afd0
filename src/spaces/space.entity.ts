import { Column, Entity, Index, OneToMany } from 'typeorm';
import { EditableAccountOwned } from '../auth/account-owned.entity';
import { uniqueField } from '../common/database-errors';

export const SPACE_COLORS = [1, 2, 3, 4, 5, 6] as const;
export const DEFAULT_SPACE_COLOR = 1;

/** Unique on (account_id, lower(name)): an expression index, declared in the migration. */
export const SPACE_NAME_UNIQUE = uniqueField('UQ_spaces_account_name', 'name');

@Entity('spaces')
@Index('IDX_spaces_account_id', ['accountId', 'id'])
@Index(SPACE_NAME_UNIQUE, { synchronize: false })
export class Space extends EditableAccountOwned {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'smallint', default: DEFAULT_SPACE_COLOR })
  color!: number;

  /** The links filed under it, named by entity so that this module imports nothing of `links/`; never loaded. */
  @OneToMany('Link', 'space')
  links?: object[];

  /** Filled by the queries that count the links (SpacesRepository); not a column. */
  linksCount?: number;
}
