import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';

const JSON_TYPE = 'application/json; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OVER_ONE_MB = 1024 * 1024 + 1024;

describe('HTTP', () => {
  let t: TestApp;
  const { call } = apiClient(() => t);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** The server still answers an ordinary request. */
  async function expectServing(auth: string): Promise<void> {
    const response = await t.http().get('/api/v1/account').set('Authorization', auth);
    expect(response.status).toBe(200);
  }

  describe('request bodies', () => {
    it('answers 413 in the envelope to a JSON body over 1 MB, and keeps serving', async () => {
      const account = await createAccount(t);
      const response = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(OVER_ONE_MB) }));
      expect(response.status).toBe(413);
      expect(response.headers['content-type']).toBe(JSON_TYPE);
      expect(response.body).toEqual({ message: expect.any(String), status: 413 });
      expect(response.text).not.toMatch(/<html|<pre/i);
      await expectServing(account.auth);
    });

    it('answers 413 in the envelope to a form body over 1 MB, and keeps serving', async () => {
      const account = await createAccount(t);
      const response = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(`name=${'x'.repeat(OVER_ONE_MB)}`);
      expect(response.status).toBe(413);
      expect(response.headers['content-type']).toBe(JSON_TYPE);
      expect(response.body).toEqual({ message: expect.any(String), status: 413 });
      await expectServing(account.auth);
    });

    it('accepts a body just under the limit', async () => {
      const account = await createAccount(t);
      // Over the field's length, so a 422: what matters is that it was read, not refused as too large.
      const response = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(1000 * 1000) }));
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.message as object)).toEqual(['name']);
    });

    it('answers 400 in the envelope to malformed JSON, without echoing the parser', async () => {
      const account = await createAccount(t);
      const response = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/json')
        .send('{"name": "A",');
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toBe(JSON_TYPE);
      expect(response.body).toEqual({ message: 'Bad request.', status: 400 });
      await expectServing(account.auth);
    });

    it.each([
      ['arrays', (depth: number) => `{"name": ${'['.repeat(depth)}${']'.repeat(depth)}}`],
      ['objects', (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
    ])(
      'answers 400 in the envelope to JSON %s nested 3,000 deep, and keeps serving',
      async (_kind, nested) => {
        const account = await createAccount(t);
        for (const path of ['/api/v1/spaces', '/api/v1/links']) {
          const response = await call(account, 'post', path)
            .set('Content-Type', 'application/json')
            .send(nested(3000));
          expect(response.status).toBe(400);
          expect(response.body).toEqual({ message: 'Bad request.', status: 400 });
        }
        await expectServing(account.auth);
      },
    );

    it('reads JSON nested as deep as a real body goes, brackets inside strings not counted', async () => {
      const account = await createAccount(t);
      const response = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: `${'['.repeat(100)}"{`, extra: { a: [[{ b: [1] }]] } }));
      expect(response.status).toBe(201);
    });

    it('accepts JSON and form bodies alike', async () => {
      const account = await createAccount(t);
      const asJson = await call(account, 'post', '/api/v1/spaces').send({ name: 'From JSON', color: 3 });
      expect(asJson.status).toBe(201);
      expect(asJson.body).toMatchObject({ data: { name: 'From JSON', color: 3 }, status: 200 });

      const asForm = await call(account, 'post', '/api/v1/spaces')
        .type('form')
        .send('name=From+form&color=4');
      expect(asForm.status).toBe(201);
      expect(asForm.body).toMatchObject({ data: { name: 'From form', color: 4 }, status: 200 });
    });

    it('ignores unknown fields, in JSON and in forms', async () => {
      const account = await createAccount(t);
      const fields = ['id', 'name', 'color', 'links_count', 'created_at', 'updated_at'];
      const asJson = await call(account, 'post', '/api/v1/spaces').send({
        name: 'Json',
        id: 2_000_000_000,
        account_id: 1,
        links_count: 99,
        bogus: 'x',
        access_token: 'y',
      });
      expect(asJson.status).toBe(201);
      expect(Object.keys(asJson.body.data as object)).toEqual(fields);
      expect(asJson.body.data).toMatchObject({ name: 'Json', links_count: 0 });
      expect(asJson.body.data.id).not.toBe(2_000_000_000);

      const asForm = await call(account, 'post', '/api/v1/spaces')
        .type('form')
        .send('name=Form&bogus=x&nested[a]=1&access_token=y');
      expect(asForm.status).toBe(201);
      expect(Object.keys(asForm.body.data as object)).toEqual(fields);
      expect(asForm.body.data.name).toBe('Form');
    });
  });

  describe('content types', () => {
    const UNSUPPORTED = { message: 'Unsupported media type.', status: 415 };

    async function spaceNames(account: TestAccount): Promise<string[]> {
      const list = await call(account, 'get', '/api/v1/spaces');
      return (list.body.data as { name: string }[]).map((space) => space.name);
    }

    it('reads no body of a GET: a malformed one is answered as if there were none, in the route’s own type', async () => {
      const account = await createAccount(t);
      const shown = await call(account, 'get', '/api/v1/account')
        .set('Content-Type', 'application/json')
        .send('{"x": [');
      expect([shown.status, shown.headers['content-type']]).toEqual([200, JSON_TYPE]);
      const asset = await t
        .http()
        .get('/assets/pixels.js')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(`password${'%5Ba%5D'.repeat(100)}=1`);
      expect([asset.status, asset.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    });

    it('answers 415 to a body in a type the route does not read, and does nothing with it', async () => {
      const account = await createAccount(t);
      const created = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/xml')
        .send('<space><name>From XML</name></space>');
      expect([created.status, created.body]).toEqual([415, UNSUPPORTED]);
      expect(created.headers['content-type']).toBe(JSON_TYPE);
      expect(await spaceNames(account)).toEqual([]);

      const space = await call(account, 'post', '/api/v1/spaces').send({ name: 'Kept', color: 2 });
      const path = `/api/v1/spaces/${space.body.data.id}`;
      for (const verb of ['put', 'patch'] as const) {
        const changed = await call(account, verb, path)
          .set('Content-Type', 'application/xml')
          .send('<space><name>Changed</name></space>');
        expect([verb, changed.status, changed.body]).toEqual([verb, 415, UNSUPPORTED]);
      }
      const plain = await call(account, 'patch', path).set('Content-Type', 'text/plain').send('name=Changed');
      expect([plain.status, plain.body]).toEqual([415, UNSUPPORTED]);
      expect(await spaceNames(account)).toEqual(['Kept']);
    });

    it('answers 415 to an import that is not CSV, and to a bulk create that is CSV', async () => {
      const account = await createAccount(t);
      const imported = await call(account, 'post', '/api/v1/links/import').send({
        links: [{ url: 'https://example.com/' }],
      });
      expect([imported.status, imported.body]).toEqual([415, UNSUPPORTED]);
      const bulk = await call(account, 'post', '/api/v1/links/bulk')
        .set('Content-Type', 'text/csv')
        .send('url\nhttps://example.com/\n');
      expect([bulk.status, bulk.body]).toEqual([415, UNSUPPORTED]);
      const links = await call(account, 'get', '/api/v1/links');
      expect(links.body.meta.total).toBe(0);
    });

    it('answers 415 to a body that is neither JSON nor a form on a route that reads none, and to one without a type', async () => {
      const account = await createAccount(t);
      const space = await call(account, 'post', '/api/v1/spaces').send({ name: 'Stays' });
      const removed = await call(account, 'delete', `/api/v1/spaces/${space.body.data.id}`)
        .set('Content-Type', 'application/xml')
        .send('<id>1</id>');
      expect([removed.status, removed.body]).toEqual([415, UNSUPPORTED]);
      const listed = await call(account, 'get', '/api/v1/spaces').set('Content-Type', 'text/plain').send('x');
      expect([listed.status, listed.body]).toEqual([415, UNSUPPORTED]);
      // JSON and form fields are read and ignored there, as unknown fields are everywhere.
      const ignored = await call(account, 'get', '/api/v1/spaces').send({ name: 'Ignored' });
      expect(ignored.status).toBe(200);
      const untyped = await call(account, 'post', '/api/v1/spaces')
        .send('name=Untyped')
        .unset('Content-Type');
      expect([untyped.status, untyped.body]).toEqual([415, UNSUPPORTED]);
      expect(await spaceNames(account)).toEqual(['Stays']);
    });

    it('reads a request with no body whatever its content type, and JSON with its charset', async () => {
      const account = await createAccount(t);
      const space = await call(account, 'post', '/api/v1/spaces')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ name: 'Charset' }));
      expect(space.status).toBe(201);
      const path = `/api/v1/spaces/${space.body.data.id}`;
      expect((await call(account, 'get', path)).status).toBe(200);
      expect((await call(account, 'patch', path)).status).toBe(200);
      expect((await call(account, 'put', path).set('Content-Type', 'application/xml')).status).toBe(200);
      expect(
        (await call(account, 'get', '/api/v1/spaces').set('Content-Type', 'application/json')).status,
      ).toBe(200);
      const emptyJson = await call(account, 'patch', path).set('Content-Type', 'application/json');
      expect(emptyJson.status).toBe(200);
      expect((await call(account, 'delete', path)).status).toBe(200);
    });
  });

  describe('operating endpoints', () => {
    it('serves GET /health without a key', async () => {
      const response = await t.http().get('/health');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'ok' });
    });

    it('serves GET /health/ready without a key and reports the database up', async () => {
      const response = await t.http().get('/health/ready');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
    });

    it('serves the OpenAPI UI at /docs without a key', async () => {
      const response = await t.http().get('/docs');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toMatch(/swagger/i);
    });

    it('serves the OpenAPI document at /docs-json without a key, with the API and its bearer scheme', async () => {
      const response = await t.http().get('/docs-json');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.openapi).toMatch(/^3\./);
      expect(Object.keys(response.body.paths as object)).toEqual(
        expect.arrayContaining(['/api/v1/spaces', '/api/v1/spaces/{id}', '/api/v1/account']),
      );
      const schemes = Object.values(response.body.components.securitySchemes as object);
      expect(schemes).toContainEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    });
  });

  describe('request ids', () => {
    it('puts a new X-Request-Id on every response', async () => {
      const account = await createAccount(t);
      const responses = await Promise.all([
        call(account, 'get', '/api/v1/account'),
        t.http().get('/api/v1/account'),
        call(account, 'get', '/api/v1/nothing-here'),
        call(account, 'post', '/api/v1/spaces').send({}),
        t.http().get('/health'),
        t.http().get('/docs'),
        t.http().get('/docs-json'),
        call(account, 'post', '/api/v1/spaces').set('Content-Type', 'application/json').send('{'),
      ]);
      expect(responses.map((response) => response.status)).toEqual([200, 401, 404, 422, 200, 200, 200, 400]);
      const ids = responses.map((response) => response.headers['x-request-id']);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('echoes a sane incoming X-Request-Id', async () => {
      const given = 'req-2026.11_21-ABC';
      const response = await t.http().get('/health').set('X-Request-Id', given);
      expect(response.headers['x-request-id']).toBe(given);
    });

    it.each([
      ['too long', 'a'.repeat(300)],
      ['with spaces', 'id with spaces'],
      ['with markup', '<script>'],
    ])('replaces an unsafe incoming X-Request-Id (%s)', async (_case, given) => {
      const response = await t.http().get('/health').set('X-Request-Id', given);
      expect(response.headers['x-request-id']).toMatch(UUID);
    });
  });

  describe('responses', () => {
    it('answers an unknown API route with a valid key as 404 in the envelope', async () => {
      const account = await createAccount(t);
      for (const [method, path] of [
        ['get', '/api/v1/nothing-here'],
        ['post', '/api/v1/nothing-here'],
        ['get', '/api/v1/spaces/1/nothing'],
        ['delete', '/api/v1/account'],
      ] as const) {
        const response = await t.http()[method](path).set('Authorization', account.auth);
        expect(response.status).toBe(404);
        expect(response.headers['content-type']).toBe(JSON_TYPE);
        expect(response.body).toEqual({ message: 'Resource not found.', status: 404 });
      }
    });

    it('sends JSON in UTF-8 and helmet headers, and no X-Powered-By', async () => {
      const account = await createAccount(t);
      const responses = await Promise.all([
        call(account, 'get', '/api/v1/account'),
        t.http().get('/api/v1/account'),
        call(account, 'get', '/api/v1/nothing-here'),
        t.http().get('/health'),
      ]);
      for (const response of responses) {
        expect(response.headers['content-type']).toBe(JSON_TYPE);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('writes non-ASCII names as UTF-8', async () => {
      const account = await createAccount(t);
      const created = await call(account, 'post', '/api/v1/spaces')
        .type('form')
        .send({ name: 'Café ☕ 東京' });
      expect(created.status).toBe(201);
      expect(created.body.data.name).toBe('Café ☕ 東京');
      expect(Buffer.from(created.text, 'utf8').includes(Buffer.from('Café ☕ 東京', 'utf8'))).toBe(true);
    });
  });
});
