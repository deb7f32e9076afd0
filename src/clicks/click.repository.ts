import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { limitedSql, openSql } from '../links/status/link-status.repository';
import { takenSql } from '../events/outbox/outbox.repository';
import { DIMENSION_CODES } from './click-dimensions';
import type { VisitorProfile } from '../targeting/visitor';

/** A claimed click's destination is the one its turn of the rotation serves, known only once the claim is granted. */
export const BY_TURN = Symbol('by turn');

/**
 * Where a click was sent: a destination's URL (a target's, an app link), null for the link's own `url`, or
 * {@link BY_TURN}.
 */
export type ClickTarget = string | null | typeof BY_TURN;

/** A click waiting to be written: its link, when it was answered (ms since the epoch), its visitor and destination. */
export interface PendingClick {
  linkId: number;
  at: number;
  visitor: VisitorProfile;
  target: ClickTarget;
}

/** The code of a click's target in the statements: the link's own url, or its turn's destination. */
const OWN_URL = 0;
const TURN_CODE = -1;

/** The dimension destinations are numbered under in `click_values` and counted under in `click_days`. */
const TARGET_DIMENSION = DIMENSION_CODES.target;

/** What a claim statement granted: how many of the claims, and where the rotation stood before them. */
export interface ClaimPlan {
  granted: number;
  last_rotation: number | null;
  slots: number;
  rotates: boolean;
}

/** Whether anyone takes click events, and whether the streams do (then every account's are taken). */
export interface EventsTaken {
  clicks: boolean;
  streams: boolean;
}

const NO_EVENTS: EventsTaken = { clicks: false, streams: false };

/** Profile and destination ids remembered by text, at most this many of each: past it the memo starts again. */
const MEMO_SIZE = 50_000;

/**
 * Click rows in arrival order from four integer arrays, one entry a click: its link ($2), its profile ($3), its
 * time in milliseconds after $5 ($4), and its target ($6: a destination's number, 0 for the link's own url, -1 for
 * its turn's). Profiles and destinations are numbered before the statement, so PostgreSQL reads integers alone.
 */
const CLICK_ROWS = `
  SELECT r.link_id, $5::timestamptz + r.ms * interval '1 millisecond' AS created_at, r.ms, r.profile, r.target, r.ord
    FROM unnest($2::int[], $3::int[], $4::int[], $6::int[]) WITH ORDINALITY AS r(link_id, profile, ms, target, ord)`;

/**
 * A destination's code (`code`, of the link `link`) as the rollups its links share (their account's, their
 * space's) keep it: the link's own url (0) is each link's url as it is now, so it stays the link's own there, as the
 * negated link id (`click_values` ids are positive).
 */
function sharedTarget(link: string, code: string): string {
  return `CASE WHEN ${code} = ${OWN_URL} THEN -${link} ELSE ${code} END`;
}

/** A `click_days` row's value (of the row aliased `row`) as the shared rollups key it ({@link sharedTarget}). */
export function sharedValue(row: string): string {
  return `CASE WHEN ${row}.dimension = ${TARGET_DIMENSION} THEN ${sharedTarget(`${row}.link_id`, `${row}.value`)} ELSE ${row}.value END`;
}

/**
 * The rollups links share, in the order every writer locks their rows: accounts' then spaces' (keyed by their
 * owners), hours then days.
 */
const SHARED = [
  ['account', 'account_id'],
  ['space', 'account_id, space_id'],
].flatMap(([level, owners]) => [
  { cte: `${level}_hours`, table: `${level}_click_hours`, key: `${owners}, hour`, from: 'shared_hourly' },
  {
    cte: `${level}_days`,
    table: `${level}_click_days`,
    key: `${owners}, dimension, day, value`,
    from: 'shared_daily',
  },
]);

