import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';

async function tables(dataSource: DataSource): Promise<string[]> {
  const rows: { table_name: string }[] = await dataSource.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name COLLATE "C"`,
  );
  // The months of raw clicks are partitions the service makes as time goes on: their names follow the date.
  return rows.map((row) => row.table_name).filter((name) => !/^click_events_\d{4}_\d{2}$/.test(name));
}

/** A migration's timestamp: the digits that end its name. */
function timestampOf(name: string | undefined): number {
  return Number(/\d+$/.exec(name ?? '')![0]);
}

describe('database schema', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_schema');
    dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await scratch.drop();
  });

  it('finds every migration file, in the order of their timestamps', () => {
    const files = readdirSync(join(__dirname, '..', 'src', 'database', 'migrations')).filter((name) =>
      /^\d+-.*\.ts$/.test(name),
    );
    const timestamps = dataSource.migrations.map((migration) => timestampOf(migration.name));
    expect(timestamps.sort((a, b) => a - b)).toEqual(
      files.map((name) => Number(/^\d+/.exec(name)![0])).sort((a, b) => a - b),
    );
  });

  it('is created by the migrations alone', async () => {
    const migrations = [...dataSource.migrations].sort((a, b) => timestampOf(a.name) - timestampOf(b.name));
    const applied = await runMigrations(dataSource);
    expect(applied.map((migration) => migration.name)).toEqual(migrations.map((migration) => migration.name));
    expect(await tables(dataSource)).toEqual([
      'account_click_days',
      'account_click_hours',
      'account_qr_logos',
      'accounts',
      'api_keys',
      'api_sessions',
      'audit_log',
      'click_batches',
      'click_days',
      'click_events',
      'click_events_default',
      'click_hours',
      'click_profile_dimensions',
      'click_profiles',
      'click_retention',
      'click_values',
      'clicks',
      'domains',
      'event_deliveries',
      'event_streams',
      'events',
      'imported_links',
      'imports',
      'invitations',
      'link_check_hosts',
      'link_checks',
      'link_count_changes',
      'link_counters',
      'link_counts',
      'link_pixels',
      'link_qr_logos',
      'link_tags',
      'links',
      'memberships',
      'migrations',
      'passkeys',
      'password_resets',
      'pixels',
      'sign_in_challenges',
      'space_click_days',
      'space_click_hours',
      'spaces',
      'tags',
      'users',
      'utm_templates',
      'webhook_attempts',
      'webhooks',
    ]);
  });

  it('matches the entities: generating a migration would find nothing to do', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('names its constraints and indexes (TypeORM migrations table aside)', async () => {
    const rows: { name: string }[] = await dataSource.query(
      `SELECT conname AS name FROM pg_constraint
         WHERE connamespace = 'public'::regnamespace AND conrelid <> 'migrations'::regclass
       UNION SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY 1`,
    );
    const generated = rows
      .map((row) => row.name)
      .filter((name) => /^(PK|FK|UQ|IDX|REL)_[0-9a-f]{20,}$/.test(name));
    expect(generated).toEqual([]);
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'PK_spaces',
        'FK_links_space',
        'UQ_spaces_account_name',
        'UQ_api_keys_key_hash',
      ]),
    );
  });

  it('reverts every migration and applies them again', async () => {
    const migrations = dataSource.migrations;
    for (let index = 0; index < migrations.length; index += 1) await dataSource.undoLastMigration();
    expect(await tables(dataSource)).toEqual(['migrations']);
    expect(await runMigrations(dataSource)).toHaveLength(migrations.length);
    expect(await runMigrations(dataSource)).toHaveLength(0);
  });
});

describe('the migration to rollups', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_rollups');
    dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await scratch.drop();
  });

  it('moves the clicks of the former table over, with their rollups, and the view reads them back', async () => {
    await runMigrations(dataSource);
    const applied = async () =>
      (await dataSource.query<{ name: string }[]>('SELECT name FROM migrations')).map((row) => row.name);
    while ((await applied()).includes('ClickRollups1764900000000')) await dataSource.undoLastMigration();
    const clicks = [
      [
        '2026-10-03T10:15:00Z',
        'news.example.org',
        'GB',
        'London',
        'EU',
        'Chrome',
        'Windows',
        'Desktop',
        'en',
      ],
      [
        '2026-10-03T10:45:00Z',
        'news.example.org',
        'GB',
        'London',
        'EU',
        'Chrome',
        'Windows',
        'Desktop',
        'en',
      ],
      ['2026-10-03T11:05:00Z', null, 'CA', 'London', 'NA', 'Safari', 'iOS', 'Mobile', 'fr'],
      ['2026-11-20T23:59:59Z', null, null, null, null, null, null, 'Desktop', null],
    ];
    for (const click of clicks) {
      await dataSource.query(
        `INSERT INTO clicks (link_id, created_at, referrer, country, city, continent, browser, operating_system,
                             device, language)
         VALUES (7, $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        click,
      );
    }
    await runMigrations(dataSource);

    const rows = await dataSource.query<Record<string, unknown>[]>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at, referrer, country, city,
              continent, browser, operating_system, device, language
         FROM clicks WHERE link_id = 7 ORDER BY created_at`,
    );
    expect(rows.map((row) => Object.values(row))).toEqual(clicks);
    const hours = await dataSource.query<{ hour: string; clicks: number }[]>(
      `SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24') AS hour, clicks FROM click_hours
        WHERE link_id = 7 ORDER BY hour`,
    );
    expect(hours).toEqual([
      { hour: '2026-10-03 10', clicks: 2 },
      { hour: '2026-10-03 11', clicks: 1 },
      { hour: '2026-11-20 23', clicks: 1 },
    ]);
    const cities = await dataSource.query<{ value: string | null; clicks: number }[]>(
      `SELECT v.value, sum(d.clicks)::int AS clicks FROM click_days d LEFT JOIN click_values v ON v.id = d.value
        WHERE d.link_id = 7 AND d.dimension = 3 GROUP BY v.value ORDER BY v.value`,
    );
    expect(cities).toEqual([
      { value: 'CA:London', clicks: 1 },
      { value: 'GB:London', clicks: 2 },
      { value: null, clicks: 1 },
    ]);
  });
});
