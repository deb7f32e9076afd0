import { performance } from 'node:perf_hooks';
import type { PoolClient } from 'pg';
import type { BenchContext, Scenario } from '../context';
import { api, quantile, send, type Answer, type Call } from '../http';
import { grouped, type Row } from '../report';
import { verdict } from './common';

/**
 * Stats at scale (issue 22): one link with the run's clicks (10,000,000 by default) over its last 90 days, one
 * with a tenth of them over the same days with the same visitors, and 50 links sharing a fifth of them in a space
 * of their own, all in the bench's workspace (dated as far back as its links). The links are made through the API;
 * their clicks, rollups and counters in SQL, set-based, then VACUUM ANALYZE. Every stats name is asked for each
 * link's whole life, the last 7 days and one day, with and without a search, and the public stats page for every
 * range it offers; then the same of the workspace (`GET /api/v1/stats`): whole, its space of 50 links, and five
 * links compared (`link_ids[]`). Every sum is held against the raw clicks.
 */

const DAY_MS = 86_400_000;
/** How far back the links were made, and the days their clicks span. */
const SPAN_DAYS = 90;
const SMALL_LINKS = 50;
/** Distinct visitors of the seed, the first ones far more frequent than the last. */
const PROFILES = 3000;
const MAX_P95_MS = 50;
const MAX_PAGE_P95_MS = 150;
/** A p95 at the big link under this many times the tenth's, for the same question. */
const MAX_GROWTH = 2;
/** At or under this, a p95 is mostly noise on a shared machine: its growth is not judged. */
const NOISE_MS = 5;
const MAX_BYTES_PER_CLICK = 80;
/** Values per page when a dimension is read whole, to add up. */
const PER_PAGE = 100;
/** Timed calls of one question stop at `--stats-calls` or after this long, whichever comes first. */
const QUESTION_SECONDS = 10;
/** The links a comparison counts together: the most `link_ids[]` takes. */
const COMPARED_LINKS = 5;

const NAMES = [
  'click',
  'referrer',
  'country',
  'city',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
] as const;
type StatsName = (typeof NAMES)[number];

/**
 * A term per dimension that matches some of its values as the API writes them (a country as `GB:United Kingdom`,
 * a city as `US:City 1`, a device in lower case); `click` searches the month of yesterday.
 */
const SEARCH_TERMS: Record<Exclude<StatsName, 'click'>, string> = {
  referrer: 'ref1',
  country: 'united',
  city: 'city 1',
  continent: 'a',
  browser: 'e',
  operating_system: 'o',
  device: 't',
  language: 'e',
};

/**
 * Visitor profiles of the seed, numbered 1..3000: 300 referrers (a quarter unknown), 50 countries with their
 * continents, 10 city names (a third unknown), 8 browsers, 6 systems, 3 devices, 25 languages. Each row of
 * `click_values` and `click_profiles` is made by `click_profile_id`, as a click batch makes it.
 */
const PROFILES_SQL = `
  WITH dims AS (
    SELECT ARRAY['US','GB','DE','FR','IN','BR','JP','CA','ES','IT','NL','SE','PL','MX','AU','KR','TR','RU','ID','AR',
                 'NG','ZA','EG','CN','CH','BE','AT','PT','NO','DK','FI','IE','NZ','SG','HK','TW','TH','VN','PH','MY',
                 'CO','CL','PE','UA','RO','CZ','HU','GR','IL','AE'] AS countries,
           ARRAY['NA','EU','EU','EU','AS','SA','AS','NA','EU','EU','EU','EU','EU','NA','OC','AS','AS','EU','AS','SA',
                 'AF','AF','AF','AS','EU','EU','EU','EU','EU','EU','EU','EU','OC','AS','AS','AS','AS','AS','AS','AS',
                 'SA','SA','SA','EU','EU','EU','EU','EU','AS','AS'] AS continents,
           ARRAY['Chrome','Safari','Firefox','Edge','Opera','Samsung Internet','UC Browser','Yandex'] AS browsers,
           ARRAY['Windows','iOS','Android','OS X','Linux','Chrome OS'] AS systems,
           ARRAY['Desktop','Mobile','Tablet'] AS devices,
           ARRAY['en','es','de','fr','pt','ja','zh','ru','it','nl','ko','tr','pl','sv','ar','hi','id','vi','th','uk',
                 'cs','el','he','ro','hu'] AS languages)
  SELECT array_agg(click_profile_id(
           CASE WHEN i % 4 = 0 THEN NULL ELSE 'ref' || (i * 7 % 300) || '.example' END,
           countries[1 + i % 50],
           CASE WHEN i % 3 = 0 THEN NULL ELSE 'City ' || (i * 13 % 10) END,
           continents[1 + i % 50],
           browsers[1 + i * 3 % 8], systems[1 + i * 5 % 6], devices[1 + i * 11 % 3], languages[1 + i * 17 % 25])
         ORDER BY i) AS ids
    FROM dims, generate_series(0, ${PROFILES - 1}) AS i`;

