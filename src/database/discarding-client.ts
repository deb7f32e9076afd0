import { Client } from 'pg';
import { READ_ONLY_TRANSACTION } from '../common/database-errors';

/** The message of pg's error for a query that ran past `query_timeout`, the client-side bound. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * Whether the connection that failed with `error` must not serve again: a query past `query_timeout`, whose answer
 * may still come, or a write refused because the server is a standby. That server was the primary when the
 * connection was made (a failover since, or a balancer that routed it while one ran): every later write on it would
 * be refused too, while a new connection reaches the new primary.
 */
function isDiscarding(error: unknown): boolean {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  return message === QUERY_READ_TIMEOUT || code === READ_ONLY_TRANSACTION;
}

type Callback = (error: unknown, result: unknown) => void;

/**
 * A pg client that closes its connection when a query runs past `query_timeout`, or a write finds the server read
 * only. pg reports the timeout but keeps the connection with the query still in flight on it, so the pool would hand
 * it out again and the next query would wait behind an answer that may never come; a connection to a standby would
 * refuse every write the pool gives it. Ending the client before it goes back makes the pool drop it.
 *
 * Streams (Submittable queries) are passed through as they are: nothing here uses them.
 */
export class DiscardingClient extends Client {
  // pg declares a dozen overloads of query(config, values?, callback?); every form passes through unchanged.
  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument */
  override query(config: any, values?: any, callback?: any): any {
    if (typeof values === 'function' || typeof callback === 'function') {
      const done = (typeof callback === 'function' ? callback : values) as Callback;
      const discarding: Callback = (error, result) => {
        this.discardAfter(error);
        done(error, result);
      };
      return typeof callback === 'function'
        ? super.query(config, values, discarding)
        : super.query(config, discarding);
    }
    const result: unknown = super.query(config, values);
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        this.discardAfter(error);
        throw error;
      });
    }
    return result;
  }
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument */

  private discardAfter(error: unknown): void {
    // With the query still in flight, end() destroys the socket at once and marks the client as ending.
    if (isDiscarding(error)) this.end().catch(() => undefined);
  }
}