/**
 * The sums per account, and per account and space, of the link rollups in the CTE `hourly` (link_id, hour, clicks)
 * and of `dayRows` (a query of account_id, space_id, dimension, day, value and clicks), added to the accounts' and
 * spaces' hours and days as data-modifying CTEs. `owners` is a CTE or table of (link_id, account_id, space_id)
 * holding every link of them, read where their counter rows are locked (a batch's `counted` names the account and
 * space its lock saw). Every writer of these rows writes them in the order of {@link SHARED}, each table in key
 * order (each statement waits for what the one before it wrote), so that the batches of links that share rows
 * lock them in the same order.
 */
export function sharedRollUp(owners: string, dayRows: string): string {
  const writes = SHARED.map(({ cte, table, key, from }, index) => {
    const places = key
      .split(', ')
      .map((_, place) => place + 1)
      .join(', ');
    const after = index === 0 ? '' : `\n     WHERE (SELECT count(*) FROM ${SHARED[index - 1].cte}) >= 0`;
    return `${cte} AS (
    INSERT INTO ${table} AS a (${key}, clicks)
    SELECT ${key}, sum(clicks) FROM ${from}${after}
     GROUP BY ${places} ORDER BY ${places}
    ON CONFLICT (${key}) DO UPDATE SET clicks = a.clicks + excluded.clicks
    RETURNING 1
  )`;
  });
  return `
  shared_hourly AS (
    SELECT o.account_id, o.space_id, x.hour, sum(x.clicks) AS clicks
      FROM hourly x JOIN ${owners} o ON o.link_id = x.link_id GROUP BY 1, 2, 3
  ), shared_daily AS (
    SELECT account_id, space_id, dimension, day, value, sum(clicks) AS clicks FROM (${dayRows}) v
     GROUP BY 1, 2, 3, 4, 5
  ), ${writes.join(', ')}`;
}

/**
 * The rollups of the click rows in `kept` (link_id, created_at, profile, target), as data-modifying CTEs: clicks
 * per link and hour, and per link, dimension, day and value: the eight of the profile, and the target (dimension
 * 9) where it was recorded (not null). Each key once (ON CONFLICT may touch a row once a statement), in key order,
 * so that statements writing the same rows take their locks in the same order. The rows of a link are written only
 * under its counter's row lock, which every writer of clicks takes first. With `owners`, the rollups their links
 * share too ({@link sharedRollUp}): a visitor's clicks summed per account and space before its profile is spread
 * over the eight dimensions (a few rows per profile, where the links' days are rows per link); null for a rebuild,
 * which counts its accounts and spaces again afterwards.
 */
export function rollUp(owners: string | null): string {
  const shared = `
    SELECT p.account_id, p.space_id, pd.dimension, p.day, pd.value, p.clicks
      FROM (SELECT o.account_id, o.space_id, x.day, x.profile, sum(x.clicks) AS clicks
              FROM profiled x JOIN ${owners} o ON o.link_id = x.link_id GROUP BY 1, 2, 3, 4) p
      JOIN click_profile_dimensions pd ON pd.profile_id = p.profile
     UNION ALL
    SELECT o.account_id, o.space_id, ${TARGET_DIMENSION}::smallint, x.day, ${sharedTarget('x.link_id', 'x.target')}, x.clicks
      FROM profiled x JOIN ${owners} o ON o.link_id = x.link_id WHERE x.target IS NOT NULL`;
  return `
  hourly AS (
    SELECT link_id, date_bin('1 hour', created_at, '2000-01-01 00:00:00+00') AS hour, count(*)::int AS clicks
      FROM kept GROUP BY 1, 2
  ), hours AS (
    INSERT INTO click_hours AS h (link_id, hour, clicks)
    SELECT link_id, hour, clicks FROM hourly ORDER BY 1, 2
    ON CONFLICT (link_id, hour) DO UPDATE SET clicks = h.clicks + excluded.clicks
  ), profiled AS (
    SELECT link_id, (created_at AT TIME ZONE 'UTC')::date AS day, profile, target, count(*) AS clicks
      FROM kept GROUP BY 1, 2, 3, 4
  ), days AS (
    INSERT INTO click_days AS d (link_id, dimension, day, value, clicks)
    SELECT link_id, dimension, day, value, sum(clicks)
      FROM (SELECT p.link_id, pd.dimension, p.day, pd.value, p.clicks
              FROM profiled p JOIN click_profile_dimensions pd ON pd.profile_id = p.profile
             UNION ALL
            SELECT link_id, ${TARGET_DIMENSION}::smallint, day, target, clicks FROM profiled WHERE target IS NOT NULL) v
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (link_id, dimension, day, value) DO UPDATE SET clicks = d.clicks + excluded.clicks
  )${owners === null ? '' : `,${sharedRollUp(owners, shared)}`}`;
}

