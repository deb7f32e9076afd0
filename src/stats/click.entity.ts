import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One counted visit. What the visitor was, never who: no IP address is kept. */
@Entity('clicks')
@Index('IDX_clicks_link_created', ['linkId', 'createdAt'])
export class Click {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_clicks' })
  id!: string;

  /** No foreign key: batches must not fail for a link deleted meanwhile; a trigger deletes a link's clicks. */
  @Column({ name: 'link_id', type: 'integer' })
  linkId!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

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
