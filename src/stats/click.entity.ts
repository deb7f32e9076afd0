import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Link } from '../links/link.entity';

/** One counted visit. What the visitor was, never who: no IP address is kept. */
@Entity('clicks')
@Index('IDX_clicks_link_created', ['linkId', 'createdAt'])
export class Click {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_clicks' })
  id!: string;

  @Column({ name: 'link_id', type: 'integer' })
  linkId!: number;

  @ManyToOne(() => Link, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'FK_clicks_link' })
  link?: Link;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Host of the referring page. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  referrer!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  country!: string | null;

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
