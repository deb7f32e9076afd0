import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';

/** A link's health as stored: what `status` holds. */
export enum CheckStatus {
  Unknown = 0,
  Ok = 1,
  Broken = 2,
}

/** The statuses as the API and the checker name them, by their stored value: the one map between the two. */
export const CHECK_STATUS_NAMES = ['unknown', 'ok', 'broken'] as const satisfies Record<CheckStatus, string>;
export type CheckStatusName = (typeof CHECK_STATUS_NAMES)[number];

/** The stored value of a status name. */
export function checkStatusOf(name: CheckStatusName): CheckStatus {
  return CHECK_STATUS_NAMES.indexOf(name);
}

/**
 * The last check of a link's target and when the next is due. Triggers on `links` make one for every link and
 * reset it when the target changes (see the link-health migration); the checker writes the rest.
 */
@Entity('link_checks')
@Index('IDX_link_checks_due', ['dueAt'])
/** Partial: the broken links of an account, for the `health=broken` filter. */
@Index('IDX_link_checks_broken', { synchronize: false })
export class LinkCheck {
  @PrimaryColumn({ name: 'link_id', type: 'integer', primaryKeyConstraintName: 'PK_link_checks' })
  linkId!: number;

  // The link is named, not imported: nothing here reads it.
  @OneToOne('Link', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'FK_link_checks_link' })
  link?: Relation<object>;

  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  /** The target's host, lower case: checks of one host are spaced a second apart. */
  @Column({ type: 'varchar', length: 255 })
  host!: string;

  @Column({ type: 'smallint', default: CheckStatus.Unknown })
  status!: CheckStatus;

  @Column({ name: 'http_status', type: 'smallint', nullable: true })
  httpStatus!: number | null;

  @Column({ name: 'checked_at', type: 'timestamptz', nullable: true })
  checkedAt!: Date | null;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  /** 1 while a failed check waits for its second try. */
  @Column({ type: 'smallint', default: 0 })
  failures!: number;
}

/** The next moment each host may be checked. */
@Entity('link_check_hosts')
export class LinkCheckHost {
  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'PK_link_check_hosts' })
  host!: string;

  @Column({ name: 'next_at', type: 'timestamptz' })
  nextAt!: Date;

  /** The last second given to a row of its backlog: the next row moved aside is booked after it. */
  @Column({ name: 'booked_until', type: 'timestamptz', nullable: true })
  bookedUntil!: Date | null;
}
