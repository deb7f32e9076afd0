import { randomBytes } from 'node:crypto';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  childEnv,
  killAllChildren,
  lastLine,
  removeDir,
  runCli,
  startServer,
  tempDir,
  type ServerProcess,
} from './support/process';
import { sleep } from './support/sleep';

/** An embedded database's first start makes its cluster: slow on a loaded machine. */
const EMBEDDED_START_MS = 120_000;
import { UA } from './support/visitors';

/**
 * An import from a phpShort source that is a second instance of this service (contract §12): a server process of
 * its own on an embedded database, read over its API. Spaces, domains, pixels, every link field and the stats come
 * over equal; a second run creates nothing.
 */
describe('import from a phpShort source (a second instance)', () => {
  let target: TestApp;
  let source: ServerProcess;
  let dataDir: string;
  const sourceKey = `lsk_${randomBytes(32).toString('base64url')}`;
  const api = apiClient(() => target);

  async function onSource(
    method: string,
    path: string,
    body?: object,
  ): Promise<{ data: Record<string, unknown> }> {
    const response = await fetch(`${source.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${sourceKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as { data: Record<string, unknown> };
  }

  async function visitSource(alias: string, userAgent: string, referer?: string): Promise<void> {
    const response = await fetch(`${source.url}/${alias}`, {
      redirect: 'manual',
      headers: { 'user-agent': userAgent, ...(referer === undefined ? {} : { referer }) },
    });
    expect(response.status).toBe(302);
  }

  async function finished(account: TestAccount, id: number): Promise<Record<string, unknown>> {
    for (let tries = 0; tries < 600; tries += 1) {
      const response = await api.call(account, 'get', `/api/v1/imports/${id}`).expect(200);
      const body = response.body as { data: Record<string, unknown> };
      if (!['queued', 'running'].includes(body.data.status as string)) return body.data;
      await sleep(100);
    }
    throw new Error('the import did not end');
  }

  async function runImport(account: TestAccount, extra: Record<string, unknown> = {}) {
    const created = await api
      .json(account, 'post', '/api/v1/imports', {
        source: 'phpshort',
        url: source.url,
        api_key: sourceKey,
        ...extra,
      })
      .expect(202);
    expect(created.body).toMatchObject({ status: 202, data: { source: 'phpshort', status: 'queued' } });
    expect(JSON.stringify(created.body)).not.toContain(sourceKey);
    return finished(account, (created.body as { data: { id: number } }).data.id);
  }

  beforeAll(async () => {
    dataDir = tempDir();
    source = await startServer({
      readyTimeoutMs: EMBEDDED_START_MS,
      env: childEnv(
        { INITIAL_API_KEY: sourceKey, DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
        { embedded: true },
      ),
    });
    target = await createTestApp({ IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true' });
    const space = await onSource('POST', '/api/v1/spaces', { name: 'Campaigns', color: 3 });
    await onSource('POST', '/api/v1/spaces', { name: 'Empty space', color: 5 });
    const pixel = await onSource('POST', '/api/v1/pixels', {
      name: 'Main tag',
      type: 'google-tag-manager',
      value: 'GTM-AB12',
    });
    const domain = await onSource('POST', '/api/v1/domains', {
      name: `go-${randomBytes(4).toString('hex')}.example`,
    });
    await onSource('POST', '/api/v1/links', {
      url: 'https://example.com/sale',
      alias: 'sale',
      title: 'Summer sale',
      space_id: space.data.id,
      targets_type: 'countries',
      targets: [{ key: 'GB', value: 'https://example.co.uk/sale' }],
      clicks_limit: 1000,
      expiration_url: 'https://example.com/over',
      utm_source: 'newsletter',
      utm_campaign: 'summer',
      ios_url: 'shop://sale',
      og_title: 'Summer sale',
      og_image_url: 'https://cdn.example.com/sale.png',
      notes: 'From the old shortener.',
    });
    await onSource('POST', '/api/v1/links', {
      url: 'https://example.com/branded',
      alias: 'brand',
      domain_id: domain.data.id,
      sensitive_content: 1,
      pixel_ids: [pixel.data.id],
    });
    await onSource('POST', '/api/v1/links', {
      url: 'https://example.com/secret',
      alias: 'secret',
      redirect_password: 'hunter22',
    });
    for (let index = 0; index < 3; index += 1)
      await visitSource('sale', UA.iPhoneSafari, 'https://news.example/a');
    await visitSource('sale', UA.androidChrome);
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    await source?.stop();
    await killAllChildren();
    removeDir(dataDir);
  });

  it('brings spaces, domains, pixels, every link field and the stats, and a second run creates nothing', async () => {
    const account = await createAccount(target);
    const done = await runImport(account);
    expect(done).toMatchObject({
      status: 'done',
      dry_run: 0,
      progress: { links_total: 3, links_done: 3, links_created: 3, links_failed: 0, clicks_imported: 4 },
    });
    expect(done.errors).toEqual([
      { item: 'secret', message: expect.stringContaining('redirect_password') as unknown },
    ]);

    const spaces = (await api.call(account, 'get', '/api/v1/spaces?sort=asc').expect(200)).body as {
      data: { name: string; color: number }[];
    };
    expect(spaces.data.map(({ name, color }) => [name, color]).sort()).toEqual([
      ['Campaigns', 3],
      ['Empty space', 5],
    ]);
    const links = (await api.call(account, 'get', '/api/v1/links?sort_by=id&sort=asc').expect(200)).body as {
      data: Record<string, unknown>[];
    };
    const sourceLinks = (await onSource('GET', '/api/v1/links?sort_by=id&sort=asc')) as unknown as {
      data: Record<string, unknown>[];
    };
    // Links on each side's default domain (the source's own host, this workspace's default) compare as `default`.
    const domainName = (link: Record<string, unknown>) => (link.domain as { name: string }).name;
    const comparable = (defaultName: string) => (link: Record<string, unknown>) => ({
      alias: link.alias,
      url: link.url,
      title: link.title,
      targets_type: link.targets_type,
      targets: link.targets,
      sensitive_content: link.sensitive_content,
      privacy: link.privacy,
      redirect_password: link.redirect_password,
      clicks_limit: link.clicks_limit,
      expiration_url: link.expiration_url,
      utm: [link.utm_source, link.utm_medium, link.utm_campaign, link.utm_term, link.utm_content],
      apps: [link.ios_url, link.android_url],
      preview: [link.og_title, link.og_description, link.og_image_url],
      notes: link.notes,
      clicks: link.clicks,
      created_at: link.created_at,
      space: (link.space as { name: string } | null)?.name ?? null,
      pixels: (link.pixels as { name: string }[]).map((pixel) => pixel.name),
      domain: domainName(link) === defaultName ? 'default' : domainName(link),
    });
    const defaultOf = (all: Record<string, unknown>[]) =>
      domainName(all.find((link) => link.alias === 'sale')!);
    expect(links.data.map(comparable(defaultOf(links.data)))).toEqual(
      sourceLinks.data.map(comparable(defaultOf(sourceLinks.data))),
    );

    const sale = links.data.find((link) => link.alias === 'sale')!;
    expect(sale).toMatchObject({
      utm_source: 'newsletter',
      ios_url: 'shop://sale',
      notes: 'From the old shortener.',
    });
    const sourceSale = sourceLinks.data.find((link) => link.alias === 'sale')!;
    for (const name of ['click', 'referrer', 'country', 'browser', 'operating_system', 'device']) {
      const query = `name=${name}&from=2020-01-01&to=2099-12-31`;
      const mine = (await api.call(account, 'get', `/api/v1/stats/${String(sale.id)}?${query}`).expect(200))
        .body as {
        data: unknown;
      };
      const theirs = (await onSource(
        'GET',
        `/api/v1/stats/${String(sourceSale.id)}?${query}`,
      )) as unknown as { data: unknown };
      expect([name, mine.data]).toEqual([name, theirs.data]);
    }

    // The credentials were held only while the import could run.
    const [held] = await target.dataSource.query<{ credentials: unknown }[]>(
      'SELECT credentials FROM imports WHERE account_id = $1',
      [account.id],
    );
    expect(held.credentials).toBeNull();

    const again = await runImport(account);
    expect(again).toMatchObject({
      status: 'done',
      progress: { links_done: 3, links_created: 0, links_skipped: 3, clicks_imported: 0 },
    });
    const after = (await api.call(account, 'get', `/api/v1/links/${String(sale.id)}`).expect(200)).body as {
      data: { clicks: number };
    };
    expect(after.data.clicks).toBe(4);
  }, 120_000);

  it('a dry run reports what would happen and writes nothing', async () => {
    const account = await createAccount(target);
    const done = await runImport(account, { dry_run: 1 });
    // The first test's workspace holds the source's custom domain now: this one may not put links on it.
    expect(done).toMatchObject({
      status: 'done',
      dry_run: 1,
      // The default domain is shared by every workspace: the first test's import holds those aliases there now.
      progress: { links_done: 3, links_created: 0, links_skipped: 2, links_failed: 1, clicks_imported: 0 },
    });
    expect(done.errors).toContainEqual({
      item: 'brand',
      message: expect.stringContaining('belongs to another workspace') as unknown,
    });
    const links = (await api.call(account, 'get', '/api/v1/links').expect(200)).body as { data: unknown[] };
    expect(links.data).toEqual([]);
  }, 60_000);

  it('an alias taken on the shared default domain takes the first free suffix', async () => {
    const account = await createAccount(target);
    const suffixed = await runImport(account, { on_conflict: 'suffix' });
    expect(suffixed).toMatchObject({ status: 'done', progress: { links_created: 2, links_failed: 1 } });
    const aliases = (
      (await api.call(account, 'get', '/api/v1/links?per_page=100').expect(200)).body as {
        data: { alias: string }[];
      }
    ).data
      .map((link) => link.alias)
      .sort();
    expect(aliases).toEqual(['sale-2', 'secret-2']);
    const skipped = await runImport(await createAccount(target));
    expect(skipped).toMatchObject({ status: 'done', progress: { links_created: 0, links_skipped: 2 } });
  }, 60_000);

  it('runs from the command line, with its progress on stderr and the import as the last line', async () => {
    const account = await createAccount(target);
    const env = childEnv({ IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true', LOG_LEVEL: 'warn' });
    const args = ['import:phpshort', '--account', String(account.id), '--url', source.url];
    const ran = await runCli([...args, '--api-key', sourceKey, '--on-conflict', 'suffix'], { env });
    expect(ran.code).toBe(0);
    expect(JSON.parse(lastLine(ran.stdout))).toMatchObject({
      source: 'phpshort',
      status: 'done',
      progress: { links_done: 3, links_failed: 1 },
    });
    expect(ran.stderr).toMatch(/^done 100% 3\/3 links: /m);
    expect(ran.stdout + ran.stderr).not.toContain(sourceKey);

    const missing = await runCli(args, { env });
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('--api-key: The api key field is required.');
    const refused = await runCli([...args, '--api-key', 'wrong-key'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The import failed: the source refused the credentials (401)');
  }, 90_000);

  it('a source that cannot be read fails with the reason, and bad options are named', async () => {
    const account = await createAccount(target);
    const refused = await runImport(account, { api_key: 'wrong' });
    expect(refused).toMatchObject({
      status: 'failed',
      errors: [{ item: 'source', message: expect.stringContaining('401') as unknown }],
    });
    await api.json(account, 'post', '/api/v1/imports', { source: 'phpshort', url: source.url }).expect(422, {
      message: { api_key: ['The api key field is required.'] },
      status: 422,
    });
    await api.json(account, 'post', '/api/v1/imports', { source: 'nope' }).expect(422);
    await api.call(account, 'get', '/api/v1/imports/2147483647').expect(404);
  }, 60_000);
});
