import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { PreparedStatements, type PreparedStatement } from '../database/prepared-statements';
import { COMPLETED_BY_SENDER } from './outbox/event';

/** Taken by the instance that caps backlogs, so that two do not both drop a webhook's excess. */
export const MAINTENANCE_LOCK = 0x4576_6e74;

/** Where a delivery goes: a webhook, or a stream. */
export enum Sink {
  Webhook = 1,
  Redis = 2,
  Amqp = 3,
}

/** How a delivery ended. */
export enum Outcome {
  Delivered = 1,
  /** Every attempt failed. */
  Failed = 2,
  /** Dropped unsent: its webhook's backlog was over the cap. */
  Dropped = 3,
}

/** An event as the outbox holds it. */
export interface EventRow {
  id: string;
  public_id: string;
  account_id: number;
  type: string;
  link_id: number | null;
  data: unknown;
  ready: boolean;
  created_at: Date;
}

/** A delivery claimed for an attempt: its event, its webhook (null for a stream) and the attempt's number. */
export interface ClaimedDelivery {
  id: string;
  event_id: string;
  webhook_id: number | null;
  attempts: number;
}

/** A webhook's delivery target, as the claim reads it with its deliveries. */
export interface WebhookRow {
  id: number;
  url: string;
  secret: string;
}

/**
 * Events as sent, by id ($1): a click event's clicks as its three arrays, times as milliseconds after its base
 * (an event written before offsets existed has them computed from its timestamps).
 */
const OUTGOING_EVENTS: PreparedStatement = {
  name: 'shortlink_outgoing_events',
  text: `SELECT e.id::text, e.public_id, e.type, e.data, e.created_at, e.click_links, e.click_profiles,
                COALESCE(e.click_base, e.click_times[1]) AS click_base,
                COALESCE(e.click_offsets, ARRAY(
                  SELECT (extract(epoch FROM t - e.click_times[1]) * 1000)::int
                    FROM unnest(e.click_times) WITH ORDINALITY AS u(t, n) ORDER BY n)) AS click_offsets
           FROM events e
          WHERE e.id = ANY ($1::bigint[])`,
};

/**
 * The JSON parts of the clicks of these events ($1), each once: a link's head (`{"link_id":1,"alias":"x",
 * "created_at":"`, up to the click's time) and a profile's tail (`","referrer":...}`, after it), with the texts
 * the click export shows of a visitor.
 */
const CLICK_PARTS: PreparedStatement = {
  name: 'shortlink_click_parts',
  text: `WITH picked AS MATERIALIZED (SELECT click_links, click_profiles FROM events WHERE id = ANY ($1::bigint[]))
         SELECT true AS link, id, '{"link_id":' || id || ',"alias":' || to_json(alias)::text || ',"created_at":"' AS part
           FROM links WHERE id IN (SELECT DISTINCT unnest(click_links) FROM picked)
         UNION ALL
         SELECT false, p.id, '",' || substr(row_to_json(texts)::text, 2)
           FROM click_profiles p
           CROSS JOIN LATERAL (
             SELECT referrer.value AS referrer, country.value AS country,
                    substr(city.value, strpos(city.value, ':') + 1) AS city, continent.value AS continent,
                    browser.value AS browser, os.value AS operating_system, device.value AS device,
                    language.value AS language
               FROM (SELECT) one
               LEFT JOIN click_values referrer ON referrer.id = p.referrer
               LEFT JOIN click_values country ON country.id = p.country
               LEFT JOIN click_values city ON city.id = p.city
               LEFT JOIN click_values continent ON continent.id = p.continent
               LEFT JOIN click_values browser ON browser.id = p.browser
               LEFT JOIN click_values os ON os.id = p.operating_system
               LEFT JOIN click_values device ON device.id = p.device
               LEFT JOIN click_values language ON language.id = p.language
           ) texts
          WHERE p.id IN (SELECT DISTINCT unnest(click_profiles) FROM picked)`,
};

const EVENT_COLUMNS = `id::text, public_id, account_id, type, link_id, data, ready, created_at`;

/**
 * The outbox's read side, in SQL tuned for it: fan-out of new events to their deliveries, claims of due deliveries
 * (SKIP LOCKED, so any number of instances share the work, each delivery leased to one until its lease ends), their
 * results, and retention in small steps. Times are the caller's clock, so that tests move time rather than wait.
 */