/**
 * A batch of clicks of links without a limit or rotation, in one statement: the batch id first (a retried batch
 * that was in fact written is refused by its primary key), then the counters of the links that still exist (a
 * deleted link's counter row went with it), updated in link order so that two instances' batches take their row
 * locks in the same order, then the click rows of those links in arrival order, and their rollups and their
 * accounts' and spaces' (those each counter row names once locked). The counter's row lock stands for the link: a
 * link deleted or moved meanwhile waits for this commit, and its triggers then remove these clicks and rollups too
 * (taking them out of its account's and space's) or move them.
 */
function writeBatch(events: boolean): string {
  return `
  WITH batch AS (
    INSERT INTO click_batches (id) VALUES ($1) RETURNING id
  ), rows AS (${CLICK_ROWS}
  ), counted AS (
    UPDATE link_counters c SET clicks = c.clicks + d.n, listed_behind = true
      FROM (SELECT link_id, count(*)::int AS n FROM rows CROSS JOIN batch GROUP BY link_id ORDER BY link_id) d
     WHERE c.link_id = d.link_id
    RETURNING c.link_id, c.account_id, c.space_id
  ), kept AS MATERIALIZED (
    SELECT r.* FROM rows r WHERE r.link_id IN (SELECT link_id FROM counted)
  ), recorded AS (
    INSERT INTO click_events (created_at, link_id, profile_id, target_id)
    SELECT created_at, link_id, profile, target FROM kept ORDER BY ord
    RETURNING link_id
  ), ${rollUp('counted')}${events ? `, takers AS (SELECT link_id, account_id FROM counted WHERE ${taken('$7', 'account_id', 'link.clicked')}), ${CLICKED}` : ''}
  SELECT (SELECT count(*) FROM recorded)::int AS recorded, (SELECT count(*) FROM counted)::int AS links`;
}

/** Whether events of `type` of the account in `account` are taken: by the streams ($streams true), or a webhook. */
function taken(streams: string, account: string, type: string): string {
  return takenSql(streams, account, `'${type}'`);
}

/**
 * The `link.clicked` events of the kept clicks of `takers` (link, account): one per account and thousand of the
 * batch's clicks (so at most 1,000 each, without numbering an account's clicks apart), written in the transaction
 * that counts them, their clicks as three arrays (links, profiles, milliseconds after the batch's first click),
 * decoded when sent.
 */
const CLICKED = `
  clicked AS (
    INSERT INTO events (account_id, type, click_links, click_base, click_offsets, click_profiles)
    SELECT t.account_id, 'link.clicked', array_agg(k.link_id ORDER BY k.ord), $5::timestamptz,
           array_agg(k.ms ORDER BY k.ord), array_agg(k.profile ORDER BY k.ord)
      FROM kept k JOIN takers t ON t.link_id = k.link_id
     GROUP BY t.account_id, (k.ord - 1) / 1000
  )`;

/** The batch statement without events, and with them for when someone takes clicks. */
const WRITE_BATCH = { plain: writeBatch(false), withEvents: writeBatch(true) };

/**
 * The visits waiting on a link with a limit or a rotation, granted in one statement under the counter's row lock:
 * as many as the limit still allows (all of them without a limit), the rotation moved on by as many of them as go
 * by turn, and the click rows of the granted visits recorded in arrival order, with their rollups. Nothing is granted to a link that is
 * disabled or outside its active period by now (the status rule's {@link openSql}); the clicks limit is kept by
 * granting no more than it leaves.
 */
