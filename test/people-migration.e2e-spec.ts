import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { FULL_KEY_BEFORE } from '../src/database/migrations/1765400000000-people-and-audit';
import { createTestApp, type TestApp } from './support/app';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';

const PEOPLE = 'PeopleAndAudit1765400000000';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The migration to people, on a copy of a database as the service left it before: accounts, full and narrow keys,
 * a dashboard session of a key, links. After it, every account is a workspace whose keys and session work as they
 * did, full keys hold the new scopes, narrow keys keep theirs, and nothing of before is in the audit log.
 */
describe('the migration to people, on a populated database', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  let t: TestApp | undefined;
  const fullKey = `lsk_${randomBytes(32).toString('base64url')}`;
  const narrowKey = `lsk_${randomBytes(32).toString('base64url')}`;
  const sessionToken = `lss_${randomBytes(32).toString('base64url')}`;
  let accountId: number;

  const applied = async () =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM migrations')).map((row) => row.name);
  /** Back to the schema before people: the migrations after it first, then its own. */
  const undoPeople = async () => {
    while ((await applied()).includes(PEOPLE)) await dataSource.undoLastMigration();
  };
  /** Applies what is pending, the people migration among it, and names what was applied. */
  const migrationsApplied = async () => (await runMigrations(dataSource)).map((migration) => migration.name);

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_people');
    dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
    await runMigrations(dataSource);
    await undoPeople();

    [{ id: accountId }] = await dataSource.query<{ id: number }[]>(
      `INSERT INTO accounts (name, email) VALUES ('Before people', 'ops@example.com') RETURNING id`,
    );
    const [{ id: keyId }] = await dataSource.query<{ id: number }[]>(
      `INSERT INTO api_keys (account_id, key_hash, name, prefix, scopes) VALUES ($1, $2, 'Full', $3, $4) RETURNING id`,
      [accountId, sha256(fullKey), fullKey.slice(0, 8), FULL_KEY_BEFORE],
    );
    await dataSource.query(
      `INSERT INTO api_keys (account_id, key_hash, name, prefix, scopes) VALUES ($1, $2, 'Narrow', $3, $4)`,
      [accountId, sha256(narrowKey), narrowKey.slice(0, 8), ['links.read']],
    );
    await dataSource.query(
      `INSERT INTO api_sessions (token_hash, key_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
      [sha256(sessionToken), keyId],
    );
    const [{ id: domainId }] = await dataSource.query<{ id: number }[]>(
      `INSERT INTO domains (name) VALUES ('before.example') RETURNING id`,
    );
    await dataSource.query(
      `INSERT INTO links (account_id, domain_id, alias, url) VALUES ($1, $2, 'before', 'https://example.com/before')`,
      [accountId, domainId],
    );

    expect(await migrationsApplied()).toContain(PEOPLE);
    t = await createTestApp({ DATABASE_URL: scratch.url, RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await t?.close();
    await dataSource?.destroy();
    await scratch?.drop();
  });

  it('gives full keys the new scopes and leaves narrow ones as they were', async () => {
    const keys = await dataSource.query<{ name: string; scopes: string[] }[]>(
      'SELECT name, scopes FROM api_keys WHERE account_id = $1 ORDER BY id',
      [accountId],
    );
    expect(keys).toEqual([
      { name: 'Full', scopes: [...FULL_KEY_BEFORE, 'members.read', 'members.write', 'audit.read'] },
      { name: 'Narrow', scopes: ['links.read'] },
    ]);
  });

  it('keeps the keys, the key session and the links working, and records nothing of before', async () => {
    const links = await t!.http().get('/api/v1/links').set('Authorization', `Bearer ${fullKey}`);
    expect(links.status).toBe(200);
    expect((links.body.data as { alias: string }[]).map((link) => link.alias)).toEqual(['before']);
    expect((await t!.http().get('/api/v1/members').set('Authorization', `Bearer ${fullKey}`)).status).toBe(
      200,
    );
    expect((await t!.http().get('/api/v1/links').set('Authorization', `Bearer ${narrowKey}`)).status).toBe(
      200,
    );
    expect((await t!.http().get('/api/v1/members').set('Authorization', `Bearer ${narrowKey}`)).status).toBe(
      403,
    );
    const session = await t!
      .http()
      .get('/api/v1/session')
      .set('Cookie', `shortlink_session=${sessionToken}`)
      .set('X-Shortlink-Session', '1');
    expect(session.status).toBe(200);
    expect(session.body.data.key).toMatchObject({ name: 'Full' });
    expect(session.body.data.workspace).toEqual({ id: accountId, name: 'Before people', role: null });
    const log = await t!.http().get('/api/v1/audit-log').set('Authorization', `Bearer ${fullKey}`);
    expect(log.body.meta.total).toBe(0);
  });

  it('reverts to the schema of before, keeping its data', async () => {
    await t?.close();
    t = undefined;
    await undoPeople();
    const [{ count }] = await dataSource.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM api_sessions',
    );
    expect(count).toBe(1);
    const [full] = await dataSource.query<{ scopes: string[] }[]>(
      `SELECT scopes FROM api_keys WHERE name = 'Full' AND account_id = $1`,
      [accountId],
    );
    expect(full.scopes).toEqual(FULL_KEY_BEFORE);
    expect(await migrationsApplied()).toContain(PEOPLE);
  });
});
