import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';

/**
 * What visits write about a link, apart from the link's own row: the API reads it and never writes it. A trigger
 * makes one for every link inserted (see the migration), so a link always has one.
 */
@Entity('link_counters')
@Index('IDX_link_counters_account_listed_clicks', ['accountId', 'listedClicks', 'linkId'])
/** Partial: the counters at their link's clicks limit, which the list's status filter counts (see the migration). */
@Index('IDX_link_counters_limit_reached', { synchronize: false })
/** Partial: the counters whose listed copy of the clicks is behind. */
@Index('IDX_link_counters_listed_behind', { synchronize: false })
export class LinkCounter {
  @PrimaryColumn({ name: 'link_id', type: 'integer', primaryKeyConstraintName: 'PK_link_counters' })
  linkId!: number;

  // The link is named, not imported: it imports this entity, and nothing here reads it.
  @OneToOne('Link', 'counter', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'FK_link_counters_link' })
  link?: Relation<object>;

  /** The link's account, for sorting an account's links by clicks from this table's index alone. */
  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  /**
   * The link's space, 0 for none: the space rollups its clicks are added to, read under this row's lock. Kept by
   * triggers on `links` (see the migration); never written here.
   */
  @Column({ name: 'space_id', type: 'integer', select: false, insert: false, update: false })
  spaceId?: number;

  /** Every counted visit. Written in place by visits: no index reads it. */
  @Column({ type: 'integer', default: 0 })
  clicks!: number;

  /**
   * `clicks` as lists sort by it and as the index of the links at their limit holds it: brought up to date by a
   * list that reads it (see `catchUpListedClicks`), and kept exact by the claims of links with a limit.
   */
  @Column({ name: 'listed_clicks', type: 'integer', default: 0, select: false, insert: false, update: false })
  listedClicks?: number;

  /** Set by visits when `clicks` moves past `listed_clicks`. */
  @Column({
    name: 'listed_behind',
    type: 'boolean',
    default: false,
    select: false,
    insert: false,
    update: false,
  })
  listedBehind?: boolean;

  /**
   * A copy of the link's `clicks_limit`, kept by triggers on `links`, so that an index can hold the links at
   * their limit. Never written here or by visits.
   */
  @Column({
    name: 'clicks_limit',
    type: 'integer',
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  clicksLimit?: number | null;

  /** Index into the link's `targets` of the last rotation served. */
  @Column({ name: 'last_rotation', type: 'integer', nullable: true })
  lastRotation!: number | null;
}