function claim(events: boolean): string {
  return `
  WITH current AS (
    SELECT c.link_id, c.account_id, c.space_id, c.clicks, c.last_rotation, l.clicks_limit, l.targets_type,
           -- A round of the rotation: its weights added up (each 1 where it has none).
           CASE WHEN jsonb_typeof(l.targets) = 'array'
                THEN (SELECT COALESCE(sum(COALESCE((t ->> 'weight')::int, 1)), 0)::int
                        FROM jsonb_array_elements(l.targets) AS t)
                ELSE 0 END AS slots
      FROM link_counters c
      JOIN links l ON l.id = c.link_id
     WHERE c.link_id = $1
       AND ${openSql('l')}
       FOR NO KEY UPDATE OF c
  ), plan AS (
    SELECT link_id, last_rotation, slots, targets_type = 'rotations' AND slots > 0 AS rotates,
           CASE WHEN ${limitedSql('clicks_limit')} THEN LEAST($7::int, GREATEST(clicks_limit - clicks, 0)) ELSE $7::int END
             AS granted
      FROM current
  ), rows AS (${CLICK_ROWS}
  ), kept AS MATERIALIZED (
    -- Only clicks by turn take turns (an app's visitor takes none): each its rank among them after the last turn,
    -- and the destination of that turn ($8: each turn's destination number, as the visit read the rotation).
    SELECT t.link_id, t.created_at, t.ms, t.profile, t.ord, t.target = ${TURN_CODE} AS by_turn,
           CASE WHEN t.target <> ${TURN_CODE} THEN t.target
                WHEN p.rotates THEN COALESCE(($8::int[])[((COALESCE(p.last_rotation, -1) + t.turn) % p.slots + 1)::int], ${OWN_URL})
                ELSE ${OWN_URL} END AS target
      FROM (SELECT r.*, count(*) FILTER (WHERE r.target = ${TURN_CODE}) OVER (ORDER BY r.ord) AS turn FROM rows r) t
     CROSS JOIN plan p WHERE t.ord <= p.granted
  ), counted AS (
    UPDATE link_counters c
       SET clicks = c.clicks + p.granted,
           listed_clicks = c.clicks + p.granted,
           listed_behind = false,
           last_rotation = CASE WHEN p.rotates AND k.turns > 0
                             THEN (COALESCE(p.last_rotation, -1) + k.turns) % p.slots
                             ELSE c.last_rotation END
      FROM plan p CROSS JOIN (SELECT count(*) FILTER (WHERE by_turn) AS turns FROM kept) k
     WHERE c.link_id = p.link_id
  ), recorded AS (
    INSERT INTO click_events (created_at, link_id, profile_id, target_id)
    SELECT created_at, link_id, profile, target FROM kept ORDER BY ord
  ), ${rollUp('current')}${events ? `, takers AS (SELECT link_id, account_id FROM current WHERE ${taken('$9', 'account_id', 'link.clicked')}), ${CLICKED}, ${REACHED}` : ''}
  SELECT granted, last_rotation, slots, rotates FROM plan`;
}

/**
 * The `link.limit_reached` event of a claim that counted a link's last allowed click: its data is the link as the
 * API shows it, made when the event is sent.
 */
const REACHED = `
  reached AS (
    INSERT INTO events (account_id, type, link_id, ready)
    SELECT c.account_id, 'link.limit_reached', c.link_id, false FROM current c JOIN plan p ON p.link_id = c.link_id
     WHERE ${limitedSql('c.clicks_limit')} AND c.clicks < c.clicks_limit AND c.clicks + p.granted >= c.clicks_limit
       AND ${taken('$9', 'c.account_id', 'link.limit_reached')}
  )`;