/**
 * `$5` clicks evenly spread over the seconds after `$1` (epoch) in steps of `$2`, in time order, dealt to the
 * links of `$3` in turn; the visitor is one of the profiles `$4`, drawn with a skew (random()^3) so that the first
 * ones recur most, as a few referrers and countries bring most visits.
 */
const CLICKS_SQL = `
  INSERT INTO click_events (created_at, link_id, profile_id)
  SELECT to_timestamp($1::float8 + g * $2::float8),
         ($3::int[])[1 + (g - 1) % cardinality($3::int[])],
         ($4::int[])[1 + floor(random() ^ 3 * ${PROFILES})::int]
    FROM generate_series(1, $5::int) AS g`;

/**
 * The rollups of some links, from their raw clicks, as click batches would have kept them: a day's rows written in
 * that day, so in day (hour) order. Batches append each new row of a day where that day's rows go; rows in
 * aggregate order instead would scatter a link's days over the whole table, a read the service never meets.
 */
const ROLLUP_SQL = [
  `INSERT INTO click_hours (link_id, hour, clicks)
   SELECT link_id, date_bin('1 hour', created_at, '2000-01-01 00:00:00+00') AS hour, count(*)
     FROM click_events WHERE link_id = ANY($1::int[]) GROUP BY 1, 2
    ORDER BY hour, link_id`,
  // Counted per visitor first: 3,000 profiles a day rather than a row per click and dimension.
  `INSERT INTO click_days (link_id, dimension, day, value, clicks)
   SELECT p.link_id, pd.dimension, p.day, pd.value, sum(p.clicks)
     FROM (SELECT link_id, (created_at AT TIME ZONE 'UTC')::date AS day, profile_id, count(*) AS clicks
             FROM click_events WHERE link_id = ANY($1::int[]) GROUP BY 1, 2, 3) p
     JOIN click_profile_dimensions pd ON pd.profile_id = p.profile_id
    GROUP BY 1, 2, 3, 4
    ORDER BY p.day, p.link_id, pd.dimension, pd.value`,
];

/** The rollups links share where the schema keeps them: their workspace's, and their spaces' (0: none). */
const SHARED_ROLLUPS = { account: ['account_id'], space: ['account_id', 'space_id'] } as const;

/**
 * The shared rollups of a level (keyed by `owners`, as the links' counters name them), from those of some links:
 * what the click batches would have added to them, written in day (hour) order as the links' are. A target's own
 * url (code 0) is kept per link there, as the negated link id.
 */
function sharedRollupSql(level: keyof typeof SHARED_ROLLUPS): string[] {
  const owners = SHARED_ROLLUPS[level];
  const key = owners.join(', ');
  const from = owners.map((column) => `c.${column}`).join(', ');
  const places = (count: number) => Array.from({ length: count }, (_, index) => index + 1).join(', ');
  const [hours, days] = [`${level}_click_hours`, `${level}_click_days`];
  const n = owners.length;
  return [
    `INSERT INTO ${hours} (${key}, hour, clicks)
     SELECT ${from}, h.hour, sum(h.clicks) FROM click_hours h JOIN link_counters c ON c.link_id = h.link_id
      WHERE h.link_id = ANY($1::int[]) GROUP BY ${places(n + 1)}
      ORDER BY ${n + 1}, ${places(n)}
     ON CONFLICT (${key}, hour) DO UPDATE SET clicks = ${hours}.clicks + excluded.clicks`,
    `INSERT INTO ${days} (${key}, dimension, day, value, clicks)
     SELECT ${from}, d.dimension, d.day, CASE WHEN d.dimension = 9 AND d.value = 0 THEN -d.link_id ELSE d.value END,
            sum(d.clicks)
       FROM click_days d JOIN link_counters c ON c.link_id = d.link_id
      WHERE d.link_id = ANY($1::int[]) GROUP BY ${places(n + 3)}
      ORDER BY ${n + 2}, ${n + 1}, ${n + 3}, ${places(n)}
     ON CONFLICT (${key}, dimension, day, value) DO UPDATE SET clicks = ${days}.clicks + excluded.clicks`,
  ];
}

