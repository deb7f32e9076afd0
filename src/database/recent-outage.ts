import { Injectable } from '@nestjs/common';
import { databaseUnavailability } from '../common/database-errors';

/** How long after a read found the database away a value last known is answered without asking it again. */
export const OUTAGE_HOLD_MS = 1000;

/**
 * Whether the database was found away lately, by any of this instance's visits: a cache with a value last known
 * answers with it at once meanwhile, and a click that must be claimed is refused at once, instead of having each
 * visit wait for its own read to fail (up to the pool's and the statement's timeouts, one after the other).
 *
 * After {@link OUTAGE_HOLD_MS} one read asks the database again (the probe: {@link probe}) while the others still
 * answer from what is known; its success ends the outage ({@link answered}), its failure holds again ({@link seen}).
 * So during a failover of some seconds, one visit at a time waits for the database, not every visit once a second.
 */
@Injectable()
export class RecentOutage {
  private until = 0;
  /** An outage was seen and no read has succeeded since. */
  private unresolved = false;
  /** A read is asking the database whether it is back. */
  private probing = false;

  /** Whether the database is to be taken as away now: within the hold, or while the probe is under way. */
  get now(): boolean {
    return this.probing || Date.now() < this.until;
  }

  /** Before a read, past the hold: this read is the probe, when an outage was seen. */
  probe(): void {
    if (this.unresolved) this.probing = true;
  }

  /** A read succeeded: the database answers again. */
  answered(): void {
    this.unresolved = false;
    this.probing = false;
    this.until = 0;
  }

  /**
   * The value `read` gives, or `known` (a value last known; undefined for none) while the database is away: at once
   * within the hold, or when the read (the probe, past it) finds it away. Any other failure is thrown.
   */
  async orLastKnown<T>(known: T | undefined, read: () => Promise<T>): Promise<T> {
    if (known !== undefined && this.now) return known;
    this.probe();
    try {
      const value = await read();
      this.answered();
      return value;
    } catch (error) {
      if (!this.seen(error) || known === undefined) throw error;
      return known;
    }
  }

  /** True (and remembered) when `error` means the database is away; false for any other failure. */
  seen(error: unknown): boolean {
    this.probing = false;
    if (databaseUnavailability(error) !== 'outage') return false;
    this.unresolved = true;
    this.until = Date.now() + OUTAGE_HOLD_MS;
    return true;
  }
}
