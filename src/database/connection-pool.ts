import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** A connection the pool hands out, as far as its timing needs it. */
export interface PooledClient {
  query: (...args: unknown[]) => unknown;
}

/** The pool's counts, read at scrape time, and its hand-outs. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  on?(event: 'acquire', listener: (client: PooledClient) => void): void;
}

/** The pg pool under the data source, for the metrics, which never import the ORM. */
@Injectable()
export class ConnectionPool {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The pool, when the driver has one (the embedded database has none). */
  stats(): PoolStats | null {
    const master = (this.dataSource.driver as { master?: unknown }).master;
    if (typeof master !== 'object' || master === null || !('totalCount' in master)) return null;
    return master as PoolStats;
  }
}
