import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { serverSettings } from './server.repository';

/** What autovacuum needs of the server: itself, and the row counts it decides by. */
const NEEDED = ['autovacuum', 'track_counts'];

/**
 * The server settings that keep autovacuum from running, by name. Lists read links through index-only scans,
 * cheap only while vacuum keeps the visibility map current, and the planner needs fresh statistics: the
 * migrations set each table's thresholds, but only the server runs autovacuum.
 */
export async function autovacuumOff(dataSource: DataSource): Promise<string[]> {
  const rows = await serverSettings(dataSource, NEEDED);
  return rows.filter((row) => row.setting !== 'on').map((row) => row.name);
}

/** Says once, at start, that the server will not vacuum, and what that costs. */
export async function warnWhenAutovacuumIsOff(
  dataSource: DataSource,
  logger: Pick<Logger, 'warn'> = new Logger('Autovacuum'),
): Promise<void> {
  const off = await autovacuumOff(dataSource);
  if (off.length === 0) return;
  logger.warn(
    `${off.join(' and ')} ${off.length === 1 ? 'is' : 'are'} off on the database server: tables are never ` +
      'vacuumed or analysed, so lists and searches slow down as links change. Turn it on, or run ' +
      '"VACUUM ANALYZE links, link_counters, link_pixels" regularly.',
  );
}
