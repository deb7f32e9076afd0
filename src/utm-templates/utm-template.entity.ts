import { Column, Entity, Index } from 'typeorm';
import { EditableAccountOwned } from '../auth/account-owned.entity';
import { uniqueField } from '../common/database-errors';

/** The longest name a template may have, in characters. */
export const MAX_UTM_TEMPLATE_NAME = 100;

/** The longest value of a UTM parameter, as a link's own fields take it. */
export const MAX_UTM_VALUE = 255;

/** Unique on (account_id, lower(name)): an expression index, declared in the migration. */
export const UTM_TEMPLATE_NAME_UNIQUE = uniqueField('UQ_utm_templates_account_name', 'name');

/** A set of UTM parameters a workspace saves under a name, for building links (the dashboard's UTM builder). */
@Entity('utm_templates')
@Index('IDX_utm_templates_account_id', ['accountId', 'id'])
@Index(UTM_TEMPLATE_NAME_UNIQUE, { synchronize: false })
export class UtmTemplate extends EditableAccountOwned {
  @Column({ type: 'varchar', length: MAX_UTM_TEMPLATE_NAME })
  name!: string;

  @Column({ name: 'utm_source', type: 'varchar', length: MAX_UTM_VALUE, nullable: true })
  utmSource!: string | null;

  @Column({ name: 'utm_medium', type: 'varchar', length: MAX_UTM_VALUE, nullable: true })
  utmMedium!: string | null;

  @Column({ name: 'utm_campaign', type: 'varchar', length: MAX_UTM_VALUE, nullable: true })
  utmCampaign!: string | null;

  @Column({ name: 'utm_term', type: 'varchar', length: MAX_UTM_VALUE, nullable: true })
  utmTerm!: string | null;

  @Column({ name: 'utm_content', type: 'varchar', length: MAX_UTM_VALUE, nullable: true })
  utmContent!: string | null;
}
