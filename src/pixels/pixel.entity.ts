import { Column, Entity, Index } from 'typeorm';
import { EditableAccountOwned } from '../auth/account-owned.entity';
import { uniqueField } from '../common/database-errors';

/** Unique on (account_id, lower(name)): an expression index, declared in the migration. */
export const PIXEL_NAME_UNIQUE = uniqueField('UQ_pixels_account_name', 'name');

@Entity('pixels')
@Index('IDX_pixels_account_id', ['accountId', 'id'])
@Index(PIXEL_NAME_UNIQUE, { synchronize: false })
export class Pixel extends EditableAccountOwned {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'varchar', length: 255 })
  value!: string;
}
