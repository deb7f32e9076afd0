import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isPublicAddress, resolveHost, type AddressPolicy } from '../src/common/outbound-address';
import { IMPORT_ADDRESS_POLICY } from '../src/imports/import-sources';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { FakeBitly } from './support/fake-bitly';
import { FakeKutt } from './support/fake-kutt';
import { FakeShlink } from './support/fake-shlink';
import { closeServer, listenOnLoopback } from './support/http-server';
import { sleep } from './support/sleep';
import { UA } from './support/visitors';

/**
 * Imports through the API from Shlink, Kutt and Bitly, which cannot be reached from here: each is a server written
 * from its published API document (test/support/fake-*.ts). And sources that misbehave (slow, malformed, in a
 * redirect loop, endless, on a private address): each import ends `failed` with the reason, never hangs.
 * Loopback counts as public for this app alone, so that the fakes may be reached while the address policy holds.
 */
const LOOPBACK_AS_PUBLIC: AddressPolicy = {
  resolve: resolveHost,
  allowAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
};

describe('imports from Shlink, Kutt, Bitly, and from sources that misbehave', () => {
  let target: TestApp;
  const api = apiClient(() => target);
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    target = await createTestApp(
      { RATE_LIMIT_PER_MINUTE: '0', IMPORT_TIMEOUT_MS: '1500' },
      { override: (builder) => builder.overrideProvider(IMPORT_ADDRESS_POLICY).useValue(LOOPBACK_AS_PUBLIC) },
    );
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await target?.close();
  });

  async function runImport(account: TestAccount, body: Record<string, unknown>, secret: string) {
    const created = await api.json(account, 'post', '/api/v1/imports', body).expect(202);
    const id = (created.body as { data: { id: number } }).data.id;
    for (let tries = 0; tries < 300; tries += 1) {
      const shown = await api.call(account, 'get', `/api/v1/imports/${id}`).expect(200);
      const data = (shown.body as { data: Record<string, unknown> }).data;
      if (!['queued', 'running'].includes(data.status as string)) {
        for (const answer of [created.text, shown.text]) expect(answer).not.toContain(secret);
        return data;
      }
      await sleep(100);
    }
    throw new Error('the import did not end');
  }

  async function links(account: TestAccount) {
    const response = await api
      .call(account, 'get', '/api/v1/links?sort_by=alias&sort=asc&per_page=100')
      .expect(200);
    return (response.body as { data: Record<string, unknown>[] }).data;
  }

  /** A link's stats over a period, by default 2025's first quarter (clicks per day). */
  async function stats(
    account: TestAccount,
    linkId: unknown,
    name: string,
    from = '2025-01-01',
    to = '2025-03-31',
  ) {
    const response = await api
      .call(account, 'get', `/api/v1/stats/${String(linkId)}?name=${name}&from=${from}&to=${to}`)
      .expect(200);
    return (response.body as { data: unknown }).data;
  }

  it('brings Shlink short URLs with their domains and visits, bots left out', async () => {
    const shlink = await FakeShlink.start({
      apiKey: 'shlink-key',
      shortUrls: [
        {
          shortCode: 'launch',
          longUrl: 'https://example.com/launch',
          dateCreated: '2025-01-10T10:00:00+00:00',
          title: 'Launch',
          tags: ['news', 'NEWS', 'Launch week', `long ${'x'.repeat(60)}`],
          visits: [
            { date: '2025-01-11T09:00:00+00:00', userAgent: UA.iPhoneSafari, countryCode: 'FR' },
            { date: '2025-01-11T10:00:00+00:00', userAgent: UA.androidChrome, countryCode: 'FR' },
            {
              date: '2025-01-12T10:00:00+00:00',
              userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
              potentialBot: true,
            },
          ],
        },
        {
          shortCode: 'plain',
          longUrl: 'https://example.com/plain',
          dateCreated: '2025-01-10T11:00:00+00:00',
        },
      ],
    });
    closers.push(() => shlink.close());
    const account = await createAccount(target);
    const done = await runImport(
      account,
      { source: 'shlink', url: shlink.url, api_key: 'shlink-key' },
      'shlink-key',
    );
    expect(done).toMatchObject({
      status: 'done',
      progress: { links_created: 2, links_failed: 0, clicks_imported: 2 },
    });
    const imported = await links(account);
    expect(imported.map((link) => [link.alias, link.url, link.title, link.clicks])).toEqual([
      ['launch', 'https://example.com/launch', 'Launch', 2],
      ['plain', 'https://example.com/plain', null, 0],
    ]);
    // Tags come over as tags: repeats regardless of case once, a name past 50 characters cut there.
    expect(imported.map((link) => link.tags)).toEqual([
      ['news', 'Launch week', `long ${'x'.repeat(45)}`],
      [],
    ]);
    expect(await stats(account, imported[0].id, 'country')).toEqual([{ value: 'FR:France', count: 2 }]);
    expect(await stats(account, imported[0].id, 'click')).toEqual([{ value: '2025-01-11', count: 2 }]);

    const refused = await runImport(
      account,
      { source: 'shlink', url: shlink.url, api_key: 'wrong-key' },
      'wrong-key',
    );
    expect(refused).toMatchObject({
      status: 'failed',
      errors: [{ item: 'source', message: expect.stringContaining('credentials') as unknown }],
    });
  }, 60_000);

  it('brings Kutt links, and keeps a protected one protected', async () => {
    const kutt = await FakeKutt.start({
      apiKey: 'kutt-key',
      now: new Date(),
      links: [
        {
          id: '00000000-0000-4000-8000-000000000001',
          address: 'kutt-open',
          target: 'https://example.com/open',
          created_at: new Date(Date.now() - 5 * 86_400_000).toISOString(),
          visits: [
            {
              at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
              browser: 'firefox',
              os: 'linux',
              country: 'DE',
              referrer: 'direct',
            },
          ],
        },
        {
          id: '00000000-0000-4000-8000-000000000002',
          address: 'kutt-locked',
          target: 'https://example.com/locked',
          created_at: new Date(Date.now() - 5 * 86_400_000).toISOString(),
          password: true,
        },
      ],
    });
    closers.push(() => kutt.close());
    const account = await createAccount(target);
    const done = await runImport(account, { source: 'kutt', url: kutt.url, api_key: 'kutt-key' }, 'kutt-key');
    expect(done).toMatchObject({ status: 'done', progress: { links_created: 2, clicks_imported: 1 } });
    expect(done.errors).toContainEqual({
      item: 'kutt-locked',
      message: expect.stringContaining('redirect_password') as unknown,
    });
    const imported = await links(account);
    expect(imported.map((link) => [link.alias, link.redirect_password, link.clicks])).toEqual([
      ['kutt-locked', true, 0],
      ['kutt-open', false, 1],
    ]);
    const lastMonth = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    expect(await stats(account, imported[1].id, 'country', lastMonth, today)).toEqual([
      { value: 'DE:Germany', count: 1 },
    ]);
  }, 60_000);

  it('brings Bitly groups as spaces and bitlinks with their clicks per day', async () => {
    const bitly = await FakeBitly.start({
      token: 'bitly-token',
      groups: [{ guid: 'Bg1', name: 'Marketing' }],
      bitlinks: [
        {
          group: 'Bg1',
          id: 'bit.ly/spring',
          long_url: 'https://example.com/spring',
          created_at: '2025-03-01T00:00:00+0000',
          title: 'Spring',
          clicks: [
            { day: '2025-03-02', clicks: 3 },
            { day: '2025-03-03', clicks: 1 },
          ],
        },
      ],
    });
    closers.push(() => bitly.close());
    const account = await createAccount(target);
    const done = await runImport(
      account,
      { source: 'bitly', url: bitly.url, access_token: 'bitly-token' },
      'bitly-token',
    );
    expect(done).toMatchObject({ status: 'done', progress: { links_created: 1, clicks_imported: 4 } });
    const [spring] = await links(account);
    expect(spring).toMatchObject({
      alias: 'spring',
      url: 'https://example.com/spring',
      title: 'Spring',
      clicks: 4,
    });
    expect((spring.space as { name: string }).name).toBe('Marketing');
    expect(await stats(account, spring.id, 'click')).toEqual([
      { value: '2025-03-02', count: 3 },
      { value: '2025-03-03', count: 1 },
    ]);
  }, 60_000);

  describe('a source that misbehaves', () => {
    let server: Server;
    let base: string;

    /** A phpShort API whose answers depend on the first segment of the path: each a way of misbehaving. */
    function misbehave(request: IncomingMessage, response: ServerResponse): void {
      const [, scenario, ...rest] = (request.url ?? '/').split('?')[0].split('/');
      const path = rest.join('/');
      const json = (body: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      const list = (data: unknown[], page: number, lastPage: number) =>
        json({ data, meta: { current_page: page, last_page: lastPage, total: data.length } });
      if (scenario === 'slow') return; // Never answers.
      if (scenario === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"data": {"id": 1,');
        return;
      }
      if (scenario === 'loop') {
        response.writeHead(302, { location: `/loop/${path}` });
        response.end();
        return;
      }
      // Endless: every list says there is one more page, and every page is empty.
      if (path === 'api/v1/account') return json({ data: { id: 1, default_domain: 1 } });
      const page = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      if (path === 'api/v1/links') return list([], page, page + 1);
      return list([], 1, 1);
    }

    beforeAll(async () => {
      server = createServer(misbehave);
      base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
    });
    afterAll(() => closeServer(server));

    it.each([
      ['slow', 'the source did not answer within 1500 ms'],
      ['malformed', 'the source answered api/v1/account with something other than JSON'],
      ['loop', 'the source redirected more than 3 times'],
      ['endless', 'the source answered 3 empty pages in a row and still named a next one'],
    ])(
      'fails a %s source with the reason',
      async (scenario, reason) => {
        const account = await createAccount(target);
        const started = Date.now();
        const done = await runImport(
          account,
          { source: 'phpshort', url: `${base}/${scenario}`, api_key: 'the-key' },
          'the-key',
        );
        expect(done).toMatchObject({ status: 'failed', errors: [{ item: 'source', message: reason }] });
        expect(Date.now() - started).toBeLessThan(20_000);
      },
      30_000,
    );

    it('refuses a source on a private address, and a URL that is not http', async () => {
      const account = await createAccount(target);
      const done = await runImport(
        account,
        { source: 'phpshort', url: 'http://10.0.0.1/', api_key: 'private-key-123' },
        'private-key-123',
      );
      expect(done).toMatchObject({
        status: 'failed',
        errors: [{ item: 'source', message: expect.stringContaining('imports may not reach') as unknown }],
      });
      await api
        .json(account, 'post', '/api/v1/imports', {
          source: 'kutt',
          url: 'ftp://kutt.example/',
          api_key: 'k',
        })
        .expect(422);
    }, 30_000);
  });
});
