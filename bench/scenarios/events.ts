import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'amqplib';
import Redis from 'ioredis';
import { BROWSER_UA, linkIds, recordedClicks, type BenchContext, type Scenario } from '../context';
import { AmqpTap, BenchReceiver, RedisTap, type EventTally } from '../event-taps';
import { api, burst } from '../http';
import { grouped } from '../report';
import {
  clickFacts,
  clicksSettled,
  clickProblems,
  compare,
  poll as pollFor,
  Tally,
  timedRow,
  verdict,
} from './common';

/** The streams the events scenario turns on: the URLs it reached, or why one is off. */
export interface EventStreams {
  redis: { url: string } | { off: string };
  amqp: { url: string } | { off: string };
}

/**
 * A webhook attempt's deadline in the scenario. A claim is leased for three times as long plus 5 s, so after a
 * `kill -9` the deliveries in flight are sent again about 11 s later rather than 35 s with the default 10 s.
 */
const WEBHOOK_TIMEOUT_MS = 2000;
/** The longest the outbox may take to deliver what a run made, a restart's leases included. */
const DRAIN_TIMEOUT_MS = 90_000;

/** Waits until `done`, within the drain's time. */
function poll(what: string, done: () => Promise<boolean>): Promise<void> {
  return pollFor(what, done, DRAIN_TIMEOUT_MS);
}
/** Visits of the run that ends in a `kill -9`. */
const KILL_VISITS = { quick: 1000, full: 5000 };

const REACH_TIMEOUT_MS = 3000;

function reachable<T>(attempt: Promise<T>): Promise<T> {
  return Promise.race([
    attempt,
    sleep(REACH_TIMEOUT_MS).then(() => Promise.reject(new Error(`no answer in ${REACH_TIMEOUT_MS} ms`))),
  ]);
}

/**
 * The streams of the bench's environment (EVENTS_REDIS_URL, else REDIS_URL, else the local Redis; EVENTS_AMQP_URL,
 * else the local RabbitMQ), each tried once: one that cannot be reached is off, and the row says so.
 */
export async function eventStreams(): Promise<EventStreams> {
  const redisUrl =
    process.env.EVENTS_REDIS_URL?.trim() || process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const amqpUrl = process.env.EVENTS_AMQP_URL?.trim() || 'amqp://guest:guest@127.0.0.1:5672';
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  const redisOff = await reachable(redis.connect().then(() => redis.ping())).then(
    () => null,
    (error: unknown) => `no Redis at ${new URL(redisUrl).host}: ${(error as Error).message}`,
  );
  redis.disconnect();
  const amqpOff = await reachable(connect(amqpUrl)).then(
    async (connection) => {
      await connection.close();
      return null;
    },
    (error: unknown) => `no RabbitMQ at ${new URL(amqpUrl).host}: ${(error as Error).message}`,
  );
  return {
    redis: redisOff === null ? { url: redisUrl } : { off: redisOff },
    amqp: amqpOff === null ? { url: amqpUrl } : { off: amqpOff },
  };
}

/** What the taps of one sink saw, next to what was recorded. */
interface Sinks {
  webhook: EventTally;
  redis: EventTally | null;
  amqp: EventTally | null;
}

/** Events not yet fanned out, and deliveries not yet ended, in the whole outbox. */
async function undelivered(context: BenchContext): Promise<number> {
  const { rows } = await context.database.db.query<{ pending: number }>(
    `SELECT (SELECT count(*) FROM events WHERE NOT dispatched)::int
          + (SELECT count(*) FROM event_deliveries WHERE next_attempt_at IS NOT NULL)::int AS pending`,
  );
  return rows[0].pending;
}

/** Waits until the clicks of a run are written (at least `answered`, and no more coming), then until all is sent. */
async function settle(
  context: BenchContext,
  ids: number[],
  since: number,
  answered: number,
): Promise<number> {
  const recorded = await clicksSettled(context, ids, since, answered, DRAIN_TIMEOUT_MS, 400);
  await poll('the outbox delivered', async () => (await undelivered(context)) === 0);
  return recorded;
}

/** Each sink must hold every recorded click: once each (`exactly`), or at least once; duplicates are reported. */
function sinkProblems(
  sinks: Sinks,
  recorded: number,
  exactly: boolean,
): { problems: string[]; facts: string[] } {
  const problems: string[] = [];
  const facts: string[] = [];
  for (const [name, tally] of Object.entries(sinks) as [string, EventTally | null][]) {
    if (tally === null) continue;
    facts.push(
      `${name} ${grouped(tally.clicks)} clicks in ${grouped(tally.events)} events` +
        (tally.duplicates > 0 ? `, ${grouped(tally.duplicates)} sent again` : ''),
    );
    if (tally.clicks !== recorded)
      problems.push(`${name}: ${grouped(tally.clicks)} clicks of ${grouped(recorded)}`);
    if (exactly && tally.duplicates > 0) problems.push(`${name}: ${grouped(tally.duplicates)} events twice`);
    const missing = tally === sinks.webhook ? 0 : sinks.webhook.missingFrom(tally);
    if (missing > 0) problems.push(`${name} lacks ${grouped(missing)} events the webhook got`);
  }
  return { problems, facts };
}

/**
 * The plain redirect with a webhook subscribed to `link.clicked` and both streams on: its cost, then that every
 * answered click reached the receiver and each stream exactly once. Then a stalled receiver, a burst of visits and
 * a `kill -9` of the service while deliveries are in flight: after a restart, every click arrives at least once,
 * and what came twice is counted.
 */
