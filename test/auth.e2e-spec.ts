import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import { Account } from '../src/auth/account.entity';
import { AccountsService } from '../src/auth/accounts.service';
import { DomainsService } from '../src/domains/domains.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { ISO_DATE } from './support/api';
import { asArray, nestRoutes, PEOPLE_WAYS_IN } from './support/routes';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { UNAUTHENTICATED } from './support/contract';

/** Routes that may be reached without a key. Anything else marked @Public() fails the route walk. */
const PUBLIC_ALLOW_LIST = [
  // Contract section 8.
  'GET /health',
  'GET /health/ready',
  // A 404 unless METRICS_TOKEN is set, then behind that token; Prometheus scrapes the metrics port instead.
  'GET /metrics',
  // The visitor routes of contract section 6 and what their pages load.
  'GET /',
  'GET /:alias',
  'GET /:alias/\\+',
  // The QR code of a short link: what anyone may print.
  'GET /:alias/qr',
  'POST /:alias/password',
  'POST /:alias/sensitive-consent',
  // Reloading a form's address shows the link's first page again.
  'GET /:alias/password',
  'GET /:alias/sensitive-consent',
  // Any other address: the visitor's 404 page (API paths keep the JSON 404).
  'GET /*path',
  'GET /:alias/stats',
  'POST /:alias/stats',
  'GET /assets/pixels.js',
  // Contract section 13: a domain's files for the apps its links open, which Apple and Google fetch.
  'GET /.well-known/apple-app-site-association',
  'GET /.well-known/assetlinks.json',
  // Contract section 11: the ways in of a person who has no session yet, each limited per email and address.
  ...PEOPLE_WAYS_IN,
];
/**
 * Express routes that are no Nest controller's, so outside the guard: the OpenAPI UI and document, and the
 * app-wide Nest middleware (logger, body parser), which Nest registers as `all('/{*path}')` and which calls next.
 */
const NON_NEST_ALLOW_LIST = [
  /^(GET|HEAD) \/docs(-json|-yaml|\/.*)?$/,
  // The dashboard's files and page: public, static, and a client of the guarded API like any other.
  /^(GET|HEAD) \/app(\/.*)?$/,
  /^[A-Z-]+ \/\{\*path\}$/,
];
/** Routes the walk must find, so that it cannot pass by finding nothing. */
const KNOWN_ROUTES = [
  'GET /api/v1/account',
  'GET /api/v1/spaces',
  'POST /api/v1/spaces',
  'GET /api/v1/spaces/:id',
  'PUT /api/v1/spaces/:id',
  'PATCH /api/v1/spaces/:id',
  'DELETE /api/v1/spaces/:id',
  'GET /health',
  'GET /health/ready',
];

/** Every route in the Express router, whoever registered it. */
function expressRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string | string[]; methods: Record<string, boolean> } }[] };
  };
  return express.router.stack.flatMap((layer) => {
    if (layer.route === undefined) return [];
    const { methods } = layer.route;
    return asArray(layer.route.path).flatMap((path) =>
      Object.keys(methods)
        .filter((method) => methods[method])
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
  });
}