/** Raw clicks of some links per UTC day, and those of them whose visitor's city is known. */
const RAW_DAYS_SQL = `
  SELECT to_char(x.day, 'YYYY-MM-DD') AS day, sum(x.n)::int AS clicks,
         (sum(x.n) FILTER (WHERE p.city <> 0))::int AS cities
    FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, profile_id, count(*) AS n
            FROM click_events WHERE link_id = ANY($1::int[]) GROUP BY 1, 2) x
    JOIN click_profiles p ON p.id = x.profile_id
   GROUP BY 1`;

interface RawDay {
  clicks: number;
  cities: number;
}

interface SeededLink {
  id: number;
  alias: string;
  /** Clicks seeded for it, and what its counter was set to. */
  clicks: number;
}

/** What questions are asked of: a link, or the links of the workspace that filters keep. */
interface Subject {
  /** As rows name it: `big` and `tenth` (links); `workspace`, `space` and `compared`. */
  label: string;
  /** The stats route, and the filters every call of it carries. */
  path: string;
  filters: [string, string][];
  /** Raw clicks per UTC day (`Y-m-d`). */
  rawDays: Map<string, RawDay>;
}

type MeasuredLink = SeededLink & Subject;

/** A link as a subject, before its raw clicks are counted. */
function linkSubject(link: SeededLink, label = link.alias): Subject {
  return { label, path: `/api/v1/stats/${link.id}`, filters: [], rawDays: new Map() };
}

/** Raw clicks of some links per UTC day. */
async function rawDaysOf(context: BenchContext, ids: readonly number[]): Promise<Map<string, RawDay>> {
  const { rows } = await context.database.db.query<{ day: string; clicks: number; cities: number }>(
    RAW_DAYS_SQL,
    [ids],
  );
  return new Map(rows.map((row) => [row.day, { clicks: row.clicks, cities: row.cities }]));
}

export interface StatsWorkload {
  notes: string[];
  unit: { name: string; scenario: Scenario };
}

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