/** The claim statement without events, and with them for when someone takes clicks. */
const CLAIM = { plain: claim(false), withEvents: claim(true) };

/** A profile's eight texts, in the order of the stats names (`click_profile_id`'s arguments). */
export function profileTexts(visitor: VisitorProfile): (string | null)[] {
  const { referrer, country, city, continent, browser, os, device, language } = visitor;
  return [referrer, country, city, continent, browser, os, device, language];
}

/** The numbers a statement writes for a click: its visitor's profile, and its destination. */
export interface ClickCodes {
  profile: (visitor: VisitorProfile) => number;
  /** A destination's URL numbered; called only for strings. */
  target: (url: string) => number;
}

/** A click's target as the statements read it ({@link CLICK_ROWS}). */
function targetCode(target: ClickTarget, codes: ClickCodes): number {
  if (target === null) return OWN_URL;
  return target === BY_TURN ? TURN_CODE : codes.target(target);
}

/** Parameters $2 to $6 of a statement reading {@link CLICK_ROWS}. */
export type ClickParameters = [
  links: string,
  profiles: string,
  offsets: string,
  base: string,
  targets: string,
];

/**
 * Parameters $2 to $6 of a statement reading {@link CLICK_ROWS}: each click's link, profile id and milliseconds
 * after the first click, the first click's time, and each click's target.
 */
export function clickParameters(clicks: readonly PendingClick[], codes: ClickCodes): ClickParameters {
  const base = clicks.length === 0 ? 0 : clicks[0].at;
  const [links, profiles, offsets, targets] = encodeSlice(clicks, codes, base);
  return [`{${links}}`, `{${profiles}}`, `{${offsets}}`, new Date(base).toISOString(), `{${targets}}`];
}

/** Clicks encoded per turn of the event loop: a batch of 50,000 would otherwise hold visits up for milliseconds. */
const ENCODE_SLICE = 5000;

/** {@link clickParameters}, a slice of clicks per turn of the event loop. */
export async function clickParametersInTurns(
  clicks: readonly PendingClick[],
  codes: ClickCodes,
): Promise<ClickParameters> {
  if (clicks.length <= ENCODE_SLICE) return clickParameters(clicks, codes);
  const base = clicks[0].at;
  const parts: string[][] = [[], [], [], []];
  for (let start = 0; start < clicks.length; start += ENCODE_SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const encoded = encodeSlice(clicks.slice(start, start + ENCODE_SLICE), codes, base);
    encoded.forEach((text, index) => parts[index].push(text));
  }
  const [links, profiles, offsets, targets] = parts.map((texts) => `{${texts.join(',')}}`);
  return [links, profiles, offsets, new Date(base).toISOString(), targets];
}

/** The four arrays' elements, comma-separated. */
function encodeSlice(
  clicks: readonly PendingClick[],
  codes: ClickCodes,
  base: number,
): [string, string, string, string] {
  const links: number[] = [];
  const profiles: number[] = [];
  const offsets: number[] = [];
  const targets: number[] = [];
  for (const { linkId, at, visitor, target } of clicks) {
    links.push(linkId);
    profiles.push(codes.profile(visitor));
    offsets.push(at - base);
    targets.push(targetCode(target, codes));
  }
  return [links.join(','), profiles.join(','), offsets.join(','), targets.join(',')];
}

/**
 * The click statements, and the numbers they take. A profile's or a destination's number never changes once given,
 * so each instance remembers them: a profile by its object (visitors of the same agent share one), then by its
 * texts; a destination by its URL.
 */
@Injectable()
export class ClickRepository {
  private readonly byObject = new WeakMap<VisitorProfile, number>();
  private readonly byText = new Map<string, number>();
  private readonly targets = new Map<string, number>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes a batch: the clicks recorded (those of links that still exist). With `events` (someone takes clicks),
   * the same statement writes their events. Throws the database's error.
   */
  async writeBatch(
    id: string,
    clicks: readonly PendingClick[],
    events: EventsTaken = NO_EVENTS,
  ): Promise<number> {
    const codes = await this.codes(clicks, []);
    const parameters = [id, ...(await clickParametersInTurns(clicks, codes))];
    const written: { recorded: number }[] = events.clicks
      ? await this.dataSource.query(WRITE_BATCH.withEvents, [...parameters, events.streams])
      : await this.dataSource.query(WRITE_BATCH.plain, parameters);
    return written[0]?.recorded ?? 0;
  }