@Injectable()
export class EventsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
  ) {}

  /**
   * Events that must be given their data before they are sent: those the sender completes (`link.limit_reached`,
   * the link when its limit was reached; `link.broken` and `link.recovered`, when its check found it so) and a change
   * whose data a crash kept its API request from completing (older than `staleBefore`).
   */
  async incomplete(limit: number, staleBefore: Date): Promise<EventRow[]> {
    return this.statements.query<EventRow>(
      {
        name: 'events_incomplete',
        text: `SELECT ${EVENT_COLUMNS} FROM events
        WHERE NOT dispatched AND NOT ready AND (type IN (${COMPLETED_BY_SENDER.map((type) => `'${type}'`).join(', ')}) OR created_at < $2)
        ORDER BY id LIMIT $1`,
      },
      [limit, staleBefore],
    );
  }

  async complete(events: { id: string; data: unknown }[]): Promise<void> {
    if (events.length === 0) return;
    await this.dataSource.query(
      `UPDATE events e SET data = d.data, ready = true
         FROM unnest($1::bigint[], $2::jsonb[]) AS d(id, data) WHERE e.id = d.id AND NOT e.ready`,
      [events.map((event) => event.id), events.map((event) => JSON.stringify(event.data))],
    );
  }

  /**
   * Gives up to `limit` ready events, oldest first, their deliveries: one per enabled webhook of the account that
   * takes the type, and one per stream in `streams`; in one statement, so an event is fanned out once.
   */
  async fanOut(limit: number, streams: readonly Sink[], now: Date): Promise<number> {
    const [row] = await this.statements.query<{ events: number }>(
      {
        name: 'events_fan_out',
        text: `WITH picked AS (
         SELECT id, account_id, type FROM events WHERE NOT dispatched AND ready ORDER BY id LIMIT $1
            FOR UPDATE SKIP LOCKED
       ), targets AS (
         INSERT INTO event_deliveries (event_id, webhook_id, sink, next_attempt_at)
         SELECT p.id, w.id, ${Sink.Webhook}, $3::timestamptz FROM picked p
           JOIN webhooks w ON w.account_id = p.account_id AND w.enabled AND p.type = ANY (w.events)
         UNION ALL
         SELECT p.id, NULL, s.sink, $3::timestamptz FROM picked p CROSS JOIN unnest($2::smallint[]) AS s(sink)
       ), marked AS (
         UPDATE events e SET dispatched = true FROM picked p WHERE e.id = p.id
       )
       SELECT count(*)::int AS events FROM picked`,
      },
      [limit, streams, now],
    );
    return row.events;
  }

  /**
   * Claims due deliveries to a stream, in event order, leased until `leaseUntil`: up to `limit`, and no more clicks
   * than `clicks` (a click event counts its clicks, any other event one; the first is always taken), so that a
   * batch of click events stays a few MB, not `limit` times 250 KB.
   */
  async claimStream(
    sink: Sink,
    limit: number,
    clicks: number,
    now: Date,
    leaseUntil: Date,
  ): Promise<{ claimed: ClaimedDelivery[]; full: boolean }> {
    const rows = await this.statements.query<ClaimedDelivery & { due: number }>(
      {
        name: 'events_claim_stream',
        text: `WITH due AS (
         SELECT d.id, d.event_id, d.next_attempt_at FROM event_deliveries d
          WHERE d.sink = $1 AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $4
          ORDER BY d.next_attempt_at, d.id LIMIT $2 FOR UPDATE SKIP LOCKED
       ), weighed AS (
         -- An event removed meanwhile (its account deleted) weighs one: claimed, it is closed as dropped.
         SELECT due.id, COALESCE(cardinality(e.click_links), 1) AS weight,
                sum(COALESCE(cardinality(e.click_links), 1)) OVER (ORDER BY due.next_attempt_at, due.id) AS running
           FROM due LEFT JOIN events e ON e.id = due.event_id
       ), claimed AS (
         UPDATE event_deliveries d SET attempts = d.attempts + 1, next_attempt_at = $5
           FROM weighed w WHERE d.id = w.id AND w.running - w.weight < $3
         RETURNING d.id, d.event_id, d.webhook_id, d.attempts
       )
       SELECT id::text, event_id::text, webhook_id, attempts, (SELECT count(*) FROM due)::int AS due
         FROM claimed ORDER BY id`,
      },
      [sink, limit, clicks, now, leaseUntil],
    );
    const claimed = rows.map(({ due: _due, ...delivery }) => delivery);
    // Full: the limit was reached, or the clicks cut the batch short of what was due.
    return { claimed, full: rows.length > 0 && (rows.length === limit || rows[0].due > rows.length) };
  }

  /**
   * Claims due webhook deliveries of enabled webhooks, oldest first within a webhook, `limit` in all and at most
   * `perWebhook` of each, or what `room` leaves one that has deliveries under way: a receiver with a backlog
   * cannot take every slot from the others.
   */
  async claimWebhooks(
    limit: number,
    perWebhook: number,
    room: ReadonlyMap<number, number>,
    now: Date,
    leaseUntil: Date,
  ): Promise<(ClaimedDelivery & WebhookRow)[]> {
    return this.statements.query<ClaimedDelivery & WebhookRow>(
      {
        name: 'events_claim_webhooks',
        text: `WITH room AS (
         SELECT * FROM unnest($3::int[], $4::int[]) AS r(webhook_id, free)
       ), due AS (
         SELECT d.id FROM webhooks w
         LEFT JOIN room ON room.webhook_id = w.id
         CROSS JOIN LATERAL (
           SELECT id FROM event_deliveries d
            WHERE d.webhook_id = w.id AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $5
            ORDER BY d.next_attempt_at, d.id LIMIT COALESCE(room.free, $2) FOR UPDATE SKIP LOCKED
         ) d
         WHERE w.enabled
         LIMIT $1
       ), claimed AS (
         UPDATE event_deliveries d SET attempts = d.attempts + 1, next_attempt_at = $6
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.event_id, d.webhook_id, d.attempts
       )
       SELECT c.id::text, c.event_id::text, c.webhook_id, c.attempts, w.url, w.secret
         FROM claimed c JOIN webhooks w ON w.id = c.webhook_id`,
      },
      [limit, perWebhook, [...room.keys()], [...room.values()], now, leaseUntil],
    );
  }

  /** Claims given back unattempted: due at `now`, their attempt not counted. */
  async unclaim(ids: readonly string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.statements.query(
      {
        name: 'events_unclaim',
        text: 'UPDATE event_deliveries SET attempts = attempts - 1, next_attempt_at = $2 WHERE id = ANY ($1::bigint[])',
      },
      [ids, now],
    );
  }

  /**
   * The events of these ids as they are stored, a click event's clicks as arrays. Prepared: its plan cost more
   * than a small read.
   */
  async events(ids: readonly string[]): Promise<OutgoingRow[]> {
    if (ids.length === 0) return [];
    return this.statements.query<OutgoingRow>(OUTGOING_EVENTS, [ids]);
  }

  /**
   * The JSON parts of the clicks of these events: each link's head and each profile's tail, by id, read once
   * for all of them. PostgreSQL writes the parts (their texts escaped as JSON); the service puts them together
   * with each click's time (see event-payloads.ts), which cost PostgreSQL 3 µs a click to do itself.
   */
  async clickParts(ids: readonly string[]): Promise<ClickParts> {
    const parts: ClickParts = { heads: new Map(), tails: new Map() };
    if (ids.length === 0) return parts;
    const rows = await this.statements.query<{ link: boolean; id: number; part: string }>(CLICK_PARTS, [ids]);
    for (const row of rows) (row.link ? parts.heads : parts.tails).set(row.id, row.part);
    return parts;
  }

  /** Deliveries done, with how they ended. */
  async finish(ids: readonly string[], outcome: Outcome): Promise<void> {
    if (ids.length === 0) return;
    await this.statements.query(
      {
        name: 'events_finish',
        text: 'UPDATE event_deliveries SET next_attempt_at = NULL, outcome = $2 WHERE id = ANY ($1::bigint[])',
      },
      [ids, outcome],
    );
  }

  /** Deliveries to try again at `at`. */
  async retryAt(ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.statements.query(
      {
        name: 'events_retry_at',
        text: 'UPDATE event_deliveries SET next_attempt_at = $2 WHERE id = ANY ($1::bigint[])',
      },
      [ids, at],
    );
  }

  /**
   * Drops the oldest pending deliveries of each webhook past `caps.webhook` pending ones, and of each stream past
   * `caps.stream`: a receiver or a broker down for long cannot make the outbox grow without bound. Returns how many
   * each lost (`webhook_id` null for a stream). The caps are met rarely: the scan of a backlog is the price then.
   * One instance at a time: none while another holds the maintenance lock, so that two do not both drop a
   * webhook's excess.
   */
  async dropOverCap(caps: {
    webhook: number;
    stream: number;
  }): Promise<{ sink: Sink; webhook_id: number | null; dropped: number }[]> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query<{ locked: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock($1) AS locked',
        [MAINTENANCE_LOCK],
      );
      if (!locked) return [];
      return this.dropOverCapIn(manager, caps);
    });
  }

  private async dropOverCapIn(
    manager: EntityManager,
    caps: { webhook: number; stream: number },
  ): Promise<{ sink: Sink; webhook_id: number | null; dropped: number }[]> {
    return manager.query<{ sink: Sink; webhook_id: number | null; dropped: number }[]>(
      `WITH over AS (
         SELECT sink, webhook_id, count(*) - (CASE WHEN webhook_id IS NULL THEN $2::int ELSE $1::int END) AS excess
           FROM event_deliveries
          WHERE next_attempt_at IS NOT NULL
          GROUP BY sink, webhook_id HAVING count(*) > (CASE WHEN webhook_id IS NULL THEN $2::int ELSE $1::int END)
       ), victims AS (
         SELECT d.id FROM over o
         CROSS JOIN LATERAL (
           SELECT id FROM event_deliveries
            WHERE sink = o.sink AND webhook_id IS NOT DISTINCT FROM o.webhook_id AND next_attempt_at IS NOT NULL
            ORDER BY id LIMIT o.excess FOR UPDATE SKIP LOCKED
         ) d
       ), dropped AS (
         UPDATE event_deliveries d SET next_attempt_at = NULL, outcome = ${Outcome.Dropped}
           FROM victims v WHERE d.id = v.id
         RETURNING d.sink, d.webhook_id
       )
       SELECT sink, webhook_id, count(*)::int AS dropped FROM dropped GROUP BY sink, webhook_id`,
      [caps.webhook, caps.stream],
    );
  }

  /**
   * Removes up to `limit` events older than `before` whose deliveries are all done (with their deliveries), and
   * as many delivery-log rows: one small step, which the caller repeats while it removes a full one.
   */
  async removeOld(before: Date, limit: number): Promise<{ events: number; attempts: number }> {
    const [events] = await this.dataSource.query<{ removed: number }[]>(
      `WITH old AS (
         SELECT e.id FROM events e
          WHERE e.created_at < $1 AND e.dispatched
            AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_id = e.id AND d.next_attempt_at IS NOT NULL)
          ORDER BY e.created_at LIMIT $2
       ), removed AS (DELETE FROM events e USING old WHERE e.id = old.id RETURNING 1)
       SELECT count(*)::int AS removed FROM removed`,
      [before, limit],
    );
    const [attempts] = await this.dataSource.query<{ removed: number }[]>(
      `WITH old AS (SELECT id FROM webhook_attempts WHERE created_at < $1 ORDER BY created_at LIMIT $2),
            removed AS (DELETE FROM webhook_attempts a USING old WHERE a.id = old.id RETURNING 1)
       SELECT count(*)::int AS removed FROM removed`,
      [before, limit],
    );
    return { events: events.removed, attempts: attempts.removed };
  }

  /** Pending deliveries by sink: the backlog the metrics show. */
  async backlog(): Promise<{ sink: Sink; pending: number }[]> {
    return this.dataSource.query<{ sink: Sink; pending: number }[]>(
      `SELECT sink, count(*)::int AS pending FROM event_deliveries WHERE next_attempt_at IS NOT NULL GROUP BY sink`,
    );
  }
}

/** An event as it is read to be sent: a click event's clicks as three arrays and the time they count from. */
export interface OutgoingRow {
  id: string;
  public_id: string;
  type: string;
  data: unknown;
  created_at: Date;
  click_links: number[] | null;
  click_profiles: number[] | null;
  click_base: Date | null;
  click_offsets: number[] | null;
}

/** The JSON parts of clicks: a link's head by link id, a profile's tail by profile id. */
export interface ClickParts {
  heads: Map<number, string>;
  tails: Map<number, string>;
}
