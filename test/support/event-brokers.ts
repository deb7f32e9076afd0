import { randomBytes } from 'node:crypto';
import { EVENT_TYPES } from '../../src/events/outbox/event';
import type { OutgoingEvent } from '../../src/events/outbox/event';
import { freePort } from './process';
import { sleep } from './sleep';
import { TcpProxy } from './tcp-proxy';

/** The variables that point the event sink tests at a broker; `.ci/run` sets both. */
export type BrokerVariable = 'EVENTS_TEST_REDIS_URL' | 'EVENTS_TEST_AMQP_URL';

/**
 * `describe`, given the broker URL that `variable` holds; skipped, with the reason in its title, when it is unset,
 * so that `npm test` passes where only Node.js is installed. The body must touch the URL in hooks and tests only.
 */
export function describeWithBroker(
  variable: BrokerVariable,
  title: string,
  body: (url: string) => void,
): void {
  const url = process.env[variable];
  if (url === undefined || url === '') {
    describe.skip(`${title} (skipped: ${variable} is not set)`, () => body(''));
  } else {
    describe(title, () => body(url));
  }
}

/** A name no other run or test uses: `prefix` and a time and random suffix. */
export function uniqueName(prefix: string): string {
  return `${prefix}.${Date.now()}.${randomBytes(4).toString('hex')}`;
}

/** `count` events of every type in turn, each body `bodyBytes` long at least, numbered from `from`. */
export function testEvents(
  count: number,
  options: { from?: number; bodyBytes?: number } = {},
): OutgoingEvent[] {
  const from = options.from ?? 0;
  const padding = 'x'.repeat(options.bodyBytes ?? 0);
  return Array.from({ length: count }, (_, index) => {
    const id = `evt_${randomBytes(16).toString('hex')}`;
    const type = EVENT_TYPES[(from + index) % EVENT_TYPES.length];
    const body = JSON.stringify({
      id,
      type,
      created_at: new Date().toISOString(),
      data: { n: from + index, padding },
    });
    return { id, type, body };
  });
}

/** `url` pointing at a loopback port that nothing listens on. */
export async function unreachableUrl(url: string): Promise<string> {
  const unreachable = new URL(url);
  unreachable.hostname = '127.0.0.1';
  unreachable.port = String(await freePort());
  return unreachable.toString();
}

/** A proxy in front of the broker of `url`, and `url` pointed at it. */
export async function proxyFor(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || defaultPort) });
  return { proxy, url: proxy.urlFor(url) };
}

/** How long `work` took to settle, in milliseconds, and the error it rejected with (undefined if it resolved). */
export async function timed(work: Promise<unknown>): Promise<{ ms: number; error: Error | undefined }> {
  const started = performance.now();
  try {
    await work;
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error: error as Error };
  }
}

/** Calls `attempt` until it resolves, at most until `withinMs` have passed; returns how many attempts failed. */
export async function eventually(attempt: () => Promise<unknown>, withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (let failures = 0; ; failures += 1) {
    try {
      await attempt();
      return failures;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}
