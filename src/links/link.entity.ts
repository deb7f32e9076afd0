import { Column, Entity, Index, JoinColumn, ManyToOne, OneToOne, type Relation } from 'typeorm';
import { EditableAccountOwned } from '../auth/account-owned.entity';
import { stillReferenced, uniqueField } from '../common/database-errors';
import { DOMAIN_IN_USE, Domain } from '../domains/domain.entity';
import { Space } from '../spaces/space.entity';
import { LinkCounter } from './link-counter.entity';
import type { TargetsType } from '../targeting/allowed-values';

/** Unique on (domain_id, lower(alias)): an expression index, declared in the migration. */
export const LINK_ALIAS_UNIQUE = uniqueField('UQ_links_domain_alias', 'alias');

/** Refuses to delete a domain that still has links. */
export const LINK_DOMAIN_FOREIGN_KEY = stillReferenced('FK_links_domain', 'domains', DOMAIN_IN_USE);

export interface Target {
  key: string;
  value: string;
  /** A rotation's share of the visits; absent: 1. */
  weight?: number;
}

export enum LinkPrivacy {
  Public = 0,
  Private = 1,
  Password = 2,
}

@Entity('links')
@Index('IDX_links_account_id', ['accountId', 'id'])
@Index(LINK_ALIAS_UNIQUE, { synchronize: false })
@Index('IDX_links_title_trgm', { synchronize: false })
@Index('IDX_links_alias_trgm', { synchronize: false })
@Index('IDX_links_url_trgm', { synchronize: false })
// An index per list sort and per filter that pages in id order; expression and partial ones are in the migration.
@Index('IDX_links_account_title', { synchronize: false })
@Index('IDX_links_account_alias', { synchronize: false })
@Index('IDX_links_account_url', { synchronize: false })
@Index('IDX_links_account_space', ['accountId', 'spaceId', 'id'])
@Index('IDX_links_account_domain', ['accountId', 'domainId', 'id'])
@Index('IDX_links_account_disabled', { synchronize: false })
@Index('IDX_links_account_period_start', { synchronize: false })
@Index('IDX_links_account_period_end', { synchronize: false })
@Index('IDX_links_account_limited', { synchronize: false })
@Index('IDX_links_account_archived', { synchronize: false })
export class Link extends EditableAccountOwned {
  @Index('IDX_links_domain')
  @Column({ name: 'domain_id', type: 'integer' })
  domainId!: number;

  // NO ACTION, checked at the end of the statement: deleting an account removes its links and domains together.
  @ManyToOne(() => Domain, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: LINK_DOMAIN_FOREIGN_KEY })
  domain?: Domain;

  @Index('IDX_links_space')
  @Column({ name: 'space_id', type: 'integer', nullable: true })
  spaceId!: number | null;

  @ManyToOne(() => Space, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_links_space' })
  space?: Space | null;

  @Column({ type: 'varchar', length: 255 })
  alias!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title!: string | null;

  @Column({ name: 'targets_type', type: 'varchar', length: 32, nullable: true })
  targetsType!: TargetsType | null;

  @Column({ type: 'jsonb', nullable: true })
  targets!: Target[] | null;

  @Column({ name: 'sensitive_content', type: 'boolean', default: false })
  sensitiveContent!: boolean;

  @Column({ type: 'smallint', default: LinkPrivacy.Public })
  privacy!: LinkPrivacy;

  /** scrypt hash of the stats page password. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  /** scrypt hash of the password visitors enter before the redirect. */
  @Column({ name: 'redirect_password_hash', type: 'varchar', length: 255, nullable: true })
  redirectPasswordHash!: string | null;

  @Column({ name: 'active_period_start_at', type: 'timestamptz', nullable: true })
  activePeriodStartAt!: Date | null;

  @Column({ name: 'active_period_end_at', type: 'timestamptz', nullable: true })
  activePeriodEndAt!: Date | null;

  /** Null: no limit. */
  @Column({ name: 'clicks_limit', type: 'integer', nullable: true })
  clicksLimit!: number | null;

  @Column({ name: 'expiration_url', type: 'varchar', length: 2048, nullable: true })
  expirationUrl!: string | null;

  /** What visits wrote: clicks and the rotation. Loaded where a response or a status needs it. */
  @OneToOne(() => LinkCounter, (counter) => counter.link)
  counter?: Relation<LinkCounter>;

  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  /** Added to the destination's query at the redirect, replacing the same names there (contract §13). */
  @Column({ name: 'utm_source', type: 'varchar', length: 255, nullable: true })
  utmSource!: string | null;

  @Column({ name: 'utm_medium', type: 'varchar', length: 255, nullable: true })
  utmMedium!: string | null;

  @Column({ name: 'utm_campaign', type: 'varchar', length: 255, nullable: true })
  utmCampaign!: string | null;

  @Column({ name: 'utm_term', type: 'varchar', length: 255, nullable: true })
  utmTerm!: string | null;

  @Column({ name: 'utm_content', type: 'varchar', length: 255, nullable: true })
  utmContent!: string | null;

  /** Where visitors on iOS go, before any targeting: an app's scheme or https. */
  @Column({ name: 'ios_url', type: 'varchar', length: 2048, nullable: true })
  iosUrl!: string | null;

  /** Where visitors on Android go, before any targeting. */
  @Column({ name: 'android_url', type: 'varchar', length: 2048, nullable: true })
  androidUrl!: string | null;

  /** The social preview that crawlers are shown instead of the redirect, when one of these is set. */
  @Column({ name: 'og_title', type: 'varchar', length: 200, nullable: true })
  ogTitle!: string | null;

  @Column({ name: 'og_description', type: 'varchar', length: 500, nullable: true })
  ogDescription!: string | null;

  @Column({ name: 'og_image_url', type: 'varchar', length: 2048, nullable: true })
  ogImageUrl!: string | null;

  /** For the people who manage the link; never shown to visitors. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  notes!: string | null;

  /** Left out of lists (unless they ask for the archive), still redirecting. */
  @Column({ type: 'boolean', default: false })
  archived!: boolean;
}

/** The counters of a link loaded with them; a link loaded without them is a programming error, said loudly. */
export function countersOf(link: Link): LinkCounter {
  if (link.counter === undefined) throw new Error(`The counters of link ${link.id} were not loaded`);
  return link.counter;
}