  /**
   * Grants what it may of the claims of one link; undefined when the link may not be visited any more. `turns`:
   * the destination each turn of its rotation serves, as the visits read the link (empty when it does not rotate).
   */
  async claim(
    linkId: number,
    claims: readonly PendingClick[],
    turns: readonly string[],
    events: EventsTaken = NO_EVENTS,
  ): Promise<ClaimPlan | undefined> {
    const codes = await this.codes(claims, turns);
    const parameters = [
      linkId,
      ...clickParameters(claims, codes),
      claims.length,
      `{${turns.map(codes.target).join(',')}}`,
    ];
    const rows: ClaimPlan[] = events.clicks
      ? await this.dataSource.query(CLAIM.withEvents, [...parameters, events.streams])
      : await this.dataSource.query(CLAIM.plain, parameters);
    return rows[0];
  }

  /** Forgets the ids of batches written before the retention period. */
  async pruneBatchIds(retention: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM click_batches WHERE written_at < now() - $1::interval`, [
      retention,
    ]);
  }

  /** The numbers of the clicks' profiles and destinations (and of `turns`), asking only for those never seen. */
  private async codes(clicks: readonly PendingClick[], turns: readonly string[]): Promise<ClickCodes> {
    const unknownTargets = new Set<string>();
    for (const { target } of clicks) {
      if (typeof target === 'string' && !this.targets.has(target)) unknownTargets.add(target);
    }
    for (const target of turns) if (!this.targets.has(target)) unknownTargets.add(target);
    await Promise.all([this.numberProfiles(clicks), this.numberTargets([...unknownTargets])]);
    return {
      profile: (visitor) => this.byObject.get(visitor)!,
      target: (url) => this.targets.get(url)!,
    };
  }

  /** Numbers the destinations never seen, as values of the target dimension. */
  private async numberTargets(urls: string[]): Promise<void> {
    if (urls.length === 0) return;
    const [row]: { ids: number[] }[] = await this.dataSource.query(
      `SELECT array_agg(click_value_id(${DIMENSION_CODES.target}::smallint, url) ORDER BY place) AS ids
         FROM unnest($1::text[]) WITH ORDINALITY AS u(url, place)`,
      [urls],
    );
    if (this.targets.size + urls.length > MEMO_SIZE) this.targets.clear();
    urls.forEach((url, index) => this.targets.set(url, row.ids[index]));
  }

  /** Numbers the profiles of the clicks' visitors never seen. */
  private async numberProfiles(clicks: readonly PendingClick[]): Promise<void> {
    const unknown = new Map<string, Set<VisitorProfile>>();
    for (const { visitor } of clicks) {
      if (this.byObject.has(visitor)) continue;
      const text = JSON.stringify(profileTexts(visitor));
      const id = this.byText.get(text);
      if (id !== undefined) this.byObject.set(visitor, id);
      else if (unknown.has(text)) unknown.get(text)!.add(visitor);
      else unknown.set(text, new Set([visitor]));
    }
    if (unknown.size === 0) return;
    const texts = [...unknown.keys()];
    const [row]: { ids: number[] }[] = await this.dataSource.query(
      'SELECT click_profile_ids($1::jsonb) AS ids',
      [`[${texts.join(',')}]`],
    );
    if (this.byText.size + texts.length > MEMO_SIZE) this.byText.clear();
    texts.forEach((text, index) => {
      const id = row.ids[index];
      this.byText.set(text, id);
      for (const visitor of unknown.get(text)!) this.byObject.set(visitor, id);
    });
  }
}