export function eventsScenario(streams: EventStreams): Scenario {
  const env: Record<string, string> = {
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
  };
  if ('url' in streams.redis) env.EVENTS_REDIS_URL = streams.redis.url;
  if ('url' in streams.amqp) env.EVENTS_AMQP_URL = streams.amqp.url;
  const off = [streams.redis, streams.amqp].flatMap((stream) => ('off' in stream ? [stream.off] : []));

  return {
    env,
    async run(context) {
      const { options, service, apiKey } = context;
      const receiver = await BenchReceiver.start();
      const redisTap = 'url' in streams.redis ? await RedisTap.start(streams.redis.url) : null;
      const amqpTap = 'url' in streams.amqp ? await AmqpTap.start(streams.amqp.url) : null;
      const sinks: Sinks = {
        webhook: receiver.tally,
        redis: redisTap?.tally ?? null,
        amqp: amqpTap?.tally ?? null,
      };
      const { data: webhook } = await api<{ data: { id: number } }>(service.origin, apiKey, {
        method: 'POST',
        path: '/api/v1/webhooks',
        body: { name: 'Bench receiver', url: receiver.url, events: ['link.clicked'] },
      });
      const aliases = context.plainAliases;
      const ids = await linkIds(context, aliases);
      const headers = { 'User-Agent': BROWSER_UA };
      try {
        // A normal run: the timed load, then everything it made delivered.
        await poll('the outbox empty before the run', async () => (await undelivered(context)) === 0);
        const before = await recordedClicks(context, ids);
        const tally = new Tally();
        const paths = aliases.map((alias) => `/${alias}`);
        // The receiver and the taps run in this process, on the machine they measure: their CPU per answer.
        let tapsCpu = process.cpuUsage();
        const comparison = await compare(
          context,
          { paths, headers, connections: options.connections },
          tally,
          async (runs) => {
            const started = process.cpuUsage();
            const result = await runs();
            tapsCpu = process.cpuUsage(started);
            return result;
          },
        );
        const tapsUs = (tapsCpu.user + tapsCpu.system) / Math.max(1, tally.redirects);
        const recorded = await settle(context, ids, before, tally.redirects);
        await Promise.all([redisTap?.read(), amqpTap?.read()]);
        const normal = sinkProblems(sinks, recorded, true);
        normal.problems.unshift(...clickProblems(tally, recorded, recorded, 0));
        if (tally.others.size > 0) normal.problems.push(`answers other than 3xx: ${tally.othersText()}`);

        // A crash: the receiver stalls, a burst of visits, `kill -9` once clicks are written and deliveries held.
        for (const tap of [sinks.webhook, sinks.redis, sinks.amqp]) tap?.clear();
        receiver.holding = true;
        receiver.held = 0;
        const killBefore = await recordedClicks(context, ids);
        const visits = options.quick ? KILL_VISITS.quick : KILL_VISITS.full;
        const killTally = new Tally();
        killTally.addBurst(
          await burst(service.origin, visits, options.connections, (index) => ({
            path: paths[index % paths.length],
            headers,
          })),
        );
        await poll('the clicks written', async () => {
          const written = (await recordedClicks(context, ids)) - killBefore;
          return written >= killTally.redirects && receiver.held > 0;
        });
        const heldAtKill = receiver.held;
        const pendingAtKill = await undelivered(context);
        await service.kill();
        receiver.release();
        await service.start(env);
        const killRecorded = await settle(context, ids, killBefore, killTally.redirects);
        await Promise.all([redisTap?.read(), amqpTap?.read()]);
        const crash = sinkProblems(sinks, killRecorded, false);
        crash.problems.unshift(...clickProblems(killTally, killRecorded, killRecorded, 0));

        const streamsText =
          off.length === 0 ? 'webhook, Redis and RabbitMQ' : `webhook; off: ${off.join('; ')}`;
        return async (exitCode) => {
          // Clicks written after the outbox was drained would be clicks no sink was asked to carry.
          const after = (await recordedClicks(context, ids)) - killBefore - killRecorded;
          if (after !== 0) crash.problems.push(`${grouped(after)} clicks written after the count`);
          if (exitCode !== 0) crash.problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
          const row = timedRow('redirect plain, webhook + 2 streams', comparison, {
            minRatio: 0.5,
            maxP99Ms: 10,
          });
          return [
            {
              ...row,
              target: off.length === 0 ? row.target : [row.target, 'both streams'].filter(Boolean).join(', '),
              met: off.length === 0 ? row.met : false,
              ...verdict(
                normal.problems,
                `${clickFacts(tally, recorded)}; exactly once to ${streamsText}: ${normal.facts.join(', ')}; ` +
                  `the bench's receiver and taps: ${tapsUs.toFixed(1)} µs CPU per answer`,
              ),
            },
            {
              scenario: 'events after kill -9',
              target: '',
              met: null,
              ...verdict(
                crash.problems,
                `${clickFacts(killTally, killRecorded)}; killed with ${grouped(heldAtKill)} webhook deliveries ` +
                  `held and ${grouped(pendingAtKill)} undelivered; at least once: ${crash.facts.join(', ')}`,
              ),
            },
          ];
        };
      } finally {
        receiver.release();
        await Promise.all([receiver.close(), redisTap?.close(), amqpTap?.close()]);
        // No later session may deliver to a receiver that is gone.
        await api(service.origin, apiKey, { method: 'DELETE', path: `/api/v1/webhooks/${webhook.id}` });
      }
    },
  };
}