function utcToday(): number {
  return Math.floor(Date.now() / DAY_MS) * DAY_MS;
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** Raw clicks of the days `from`..`to` (`Y-m-d`, both included), all or with a known city. */
function rawIn(subject: Subject, from: string, to: string, cities = false): number {
  let sum = 0;
  for (const [day, counted] of subject.rawDays) {
    if (day >= from && day <= to) sum += cities ? counted.cities : counted.clicks;
  }
  return sum;
}

/** Makes the links through the API, on a service started for it alone: the small ones in a space of their own. */
async function makeLinks(
  context: BenchContext,
  counts: number[],
): Promise<{ links: SeededLink[]; spaceId: number }> {
  const { service, apiKey } = context;
  const aliases = ['bench-stats-big', 'bench-stats-tenth'];
  for (let index = 1; index <= SMALL_LINKS; index += 1) aliases.push(`bench-stats-${index}`);
  await service.start();
  try {
    const post = (path: string, body: unknown) =>
      api<{ data: { id: number } }>(service.origin, apiKey, { method: 'POST', path, body });
    const spaceId = (await post('/api/v1/spaces', { name: 'Bench stats space' })).data.id;
    const links: SeededLink[] = [];
    for (const [index, alias] of aliases.entries()) {
      const created = await post('/api/v1/links', {
        url: `https://example.com/${alias}`,
        alias,
        title: `Bench ${alias}`,
        ...(index >= 2 ? { space_id: spaceId } : {}),
      });
      links.push({ id: created.data.id, alias, clicks: counts[index] });
    }
    return { links, spaceId };
  } finally {
    await service.stop();
  }
}

async function seedClicks(
  client: PoolClient,
  links: readonly SeededLink[],
  profiles: number[],
  start: number,
  end: number,
): Promise<void> {
  const insert = (ids: number[], count: number) =>
    client.query(CLICKS_SQL, [start / 1000, (end - start) / 1000 / count, ids, profiles, count]);
  const [big, tenth, ...small] = links;
  await insert([big.id], big.clicks);
  await insert([tenth.id], tenth.clicks);
  await insert(
    small.map((link) => link.id),
    small.reduce((sum, link) => sum + link.clicks, 0),
  );
}

/**
 * Seeds the workload (the service stopped) and counts what each measured link's answers must add up to. The
 * service then runs the unit in a process of its own.
 */
export async function statsWorkload(context: BenchContext): Promise<StatsWorkload> {
  const { options, database, schema } = context;
  const total = options.statsClicks;
  const shared = Math.round(total / 5);
  // Link k of the small ones gets every click g with (g - 1) % 50 = k.
  const counts = [
    total,
    Math.round(total / 10),
    ...Array.from({ length: SMALL_LINKS }, (_, k) => Math.ceil((shared - k) / SMALL_LINKS)),
  ];
  const { links, spaceId } = await makeLinks(context, counts);
  const ids = links.map((link) => link.id);
  const { accountId } = context.fixtures;
  const notes: string[] = [];

  // One connection of its own: its settings and the seed of random() hold for every statement of the seed.
  const client = await database.db.connect();
  try {
    await client.query(`SET work_mem = '256MB'`);
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await client.query('SELECT setseed(0.22)');
    const end = Date.now();
    const start = end - SPAN_DAYS * DAY_MS;
    await client.query(`UPDATE links SET created_at = $1 WHERE id = ANY($2::int[])`, [
      new Date(start).toISOString(),
      ids,
    ]);
    // The workspace's stats start on the day it was made, by default: made when its links were.
    await client.query(`UPDATE accounts SET created_at = LEAST(created_at, $1) WHERE id = $2`, [
      new Date(start).toISOString(),
      accountId,
    ]);
    // A partition for each month the clicks span, as the service makes them ahead of time.
    await client.query(
      `SELECT click_partition(month)
         FROM generate_series(date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
                              $2::timestamptz, interval '1 month') AS month`,
      [new Date(start).toISOString(), new Date(end).toISOString()],
    );
    let started = performance.now();
    const { rows } = await client.query<{ ids: number[] }>(PROFILES_SQL);
    await seedClicks(client, links, rows[0].ids, start, end);
    const raw = counts.reduce((sum, count) => sum + count, 0);
    notes.push(`Seeded ${grouped(raw)} raw clicks for stats in ${seconds(started)}`);
    started = performance.now();
    await client.query('ANALYZE click_events');
    for (const sql of ROLLUP_SQL) await client.query(sql, [ids]);
    const { rows: kept } = await client.query<{ level: keyof typeof SHARED_ROLLUPS }>(
      `SELECT level FROM unnest($1::text[]) AS level WHERE to_regclass(level || '_click_hours') IS NOT NULL`,
      [Object.keys(SHARED_ROLLUPS)],
    );
    for (const { level } of kept) for (const sql of sharedRollupSql(level)) await client.query(sql, [ids]);
    const sharedTables = kept.flatMap(({ level }) => [`${level}_click_hours`, `${level}_click_days`]);
    const counterColumns = ['clicks', 'listed_clicks'].filter(
      (column) => schema.counterColumns?.has(column) === true,
    );
    if (counterColumns.length === 0) throw new Error('The stats scenario needs link_counters.clicks');
    await client.query(
      `UPDATE link_counters c SET ${counterColumns.map((column) => `${column} = s.clicks`).join(', ')}
         FROM unnest($1::int[], $2::int[]) AS s(link_id, clicks) WHERE c.link_id = s.link_id`,
      [ids, counts],
    );
    notes[notes.length - 1] += `, their rollups in ${seconds(started)}`;
    started = performance.now();
    // Fresh statistics and a current visibility map, as a long-lived database has.
    await client.query(
      'VACUUM ANALYZE click_events, click_hours, click_days, click_values, click_profiles, links, link_counters' +
        sharedTables.map((table) => `, ${table}`).join(''),
    );
    // The seed's dirty pages written now, not by a checkpoint in the middle of the timed calls.
    await client.query('CHECKPOINT').catch(() => undefined);
    notes[notes.length - 1] += `, VACUUM ANALYZE and CHECKPOINT in ${seconds(started)}.`;
  } finally {
    // Closed rather than returned to the pool, so that its settings go with it.
    client.release(true);
  }

  const measured: MeasuredLink[] = [];
  for (const [index, label] of ['big', 'tenth'].entries()) {
    const rawDays = await rawDaysOf(context, [links[index].id]);
    measured.push({ ...links[index], ...linkSubject(links[index], label), rawDays });
  }
  // The workspace: whole (every link of the account, the redirect scenarios' too), its space of small links, and
  // the measured links compared with three small ones.
  const { rows: all } = await database.db.query<{ id: number }>(
    'SELECT id FROM links WHERE account_id = $1',
    [accountId],
  );
  const compared = [...links.slice(0, 2), ...links.slice(2, COMPARED_LINKS)].map((link) => link.id);
  const scopes: { label: string; ids: number[]; filters: [string, string][] }[] = [
    { label: 'workspace', ids: all.map((row) => row.id), filters: [] },
    { label: 'space', ids: ids.slice(2), filters: [['space_id', String(spaceId)]] },
    { label: 'compared', ids: compared, filters: compared.map((id) => ['link_ids[]', String(id)]) },
  ];
  const workspace: Subject[] = [];
  for (const { label, ids: kept, filters } of scopes) {
    workspace.push({ label, path: '/api/v1/stats', filters, rawDays: await rawDaysOf(context, kept) });
  }
  return {
    notes,
    unit: { name: 'stats', scenario: statsScenario(measured, links.slice(2), workspace) },
  };
}

/** A period of the stats API: no `from`/`to` for the link's whole life. */
interface Period {
  label: string;
  from: string | null;
  to: string | null;
}

interface Item {
  value: string | null;
  count: number;
}

interface DimensionAnswer {
  data: Item[];
  meta: { total: number; per_page: number; last_page: number };
}

/** One question timed at one link. */
interface Timed {
  name: StatsName;
  period: string;
  search: string | null;
  link: string;
  latenciesMs: number[];
}

function statsCall(context: BenchContext, subject: Subject, params: Record<string, string>): Call {
  const query = new URLSearchParams([...subject.filters, ...Object.entries(params)]);
  return {
    path: `${subject.path}?${query.toString()}`,
    headers: { Authorization: `Bearer ${context.apiKey}`, Accept: 'application/json' },
  };
}

function periodParams(period: Period): Record<string, string> {
  return period.from === null || period.to === null ? {} : { from: period.from, to: period.to };
}

function parsed<T>(answer: Answer, what: string, problems: Set<string>): T | null {
  if (answer.status !== 200) {
    problems.add(`${what} answered ${answer.status}`);
    return null;
  }
  return JSON.parse(answer.body) as T;
}

function sameItems(actual: Item[], expected: Item[]): boolean {
  return (
    actual.length === expected.length &&
    actual.every(
      (item, index) => item.value === expected[index].value && item.count === expected[index].count,
    )
  );
}

/** Every value of a name in a period, all pages followed; null when an answer failed. */
async function wholeList(
  context: BenchContext,
  link: Subject,
  name: StatsName,
  period: Period,
  problems: Set<string>,
): Promise<Item[] | null> {
  const what = `${link.label} ${name} ${period.label}`;
  if (name === 'click') {
    const answer = await send(
      context.service.origin,
      statsCall(context, link, { name, ...periodParams(period) }),
    );
    return parsed<{ data: Item[] }>(answer, what, problems)?.data ?? null;
  }
  const items: Item[] = [];
  for (let page = 1; ; page += 1) {
    const params = { name, ...periodParams(period), per_page: String(PER_PAGE), page: String(page) };
    const body = parsed<DimensionAnswer>(
      await send(context.service.origin, statsCall(context, link, params)),
      what,
      problems,
    );
    if (body === null) return null;
    items.push(...body.data);
    if (page >= body.meta.last_page) {
      if (items.length !== body.meta.total)
        problems.add(`${what}: ${items.length} values, meta.total ${body.meta.total}`);
      return items;
    }
  }
}

/**
 * One name, one period, at one subject: the whole list added up against the raw clicks; then, without and with the
 * search, a first answer held against that list (the search keeps exactly the values that contain the term, the
 * first page is its head) and the timed calls.
 */
async function measureCase(
  context: BenchContext,
  link: Subject,
  name: StatsName,
  period: Period & { first: string; last: string },
  searchTerm: string,
  problems: Set<string>,
): Promise<Timed[]> {
  const what = `${link.label} ${name} ${period.label}`;
  const all = await wholeList(context, link, name, period, problems);
  if (all !== null) {
    const sum = all.reduce((total, item) => total + item.count, 0);
    // Cities are listed where they are known only.
    const expected = rawIn(link, period.first, period.last, name === 'city');
    if (sum !== expected) problems.add(`${what}: sum ${grouped(sum)}, raw ${grouped(expected)}`);
  }
  const timed: Timed[] = [];
  for (const search of [null, searchTerm]) {
    const params = { name, ...periodParams(period), ...(search === null ? {} : { search }) };
    const call = statsCall(context, link, params);
    const label = `${what}${search === null ? '' : ` "${search}"`}`;
    const first = await send(context.service.origin, call);
    if (all !== null) {
      const kept =
        search === null
          ? all
          : all.filter((item) => item.value?.toLowerCase().includes(search.toLowerCase()) === true);
      if (name === 'click') {
        const body = parsed<{ data: Item[] }>(first, label, problems);
        if (body !== null && !sameItems(body.data, kept)) problems.add(`${label}: not the buckets expected`);
      } else {
        const body = parsed<DimensionAnswer>(first, label, problems);
        if (body !== null) {
          if (body.meta.total !== kept.length)
            problems.add(`${label}: total ${body.meta.total} for ${kept.length}`);
          if (!sameItems(body.data, kept.slice(0, body.meta.per_page))) {
            problems.add(`${label}: first page not the head of the whole list`);
          }
        }
      }
      if (search !== null && kept.length === 0) problems.add(`${label}: the term matches nothing`);
    }
    const latenciesMs: number[] = [];
    const deadline = performance.now() + QUESTION_SECONDS * 1000;
    while (
      latenciesMs.length < context.options.statsCalls &&
      (latenciesMs.length === 0 || performance.now() < deadline)
    ) {
      const answer = await send(context.service.origin, call);
      latenciesMs.push(answer.ms);
      if (answer.status !== 200) problems.add(`${label} answered ${answer.status}`);
    }
    timed.push({ name, period: period.label, search, link: link.label, latenciesMs });
  }
  return timed;
}

interface PageRun {
  range: string;
  htmlMs: number[];
  jsonMs: number[];
  clicks: number | null;
}

interface PublicStatsAnswer {
  data: { from: string; to: string; clicks: number; days: Item[] };
}

/**
 * The public stats page of a link for each range it offers (read from the page's own range links): the JSON
 * answer's total against the raw clicks of its days, and against its days; the HTML page shows the same total.
 * Timed when `timed`, HTML and JSON apart. Problems are kept per range, `''` for the page itself.
 */
async function measurePages(
  context: BenchContext,
  link: MeasuredLink,
  timed: boolean,
  problemsOf: (range: string) => Set<string>,
): Promise<PageRun[]> {
  const { origin } = context.service;
  const path = (range: string) => `/${link.alias}/stats?range=${encodeURIComponent(range)}`;
  const html = (range: string | null): Call => ({
    path: range === null ? `/${link.alias}/stats` : path(range),
    headers: { Accept: 'text/html' },
  });
  const json = (range: string): Call => ({ path: path(range), headers: { Accept: 'application/json' } });
  const landing = await send(origin, html(null));
  const ranges = [
    ...new Set([...landing.body.matchAll(/href="\?range=([^"&]+)"/g)].map((match) => match[1])),
  ];
  if (landing.status !== 200 || ranges.length === 0) {
    problemsOf('').add(`${link.label} page answered ${landing.status} with ${ranges.length} ranges`);
  }
  const runs: PageRun[] = [];
  for (const range of ranges) {
    const problems = problemsOf(range);
    const what = `${link.label}`;
    const body = parsed<PublicStatsAnswer>(await send(origin, json(range)), what, problems)?.data;
    if (body !== undefined) {
      const expected = rawIn(link, body.from, body.to);
      const days = body.days.reduce((sum, day) => sum + day.count, 0);
      if (body.clicks !== expected) {
        problems.add(`${what}: clicks ${grouped(body.clicks)}, raw ${grouped(expected)}`);
      }
      if (days !== body.clicks) problems.add(`${what}: days add up to ${grouped(days)}`);
      if (range === 'all' && body.clicks !== link.clicks) {
        problems.add(`${what}: clicks ${grouped(body.clicks)} for ${grouped(link.clicks)} seeded`);
      }
      const page = await send(origin, html(range));
      if (page.status !== 200 || !page.body.includes(`${grouped(body.clicks)} click`)) {
        problems.add(`${what}: the HTML page (${page.status}) does not show ${grouped(body.clicks)} clicks`);
      }
    }
    const run: PageRun = { range, htmlMs: [], jsonMs: [], clicks: body?.clicks ?? null };
    for (let call = 0; timed && call < context.options.statsCalls; call += 1) {
      for (const [format, latencies] of [
        [html(range), run.htmlMs],
        [json(range), run.jsonMs],
      ] as const) {
        const answer = await send(origin, format);
        latencies.push(answer.ms);
        if (answer.status !== 200) problems.add(`${what} answered ${answer.status}`);
      }
    }
    runs.push(run);
  }
  return runs;
}

/** The whole-life clicks of the small links: the API's buckets add up to their raw clicks and counters. */
async function checkSmallLinks(
  context: BenchContext,
  links: readonly SeededLink[],
  problems: Set<string>,
): Promise<void> {
  const { rows } = await context.database.db.query<{ link_id: number; clicks: number; counter: number }>(
    `SELECT c.link_id, c.clicks AS counter,
            (SELECT count(*) FROM click_events e WHERE e.link_id = c.link_id)::int AS clicks
       FROM link_counters c WHERE c.link_id = ANY($1::int[])`,
    [links.map((link) => link.id)],
  );
  const raw = new Map(rows.map((row) => [row.link_id, row]));
  for (const link of links) {
    const counted = raw.get(link.id);
    const items = await wholeList(
      context,
      linkSubject(link),
      'click',
      { label: 'whole life', from: null, to: null },
      problems,
    );
    const sum = items?.reduce((total, item) => total + item.count, 0);
    if (
      counted === undefined ||
      sum !== counted.clicks ||
      counted.counter !== counted.clicks ||
      sum !== link.clicks
    ) {
      problems.add(
        `${link.alias}: buckets ${String(sum)}, raw ${String(counted?.clicks)}, counter ${String(counted?.counter)}, seeded ${link.clicks}`,
      );
    }
  }
}

/** Raw clicks and counters of the measured links against what was seeded. */
async function checkCounters(
  context: BenchContext,
  links: readonly MeasuredLink[],
  problems: Set<string>,
): Promise<void> {
  const { rows } = await context.database.db.query<{ link_id: number; clicks: number }>(
    'SELECT link_id, clicks FROM link_counters WHERE link_id = ANY($1::int[])',
    [links.map((link) => link.id)],
  );
  for (const link of links) {
    const raw = [...link.rawDays.values()].reduce((sum, day) => sum + day.clicks, 0);
    const counter = rows.find((row) => row.link_id === link.id)?.clicks;
    if (raw !== link.clicks || counter !== link.clicks) {
      problems.add(
        `${link.label}: raw ${grouped(raw)}, counter ${String(counter)}, seeded ${grouped(link.clicks)}`,
      );
    }
  }
}

interface Sizes {
  rows: number;
  rawBytes: number;
  hoursBytes: number;
  daysBytes: number;
}

/** Raw clicks, table and indexes of every partition, and the rollups beside them. */
async function sizes(context: BenchContext): Promise<Sizes> {
  const { rows } = await context.database.db.query<{
    rows: string;
    raw_bytes: string;
    hours_bytes: string;
    days_bytes: string;
  }>(
    `SELECT (SELECT count(*) FROM click_events) AS rows,
            (SELECT sum(pg_total_relation_size(i.inhrelid)) FROM pg_inherits i
              WHERE i.inhparent = 'click_events'::regclass) AS raw_bytes,
            pg_total_relation_size('click_hours') AS hours_bytes,
            pg_total_relation_size('click_days') AS days_bytes`,
  );
  const [row] = rows;
  return {
    rows: Number(row.rows),
    rawBytes: Number(row.raw_bytes),
    hoursBytes: Number(row.hours_bytes),
    daysBytes: Number(row.days_bytes),
  };
}

function mb(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

function ms(value: number): string {
  return value.toFixed(1);
}

/** The question of a name with the highest p95 at one link. */
function slowest(timed: readonly Timed[], name: StatsName, link: string): { one: Timed; p95: number } {
  const cases = timed.filter((one) => one.name === name && one.link === link);
  const p95s = cases.map((one) => quantile(one.latenciesMs, 0.95));
  const p95 = Math.max(...p95s);
  return { one: cases[p95s.indexOf(p95)], p95 };
}

function described(one: Timed): string {
  return `${one.period}${one.search === null ? '' : ` "${one.search}"`}`;
}

function statsScenario(measured: MeasuredLink[], small: SeededLink[], workspace: Subject[]): Scenario {
  return {
    async run(context) {
      const today = utcToday();
      const yesterday = isoDay(today - DAY_MS);
      const week = isoDay(today - 6 * DAY_MS);
      const periods = [
        { label: 'whole life', from: null, to: null, first: '0000-01-01', last: isoDay(today) },
        { label: '7 days', from: week, to: isoDay(today), first: week, last: isoDay(today) },
        { label: 'one day', from: yesterday, to: yesterday, first: yesterday, last: yesterday },
      ];
      const [big, tenth] = measured;

      const problems = new Map<StatsName, Set<string>>(NAMES.map((name) => [name, new Set<string>()]));
      const timed: Timed[] = [];
      for (const name of NAMES) {
        const term = name === 'click' ? yesterday.slice(0, 7) : SEARCH_TERMS[name];
        for (const period of periods) {
          for (const link of measured) {
            timed.push(...(await measureCase(context, link, name, period, term, problems.get(name)!)));
          }
        }
      }
      // Problems of the workspace's rows, by `<scope> <name>`.
      const scopeProblems = new Map<string, Set<string>>();
      for (const scope of workspace) {
        for (const name of NAMES) {
          const term = name === 'click' ? yesterday.slice(0, 7) : SEARCH_TERMS[name];
          const found = new Set<string>();
          for (const period of periods) {
            timed.push(...(await measureCase(context, scope, name, period, term, found)));
          }
          scopeProblems.set(`${scope.label} ${name}`, found);
        }
      }
      const pageProblems = new Map<string, Set<string>>();
      const problemsOf = (range: string) => {
        const found = pageProblems.get(range) ?? new Set<string>();
        pageProblems.set(range, found);
        return found;
      };
      const pages = await measurePages(context, big, true, problemsOf);
      await measurePages(context, tenth, false, problemsOf);
      const seedProblems = new Set<string>();
      await checkCounters(context, measured, seedProblems);
      await checkSmallLinks(context, small, problems.get('click')!);
      const sized = await sizes(context);
      const seeded = [...measured, ...small].reduce((sum, link) => sum + link.clicks, 0);

      return (exitCode) => {
        const { quick } = context.options;
        const stopped = exitCode === 0 ? [] : [`the service exited ${String(exitCode)} on SIGTERM`];
        const rows: Row[] = NAMES.map((name) => {
          const atBig = slowest(timed, name, big.label);
          const atTenth = slowest(timed, name, tenth.label);
          const growth = atBig.p95 / atTenth.p95;
          const { latenciesMs } = atBig.one;
          const facts =
            `slowest ${described(atBig.one)}; at ${grouped(tenth.clicks)} clicks p95 ${ms(atTenth.p95)} ` +
            `(${described(atTenth.one)}), growth ${growth.toFixed(2)}×; sums = raw clicks in 3 periods at both` +
            (name === 'click' ? `, and the whole life of ${small.length} more links` : '');
          return {
            scenario: `stats ${name}`,
            p50Ms: quantile(latenciesMs, 0.5),
            p95Ms: atBig.p95,
            p99Ms: quantile(latenciesMs, 0.99),
            target: quick ? '' : `p95≤${MAX_P95_MS}, growth<${MAX_GROWTH}×`,
            met: quick ? null : atBig.p95 <= MAX_P95_MS && (atBig.p95 <= NOISE_MS || growth < MAX_GROWTH),
            ...verdict([...problems.get(name)!, ...stopped], facts),
          };
        });
        for (const scope of workspace) {
          for (const name of NAMES) {
            const { one, p95 } = slowest(timed, name, scope.label);
            rows.push({
              scenario: `stats ${scope.label} ${name}`,
              p50Ms: quantile(one.latenciesMs, 0.5),
              p95Ms: p95,
              p99Ms: quantile(one.latenciesMs, 0.99),
              target: quick ? '' : `p95≤${MAX_P95_MS}`,
              met: quick ? null : p95 <= MAX_P95_MS,
              ...verdict(
                [...scopeProblems.get(`${scope.label} ${name}`)!, ...stopped],
                `slowest ${described(one)} (${one.latenciesMs.length} calls); sums = raw clicks in 3 periods`,
              ),
            });
          }
        }
        const landing = [...(pageProblems.get('') ?? [])];
        if (pages.length === 0) {
          rows.push({
            scenario: 'stats page',
            target: '',
            met: null,
            ...verdict([...landing, ...stopped], ''),
          });
        }
        for (const page of pages) {
          const html = quantile(page.htmlMs, 0.95);
          const json = quantile(page.jsonMs, 0.95);
          const slower = html >= json ? page.htmlMs : page.jsonMs;
          rows.push({
            scenario: `stats page range=${page.range}`,
            p50Ms: quantile(slower, 0.5),
            p95Ms: Math.max(html, json),
            p99Ms: quantile(slower, 0.99),
            target: quick ? '' : `p95≤${MAX_PAGE_P95_MS}`,
            met: quick ? null : Math.max(html, json) <= MAX_PAGE_P95_MS,
            ...verdict(
              [...landing, ...(pageProblems.get(page.range) ?? []), ...stopped],
              `HTML p95 ${ms(html)}, JSON ${ms(json)}; clicks ` +
                `${page.clicks === null ? '?' : grouped(page.clicks)} = raw, at both links`,
            ),
          });
        }
        const perClick = sized.rawBytes / sized.rows;
        rows.push({
          scenario: 'stats bytes/click',
          target: quick ? '' : `≤${MAX_BYTES_PER_CLICK} bytes`,
          met: quick ? null : perClick <= MAX_BYTES_PER_CLICK,
          ...verdict(
            [...seedProblems, ...stopped],
            `${perClick.toFixed(1)} bytes a raw click: ${mb(sized.rawBytes)} for ${grouped(sized.rows)} ` +
              `(table and indexes); rollups click_hours ${mb(sized.hoursBytes)}, click_days ${mb(sized.daysBytes)}; ` +
              `${grouped(seeded)} seeded, counters = raw`,
          ),
        });
        return Promise.resolve(rows);
      };
    },
  };
}
