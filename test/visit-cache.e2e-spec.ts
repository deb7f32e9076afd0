import { Client } from 'pg';
import { ChangeFeed, VISIT_CACHE_CHANNEL } from '../src/database/change-feed';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { sleep } from './support/sleep';
import { TcpProxy } from './support/tcp-proxy';
import { onRealPostgres } from './support/test-database';
import { createLink, UA, unique } from './support/visitors';

/** What a visitor to `alias` gets from `app`: the status and where it leads. */
async function visit(app: TestApp, alias: string, host?: string): Promise<string> {
  const test = app.http().get(`/${alias}`).set('User-Agent', UA.macSafari);
  if (host !== undefined) test.set('Host', host);
  const response = await test;
  return `${response.status} ${response.headers.location ?? ''}`.trim();
}

/** Visits until the answer is `expected`, for at most `ms`: the promise is one second for every instance. */
async function eventually(app: TestApp, alias: string, expected: string, ms = 1000, host?: string) {
  const deadline = Date.now() + ms;
  let seen = await visit(app, alias, host);
  while (seen !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await visit(app, alias, host);
  }
  return seen;
}

/**
 * Waits until the app hears announced changes, and so caches. The embedded database cannot announce them across
 * connections: there, nothing is cached, and every test below must hold all the same.
 */