function concretePath(path: string): string {
  return path.replace(/:\w+/g, '1').replace(/\{?\*\w+\}?/g, '1');
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

describe('authentication', () => {
  let t: TestApp;
  let accounts: AccountsService;
  beforeAll(async () => {
    t = await createTestApp();
    accounts = t.app.get(AccountsService);
  });
  afterAll(async () => {
    await t.close();
  });

  function accountEntity(account: TestAccount): Promise<Account> {
    return t.dataSource.getRepository(Account).findOneByOrFail({ id: account.id });
  }

  describe('refused credentials', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a Basic scheme', 'Basic xyz'],
      ['a Basic scheme carrying a valid key', 'Basic VALID_KEY'],
      ['Bearer with nothing', 'Bearer'],
      ['Bearer with two words', 'Bearer VALID_KEY extra'],
      ['an unknown key', 'Bearer lsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['the key without Bearer', 'VALID_KEY'],
    ])('answers 401 to %s', async (_case, header) => {
      const account = await createAccount(t);
      const headers =
        header === undefined ? {} : { Authorization: header.replace('VALID_KEY', account.apiKey) };
      const response = await t.http().get('/api/v1/account').set(headers);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('answers 401 to a revoked key', async () => {
      const account = await createAccount(t);
      expect((await t.http().get('/api/v1/account').set('Authorization', account.auth)).status).toBe(200);
      await expect(accounts.revokeKey(account.apiKey)).resolves.toBe(true);
      const response = await t.http().get('/api/v1/account').set('Authorization', account.auth);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
      // A key is revoked once: a second revocation finds no live key.
      await expect(accounts.revokeKey(account.apiKey)).resolves.toBe(false);
    });

    it('takes the key from the Authorization header only, not from the query string or the body', async () => {
      const account = await createAccount(t);
      const inQuery = await t.http().get(`/api/v1/account?access_token=${account.apiKey}`);
      expect(inQuery.status).toBe(401);
      expect(inQuery.body).toEqual(UNAUTHENTICATED);
      const inBody = await t
        .http()
        .post('/api/v1/spaces')
        .type('form')
        .send({ name: 'A', access_token: account.apiKey });
      expect(inBody.status).toBe(401);
      expect(inBody.body).toEqual(UNAUTHENTICATED);
      const spaces: unknown[] = await t.dataSource.query('SELECT id FROM spaces WHERE account_id = $1', [
        account.id,
      ]);
      expect(spaces).toEqual([]);
    });

    it('reads no body before the key is checked: a malformed, a too deep or an oversized one is still a 401', async () => {
      const bodies = [
        ['application/json', '{"links": ['],
        ['application/json', `${'['.repeat(100)}${']'.repeat(100)}`],
        ['application/json', `{"links":[${'{},'.repeat(1_100_000)}{}]}`],
        ['text/csv', `url\n${'x\n'.repeat(1_100_000)}`],
      ];
      for (const [type, body] of bodies) {
        const path = type === 'text/csv' ? '/api/v1/links/import' : '/api/v1/links/bulk';
        const response = await t.http().post(path).set('Content-Type', type).send(body);
        expect([type, body.length, response.status, response.body]).toEqual([
          type,
          body.length,
          401,
          UNAUTHENTICATED,
        ]);
      }
    });
  });

  describe('a valid key', () => {
    it('shows its account in the contract shape: phpShort’s fields', async () => {
      const account = await createAccount(t, `Account ${Date.now()}`);
      const response = await t.http().get('/api/v1/account').set('Authorization', account.auth);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(Object.keys(response.body.data)).toEqual([
        'id',
        'name',
        'email',
        'avatar_url',
        'locale',
        'timezone',
        'plan',
        'default_domain',
        'default_space',
        'default_stats',
        'created_at',
      ]);
      expect(response.body).toEqual({
        data: {
          id: account.id,
          name: account.name,
          email: null,
          avatar_url: null,
          locale: 'en',
          timezone: 'UTC',
          plan: null,
          default_domain: (await t.app.get(DomainsService).defaultDomain()).id,
          default_space: null,
          default_stats: 0,
          created_at: expect.stringMatching(ISO_DATE),
        },
        status: 200,
      });
      const entity = await accountEntity(account);
      expect(new Date(response.body.data.created_at).getTime()).toBe(entity.createdAt.getTime());
      expect(Math.abs(entity.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    });

    it("is the account's own: two accounts see themselves", async () => {
      const first = await createAccount(t);
      const second = await createAccount(t);
      const [a, b] = await Promise.all([
        t.http().get('/api/v1/account').set('Authorization', first.auth),
        t.http().get('/api/v1/account').set('Authorization', second.auth),
      ]);
      expect(a.body.data.id).toBe(first.id);
      expect(b.body.data.id).toBe(second.id);
      expect(first.id).not.toBe(second.id);
    });

    it('authenticates each of many concurrent requests as its own account, while another connection is in a transaction', async () => {
      const made: TestAccount[] = [];
      for (let index = 0; index < 8; index += 1) made.push(await createAccount(t));
      const seen: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        const runner = t.dataSource.createQueryRunner();
        await runner.connect();
        try {
          await runner.startTransaction();
          await runner.query('SELECT 1');
          const pending = Promise.all(
            made.map((account) =>
              t
                .http()
                .get('/api/v1/account')
                .set('Authorization', account.auth)
                .then((response) => response),
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 100));
          await runner.commitTransaction();
          seen.push(
            ...(await pending).map((response) => `${response.status} ${String(response.body.data?.id)}`),
          );
        } finally {
          await runner.release();
        }
      }
      const expected = made.map((account) => `200 ${account.id}`);
      expect(seen).toEqual([...expected, ...expected, ...expected]);
    });

    it('is one of several: a second key works, and revoking one leaves the other working', async () => {
      const account = await createAccount(t);
      const second = await accounts.createKey(await accountEntity(account));
      expect(second.apiKey).not.toBe(account.apiKey);

      const withSecond = await t
        .http()
        .get('/api/v1/account')
        .set('Authorization', `Bearer ${second.apiKey}`);
      expect(withSecond.status).toBe(200);
      expect(withSecond.body.data.id).toBe(account.id);

      await expect(accounts.revokeKey(account.apiKey)).resolves.toBe(true);
      expect((await t.http().get('/api/v1/account').set('Authorization', account.auth)).status).toBe(401);
      const stillWorking = await t
        .http()
        .get('/api/v1/account')
        .set('Authorization', `Bearer ${second.apiKey}`);
      expect(stillWorking.status).toBe(200);
      expect(stillWorking.body.data.id).toBe(account.id);

      await expect(accounts.revokeKey(second.apiKey)).resolves.toBe(true);
      expect(
        (await t.http().get('/api/v1/account').set('Authorization', `Bearer ${second.apiKey}`)).status,
      ).toBe(401);
    });
  });

  describe('key storage', () => {
    it('stores only the SHA-256 of a key, and the key itself nowhere', async () => {
      const account = await createAccount(t);
      const second = await accounts.createKey(await accountEntity(account));
      const rows: Record<string, unknown>[] = await t.dataSource.query(
        'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY id',
        [account.id],
      );
      expect(rows.map((row) => row.key_hash)).toEqual([sha256(account.apiKey), sha256(second.apiKey)]);
      const accountRows: Record<string, unknown>[] = await t.dataSource.query(
        'SELECT * FROM accounts WHERE id = $1',
        [account.id],
      );
      const stored = JSON.stringify([...rows, ...accountRows]);
      for (const key of [account.apiKey, second.apiKey]) {
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(key.slice('lsk_'.length));
      }
    });

    it('makes keys of 256 random bits, each different', async () => {
      const first = await createAccount(t);
      const second = await createAccount(t);
      for (const { apiKey } of [first, second]) {
        expect(apiKey).toMatch(/^lsk_[A-Za-z0-9_-]+$/);
        expect(Buffer.from(apiKey.slice('lsk_'.length), 'base64url')).toHaveLength(32);
      }
      expect(first.apiKey).not.toBe(second.apiKey);
    });
  });

  describe('route walk', () => {
    it('finds the known API routes', () => {
      const found = nestRoutes(t.app).map((route) => route.route);
      expect(found).toEqual(expect.arrayContaining(KNOWN_ROUTES));
    });

    it('allows no public route that is not on the allow-list', () => {
      const offending = nestRoutes(t.app)
        .filter((route) => route.isPublic && !PUBLIC_ALLOW_LIST.includes(route.route))
        .map((route) => route.route);
      expect(offending).toEqual([]);
    });

    it('refuses every other route without a key', async () => {
      const server = t.app.getHttpServer() as Server;
      const protectedRoutes = nestRoutes(t.app).filter((route) => !route.isPublic);
      expect(protectedRoutes.length).toBeGreaterThanOrEqual(KNOWN_ROUTES.length - PUBLIC_ALLOW_LIST.length);
      const offending: string[] = [];
      for (const route of protectedRoutes) {
        const method = route.method === 'ALL' ? 'get' : (route.method.toLowerCase() as 'get');
        const response = await request(server)[method](concretePath(route.path));
        const body: unknown = response.body;
        if (response.status !== 401 || JSON.stringify(body) !== JSON.stringify(UNAUTHENTICATED)) {
          offending.push(`${route.route} -> ${response.status} ${response.text}`);
        }
      }
      expect(offending).toEqual([]);
    });

    it('finds no route registered outside Nest, where the guard cannot see it, except the OpenAPI UI and the dashboard', () => {
      const nest = new Set(nestRoutes(t.app).map((route) => route.route));
      const express = expressRoutes(t.app);
      expect(express).toEqual(expect.arrayContaining(KNOWN_ROUTES));
      const offending = express.filter(
        (route) => !nest.has(route) && !NON_NEST_ALLOW_LIST.some((pattern) => pattern.test(route)),
      );
      expect(offending).toEqual([]);
    });
  });

  describe('bootstrap, on a database of its own', () => {
    const initialKey = `initial_${'k'.repeat(40)}`;
    let scratch: ScratchDatabase;
    let fresh: TestApp;

    beforeAll(async () => {
      scratch = await scratchDatabase('shortlink_bootstrap');
      fresh = await createTestApp({ DATABASE_URL: scratch.url, INITIAL_API_KEY: initialKey });
    });

    afterAll(async () => {
      await fresh?.close();
      await scratch?.drop();
    });

    it('made the first account, "Default", with INITIAL_API_KEY as its key', async () => {
      const response = await fresh.http().get('/api/v1/account').set('Authorization', `Bearer ${initialKey}`);
      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('Default');
      expect(await fresh.dataSource.query('SELECT count(*)::int AS count FROM accounts')).toEqual([
        { count: 1 },
      ]);
    });

    it('makes nothing on a database that has accounts', async () => {
      const bootstrap = fresh.app.get(AccountsService);
      const givenKey = `given_${'x'.repeat(40)}`;
      await expect(bootstrap.bootstrap(undefined)).resolves.toBeNull();
      await expect(bootstrap.bootstrap(givenKey)).resolves.toBeNull();
      const keys: unknown[] = await fresh.dataSource.query('SELECT id FROM api_keys WHERE key_hash = $1', [
        sha256(givenKey),
      ]);
      expect(keys).toEqual([]);
      expect(await fresh.dataSource.query('SELECT count(*)::int AS count FROM accounts')).toEqual([
        { count: 1 },
      ]);
      const refused = await fresh.http().get('/api/v1/account').set('Authorization', `Bearer ${givenKey}`);
      expect(refused.status).toBe(401);
    });
  });
});

describe('rate limiting', () => {
  describe('with RATE_LIMIT_PER_MINUTE=3', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    });
    afterAll(async () => {
      await t.close();
    });

    it('counts down, then answers 429 with Retry-After, and serves other keys', async () => {
      const account = await createAccount(t);
      for (const remaining of ['2', '1', '0']) {
        const response = await t.http().get('/api/v1/account').set('Authorization', account.auth);
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBe('3');
        expect(response.headers['x-ratelimit-remaining']).toBe(remaining);
      }
      const refused = await t.http().get('/api/v1/account').set('Authorization', account.auth);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: 'Too Many Attempts.', status: 429 });
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

      const other = await createAccount(t);
      const served = await t.http().get('/api/v1/account').set('Authorization', other.auth);
      expect(served.status).toBe(200);
      expect(served.headers['x-ratelimit-remaining']).toBe('2');
    });

    it("counts a key's requests on all routes together", async () => {
      const account = await createAccount(t);
      const paths = ['/api/v1/account', '/api/v1/spaces', '/api/v1/spaces/999999999'];
      const statuses: number[] = [];
      for (const path of [...paths, '/api/v1/account']) {
        statuses.push((await t.http().get(path).set('Authorization', account.auth)).status);
      }
      expect(statuses).toEqual([200, 200, 404, 429]);
    });

    it('puts the headers on a 401 too, with an unknown key or none', async () => {
      const unknownKey = await t.http().get('/api/v1/account').set('Authorization', 'Bearer lsk_unknown');
      expect(unknownKey.status).toBe(401);
      expect(unknownKey.body).toEqual(UNAUTHENTICATED);
      expect(unknownKey.headers['x-ratelimit-limit']).toBe('3');
      expect(unknownKey.headers['x-ratelimit-remaining']).toBe('2');

      // A request without a key fails authentication too: it shares the address's budget.
      const noKey = await t.http().get('/api/v1/spaces');
      expect(noKey.status).toBe(401);
      expect(noKey.headers['x-ratelimit-limit']).toBe('3');
      expect(noKey.headers['x-ratelimit-remaining']).toBe('1');
    });
  });

  describe('of requests that fail authentication, with RATE_LIMIT_PER_MINUTE=3', () => {
    let t: TestApp;
    beforeAll(async () => {
      // Addresses from X-Forwarded-For, so that each test is a client of its own.
      t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' });
    });
    afterAll(async () => {
      await t.close();
    });

    function withKey(address: string, key: string) {
      return t
        .http()
        .get('/api/v1/account')
        .set('X-Forwarded-For', address)
        .set('Authorization', `Bearer ${key}`);
    }

    it('counts them per client address, however many different keys it tries', async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) {
        statuses.push((await withKey('198.51.100.7', `lsk_guess${attempt}`)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const noKey = await t.http().get('/api/v1/account').set('X-Forwarded-For', '198.51.100.7');
      expect(noKey.status).toBe(429);
    });

    it("leaves a valid key's budget and other addresses alone", async () => {
      const account = await createAccount(t);
      for (let attempt = 0; attempt < 4; attempt += 1) await withKey('198.51.100.8', `lsk_guess${attempt}`);
      expect((await withKey('198.51.100.8', account.apiKey)).status).toBe(200);
      expect((await withKey('198.51.100.9', 'lsk_guess')).status).toBe(401);
    });

    it("counts a dashboard session in its key's budget, not in its address's", async () => {
      const account = await createAccount(t);
      const address = '198.51.100.10';
      const signIn = await t
        .http()
        .post('/api/v1/session')
        .set('X-Forwarded-For', '198.51.100.11')
        .set('Authorization', account.auth);
      expect(signIn.status).toBe(201);
      const cookie = String(([] as string[]).concat(signIn.headers['set-cookie'] ?? [])[0]).split(';')[0];
      const bySession = () =>
        t
          .http()
          .get('/api/v1/account')
          .set('X-Forwarded-For', address)
          .set('Cookie', cookie)
          .set('X-Shortlink-Session', '1');

      for (let attempt = 0; attempt < 4; attempt += 1) await withKey(address, `lsk_guess${attempt}`);
      expect((await withKey(address, 'lsk_guess')).status).toBe(429);
      const served = await bySession();
      expect(`${served.status} ${served.headers['x-ratelimit-remaining']}`).toBe('200 1');
      // The key and its session share one budget: the key's own request spends the last of it.
      expect((await withKey(address, account.apiKey)).status).toBe(200);
      expect((await bySession()).status).toBe(429);
    });

    it('counts an IPv6 client by its /64, so that rotating addresses inside it gains nothing', async () => {
      const statuses: number[] = [];
      for (const address of [
        '2001:db8:7:7::1',
        '2001:db8:7:7::2',
        '2001:db8:7:7::abcd:1',
        '2001:db8:7:7:ffff:ffff:ffff:ffff',
      ]) {
        statuses.push((await withKey(address, 'lsk_guess')).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect((await withKey('2001:db8:7:8::1', 'lsk_guess')).status).toBe(401);
    });
  });

  describe('with RATE_LIMIT_PER_MINUTE=0', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    });
    afterAll(async () => {
      await t.close();
    });

    it('never refuses, well past the default limit', async () => {
      const account = await createAccount(t);
      const statuses = new Set<number>();
      for (let index = 0; index < 130; index += 1) {
        statuses.add((await t.http().get('/api/v1/account').set('Authorization', account.auth)).status);
      }
      expect([...statuses]).toEqual([200]);
    });
  });

  describe('by default', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('allows 120 requests a minute', async () => {
      const account = await createAccount(t);
      const response = await t.http().get('/api/v1/account').set('Authorization', account.auth);
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('120');
      expect(response.headers['x-ratelimit-remaining']).toBe('119');
    });

    it('puts the headers on API errors too', async () => {
      const account = await createAccount(t);
      const responses = await Promise.all([
        t.http().get('/api/v1/spaces/999999999').set('Authorization', account.auth),
        t.http().get('/api/v1/spaces/not-an-id').set('Authorization', account.auth),
        t.http().post('/api/v1/spaces').set('Authorization', account.auth).send({}),
        t.http().delete('/api/v1/spaces/1'),
      ]);
      expect(responses.map((response) => response.status)).toEqual([404, 404, 422, 401]);
      for (const response of responses) {
        expect(response.headers['x-ratelimit-limit']).toBe('120');
        expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      }
    });
  });
});
