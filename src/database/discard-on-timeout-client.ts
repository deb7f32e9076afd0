import { Client } from 'pg';

/** The message of pg's error for a query that ran past `query_timeout`, the client-side bound. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

function isQueryReadTimeout(error: unknown): boolean {
  return (error as { message?: unknown } | null)?.message === QUERY_READ_TIMEOUT;
}

type Callback = (error: unknown, result: unknown) => void;

/**
 * A pg client that closes its connection when a query runs past `query_timeout`. pg reports the timeout but keeps
 * the connection with the query still in flight on it, so the pool would hand it out again and the next query would
 * wait behind an answer that may never come. Ending the client before it goes back makes the pool drop it.
 *
 * Streams (Submittable queries) are passed through as they are: nothing here uses them.
 */
export class DiscardOnTimeoutClient extends Client {
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
    if (isQueryReadTimeout(error)) this.end().catch(() => undefined);
  }
}
