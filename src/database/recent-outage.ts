import { Injectable } from '@nestjs/common';
import { databaseUnavailability } from '../common/database-errors';

/** How long after a read found the database away a value last known is answered without asking it again. */
export const OUTAGE_HOLD_MS = 1000;

/**
 * Whether the database was found away within the last {@link OUTAGE_HOLD_MS}, by any of this instance's visits: a
 * cache with a value last known answers with it at once meanwhile, and a click that must be claimed is refused at
 * once, instead of having each visit wait for its own read to fail (up to the pool's and the statement's timeouts,
 * one after the other); the database is asked again once the hold has passed.
 */
@Injectable()
export class RecentOutage {
  private until = 0;

  /** Whether an outage was seen lately. */
  get now(): boolean {
    return Date.now() < this.until;
  }

  /** True (and remembered) when `error` means the database is away; false for any other failure. */
  seen(error: unknown): boolean {
    if (databaseUnavailability(error) !== 'outage') return false;
    this.until = Date.now() + OUTAGE_HOLD_MS;
    return true;
  }
}
