import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/** When a row was made: `created_at`, a `timestamptz` the database sets on insert. */
export const CreatedAt = (): PropertyDecorator =>
  CreateDateColumn({ name: 'created_at', type: 'timestamptz' });

/** When a row last changed: `updated_at`, a `timestamptz` set on insert and on every update through TypeORM. */
export const UpdatedAt = (): PropertyDecorator =>
  UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' });
