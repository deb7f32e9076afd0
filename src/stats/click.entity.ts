import { Column, Entity, Generated, PrimaryColumn } from 'typeorm';

/**
 * One counted visit. What the visitor was, never who: no IP address is kept. Keyed by link, time and id: the one
 * index that stats (a link's clicks in a period) and exports (in time order) read.
 */
@Entity('clicks')
export class Click {
  /** No foreign key: batches must not fail for a link deleted meanwhile; a trigger deletes a link's clicks. */
  @PrimaryColumn({ name: 'link_id', type: 'integer', primaryKeyConstraintName: 'PK_clicks' })
  linkId!: number;

  @PrimaryColumn({
    name: 'created_at',
    type: 'timestamptz',
    default: () => 'now()',
    primaryKeyConstraintName: 'PK_clicks',
  })
  createdAt!: Date;

  /** In arrival order: the tie-break of clicks at the same time. */
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_clicks' })
  @Generated('increment')
  id!: string;

  /** Host of the referring page. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  referrer!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  country!: string | null;

  /** The city's name (its country is `country`), where a city database is installed. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  city!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  continent!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  browser!: string | null;

  @Column({ name: 'operating_system', type: 'varchar', length: 64, nullable: true })
  operatingSystem!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  device!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  language!: string | null;
}
