import type { BenchDatabase } from './database';
import type { BenchOptions } from './options';
import type { Baseline, Service } from './processes';
import type { Row } from './report';
import { clicksOf, type Schema, type SeedTargets } from './seed';

/** A link made through the API for one scenario. */
export interface SpecialLink {
  id: number;
  alias: string;
  url: string;
}

/** What the set-up made through the API, before any link was seeded. */
export interface Fixtures extends SeedTargets {
  country: SpecialLink;
  device: SpecialLink;
  limited: SpecialLink & { limit: number };
  rotating: SpecialLink & { targets: string[] };
}

export interface BenchContext {
  options: BenchOptions;
  database: BenchDatabase;
  schema: Schema;
  apiKey: string;
  /** A directory of this run's own, removed at the end. */
  scratch: string;
  service: Service;
  /** Null in quick mode, which judges no timing. */
  baseline: Baseline | null;
  fixtures: Fixtures;
  /** Seeded aliases of plain links, disjoint, for the plain and the bot scenario. */
  plainAliases: string[];
  botAliases: string[];
  /** Seeded aliases of plain links of the pressure scenario's redirects. */
  pressureAliases: string[];
  /** Seeded aliases of plain links with UTM parameters, for the UTM scenario. */
  utmAliases: string[];
  /** Seeded aliases of plain links visited while event streams are open on their account. */
  liveAliases: string[];
}

/**
 * What a scenario leaves to judge once the service has stopped (SIGTERM) and flushed what it buffered, given the
 * service's exit code.
 */
export type Verdict = (exitCode: number | null) => Promise<Row[]>;

export interface Scenario {
  /** Settings the service starts with for this scenario alone; such a scenario runs in a session of its own. */
  env?: Readonly<Record<string, string>>;
  run(context: BenchContext): Promise<Verdict>;
}

export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/17.5 Mobile/15E148 Safari/604.1';
export const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** An address in Germany for the GeoIP database the service ships. Only ever sent as a header value. */
export const GERMAN_ADDRESS = '46.4.0.1';

export async function linkIds(context: BenchContext, aliases: readonly string[]): Promise<number[]> {
  const { rows } = await context.database.db.query<{ id: number }>(
    'SELECT id FROM links WHERE alias = ANY($1::text[])',
    [aliases],
  );
  if (rows.length !== aliases.length) throw new Error(`Found ${rows.length} of ${aliases.length} links`);
  return rows.map((row) => row.id);
}

/** Click rows recorded for some links. */
export async function recordedClicks(context: BenchContext, ids: readonly number[]): Promise<number> {
  const { rows } = await context.database.db.query<{ count: string }>(
    'SELECT count(*) AS count FROM clicks WHERE link_id = ANY($1::int[])',
    [ids],
  );
  return Number(rows[0].count);
}

/** The sum of the click counters of some links, wherever the schema keeps them. */
export async function countedClicks(context: BenchContext, ids: readonly number[]): Promise<number> {
  const { rows } = await context.database.db.query<{ sum: string }>(
    `SELECT COALESCE(sum(${clicksOf(context.schema)}), 0) AS sum FROM links l WHERE l.id = ANY($1::int[])`,
    [ids],
  );
  return Number(rows[0].sum);
}