async function listening(app: TestApp): Promise<void> {
  const feed = app.app.get(ChangeFeed);
  const deadline = Date.now() + 10_000;
  while (onRealPostgres() && !feed.listening && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(feed.listening).toBe(onRealPostgres());
}

/**
 * Two instances on one database: `visitors` caches what it serves, `api` changes links. Made in this order:
 * Passport keeps the strategy of the app made last, which must be the one the API requests go to.
 */
describe('links and domains cached for visits', () => {
  let visitors: TestApp;
  let api: TestApp;
  let account: TestAccount;
  const { form, call } = apiClient(() => api);

  beforeAll(async () => {
    visitors = await createTestApp();
    api = await createTestApp();
    await Promise.all([listening(visitors), listening(api)]);
    account = await createAccount(api);
  });
  afterAll(async () => {
    await api?.close();
    await visitors?.close();
  });

  async function cachedLink(url = 'https://example.com/first') {
    const created = await createLink(api, account, { url });
    // Twice: the second answer comes from the cache.
    expect(await visit(visitors, created.alias)).toBe(`302 ${url}`);
    expect(await visit(visitors, created.alias)).toBe(`302 ${url}`);
    return created;
  }

  it('are dropped on every instance within 1 s of an update through the API', async () => {
    const created = await cachedLink();
    expect(
      (await form(account, 'put', `/api/v1/links/${created.id}`, { url: 'https://example.com/second' }))
        .status,
    ).toBe(200);
    expect(await eventually(visitors, created.alias, '302 https://example.com/second')).toBe(
      '302 https://example.com/second',
    );
  });

  it('are dropped within 1 s of a disable, and of a delete', async () => {
    const disabled = await cachedLink();
    await form(account, 'patch', `/api/v1/links/${disabled.id}`, { disabled: '1' });
    expect(await eventually(visitors, disabled.alias, '404')).toBe('404');

    const deleted = await cachedLink();
    expect((await call(account, 'delete', `/api/v1/links/${deleted.id}`)).status).toBe(200);
    expect(await eventually(visitors, deleted.alias, '404')).toBe('404');
  });

  it('are dropped within 1 s of a change written straight into the database', async () => {
    const created = await cachedLink();
    await api.dataSource.query('UPDATE links SET url = $1 WHERE id = $2', [
      'https://example.com/by-sql',
      created.id,
    ]);
    expect(await eventually(visitors, created.alias, '302 https://example.com/by-sql')).toBe(
      '302 https://example.com/by-sql',
    );
  });

  it('keep a change made with triggers off, which is not announced, until NOTIFY visit_cache with * drops everything', async () => {
    const created = await cachedLink();
    const runner = api.dataSource.createQueryRunner();
    try {
      await runner.query('SET session_replication_role = replica');
      await runner.query('UPDATE links SET url = $1 WHERE id = $2', [
        'https://example.com/quiet',
        created.id,
      ]);
    } finally {
      await runner.query('SET session_replication_role = DEFAULT');
      await runner.release();
    }
    // Entries have no time limit: only an announcement ends this one (without a cache, the change shows at once).
    const unannounced = onRealPostgres() ? '302 https://example.com/first' : '302 https://example.com/quiet';
    expect(await visit(visitors, created.alias)).toBe(unannounced);
    await api.dataSource.query(`NOTIFY ${VISIT_CACHE_CHANNEL}, '*'`);
    expect(await eventually(visitors, created.alias, '302 https://example.com/quiet')).toBe(
      '302 https://example.com/quiet',
    );
  });

  it('learn of a link made on another instance after its alias was asked for', async () => {
    const alias = unique('later');
    expect(await visit(visitors, alias)).toBe('404');
    await createLink(api, account, { alias, url: 'https://example.com/later' });
    expect(await eventually(visitors, alias, '302 https://example.com/later')).toBe(
      '302 https://example.com/later',
    );
  });

  it('learn of a domain change within 1 s', async () => {
    const name = `${unique('cache')}.example`;
    const domain = (await form(account, 'post', '/api/v1/domains', { name })).body.data as { id: number };
    const missing = unique('missing');
    expect(await visit(visitors, missing, name)).toBe('404');
    await form(account, 'put', `/api/v1/domains/${domain.id}`, {
      not_found_page: 'https://example.com/lost',
    });
    expect(await eventually(visitors, missing, '302 https://example.com/lost', 1000, name)).toBe(
      '302 https://example.com/lost',
    );
  });

  it('are read by the instance that changed them at once', async () => {
    const created = await createLink(api, account, { url: 'https://example.com/first' });
    expect(await visit(api, created.alias)).toBe('302 https://example.com/first');
    await form(account, 'patch', `/api/v1/links/${created.id}`, { url: 'https://example.com/now' });
    expect(await visit(api, created.alias)).toBe('302 https://example.com/now');
    await form(account, 'patch', `/api/v1/links/${created.id}`, { disabled: '1' });
    expect(await visit(api, created.alias)).toBe('404');
  });
});

/**
 * One instance whose connections to PostgreSQL pass through a proxy that can make one of them go silent (its
 * packets dropped, nothing closed) or reset it, as a firewall or NAT that forgets a connection would. Changes are
 * made in SQL on a connection of their own, as another instance or an operator would make them.
 */
(onRealPostgres() ? describe : describe.skip)(
  'links cached for visits when the listening connection fails',
  () => {
    /** The statement only the change feed's connection sends. */
    const LISTENING = `LISTEN ${VISIT_CACHE_CHANNEL}`;
    let proxy: TcpProxy;
    let visitors: TestApp;
    let account: TestAccount;
    let sql: Client;

    beforeAll(async () => {
      const databaseUrl = process.env.DATABASE_URL!;
      proxy = await TcpProxy.forDatabase(databaseUrl);
      visitors = await createTestApp({ DATABASE_URL: proxy.urlFor(databaseUrl) });
      await listening(visitors);
      account = await createAccount(visitors);
      sql = new Client({ connectionString: databaseUrl });
      await sql.connect();
    });
    afterEach(() => {
      proxy.restore();
    });
    afterAll(async () => {
      await sql?.end();
      await visitors?.close();
      await proxy?.close();
    });

    async function cachedLink(url: string) {
      const created = await createLink(visitors, account, { url });
      expect(await visit(visitors, created.alias)).toBe(`302 ${url}`);
      expect(await visit(visitors, created.alias)).toBe(`302 ${url}`);
      return created;
    }

    /**
     * Waits until the instance listens on a connection other than the ones already counted: a new connection that
     * sent LISTEN and is not silenced (a new connection of the pool alone is not one).
     */
    async function listensAgain(accepted: number): Promise<void> {
      const feed = visitors.app.get(ChangeFeed);
      const reconnected = () => proxy.accepted > accepted && proxy.forwarding(LISTENING) === 1;
      const deadline = Date.now() + 15_000;
      while (!(feed.listening && reconnected()) && Date.now() < deadline) await sleep(20);
      expect({ listening: feed.listening, reconnected: reconnected() }).toEqual({
        listening: true,
        reconnected: true,
      });
    }

    it('stop redirecting to a link disabled while the listening connection is silent, and obey later changes once it is back', async () => {
      const first = await cachedLink('https://example.com/silent');
      const accepted = proxy.accepted;
      expect(proxy.silence(LISTENING)).toBe(1);
      await sql.query('UPDATE links SET disabled = true WHERE id = $1', [first.id]);
      // Within a second or two (the limit is generous for a loaded machine): entries have no time limit, so only
      // the silence noticed can end this one.
      expect(await eventually(visitors, first.alias, '404', 15_000)).toBe('404');

      await listensAgain(accepted);
      const second = await cachedLink('https://example.com/before');
      await sql.query('UPDATE links SET url = $1 WHERE id = $2', ['https://example.com/after', second.id]);
      expect(await eventually(visitors, second.alias, '302 https://example.com/after', 15_000)).toBe(
        '302 https://example.com/after',
      );
    });

    it('obey a change made while the listening connection was reset, and listen again', async () => {
      const created = await cachedLink('https://example.com/reset');
      const accepted = proxy.accepted;
      expect(proxy.cutWhere(LISTENING)).toBe(1);
      await sql.query('UPDATE links SET disabled = true WHERE id = $1', [created.id]);
      expect(await eventually(visitors, created.alias, '404', 15_000)).toBe('404');
      await listensAgain(accepted);
    });
  },
);
