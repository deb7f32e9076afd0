import { randomBytes } from 'node:crypto';
import {
  childEnv,
  killAllChildren,
  removeDir,
  startServer,
  tempDir,
  type ServerProcess,
} from './support/process';
import { sleep } from './support/sleep';

/** An embedded database's first start makes its cluster: slow on a loaded machine. */
const EMBEDDED_START_MS = 120_000;
import { UA } from './support/visitors';

/**
 * An import survives `kill -9` of the instance running it: the next start takes it over once its lease lapses
 * and goes on from the last page written, so that every link and click of the source arrives once, none twice.
 */
describe('an import killed mid-way', () => {
  const LINKS = 1200;
  const sourceKey = `lsk_${randomBytes(32).toString('base64url')}`;
  let source: ServerProcess;
  let dataDir: string;
  let targetDir: string | undefined;

  async function request(
    server: ServerProcess,
    key: string,
    method: string,
    path: string,
    body?: object,
  ): Promise<Record<string, unknown>> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(`${method} ${path} ${response.status}`).toMatch(/ 20\d$/);
    return (await response.json()) as Record<string, unknown>;
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
    for (let first = 0; first < LINKS; first += 600) {
      const links = Array.from({ length: 600 }, (_, index) => ({
        url: `https://example.com/${first + index}`,
        alias: `r${first + index}`,
      }));
      await request(source, sourceKey, 'POST', '/api/v1/links/bulk', { links });
    }
    // Clicks on links of the first and the last pages: some written before the kill, some after.
    for (const alias of ['r1', 'r2', 'r1150', 'r1199']) {
      for (let visit = 0; visit < 3; visit += 1) {
        const response = await fetch(`${source.url}/${alias}`, {
          redirect: 'manual',
          headers: { 'user-agent': UA.androidChrome },
        });
        expect(response.status).toBe(302);
      }
    }
  }, 120_000);

  afterAll(async () => {
    await source?.stop();
    await killAllChildren();
    removeDir(dataDir);
    removeDir(targetDir);
  });

  it('goes on after a restart from its last page, with nothing twice and nothing missing', async () => {
    // A database of its own (embedded, in a directory of its own): the run's database is every test's, and an
    // instance that runs imports would take theirs too.
    targetDir = tempDir();
    const apiKey = `lsk_${randomBytes(32).toString('base64url')}`;
    const env = childEnv(
      {
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
        DATA_DIR: targetDir,
        IMPORT_RUNNER: 'true',
        // The first start makes the workspace, with this key.
        INITIAL_API_KEY: apiKey,
        IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true',
        IMPORT_LEASE_MS: '3000',
        // Slow enough that the kill lands mid-way: about a page a second.
        IMPORT_REQUESTS_PER_SECOND: '3',
      },
      { embedded: true },
    );
    let target = await startServer({ env, readyTimeoutMs: EMBEDDED_START_MS });
    const created = await request(target, apiKey, 'POST', '/api/v1/imports', {
      source: 'phpshort',
      url: source.url,
      api_key: sourceKey,
    });
    const id = (created.data as { id: number }).id;
    const show = async () =>
      (await request(target, apiKey, 'GET', `/api/v1/imports/${id}`)).data as {
        status: string;
        progress: Record<string, number>;
      };
    let before = await show();
    while (before.progress.links_done < 300) {
      expect(before.status).toMatch(/queued|running/);
      await sleep(200);
      before = await show();
    }
    await target.kill();
    expect(before.progress.links_done).toBeLessThan(LINKS);

    target = await startServer({ env, readyTimeoutMs: EMBEDDED_START_MS });
    let after = await show();
    for (let tries = 0; tries < 600 && ['queued', 'running'].includes(after.status); tries += 1) {
      await sleep(200);
      after = await show();
    }
    expect(after).toMatchObject({
      status: 'done',
      progress: {
        links_total: LINKS,
        links_done: LINKS,
        links_created: LINKS,
        links_failed: 0,
        clicks_imported: 12,
      },
    });

    const aliases = new Set<string>();
    let clicks = 0;
    for (let page = 1; page <= LINKS / 100; page += 1) {
      const list = await request(target, apiKey, 'GET', `/api/v1/links?per_page=100&page=${page}`);
      for (const link of list.data as { alias: string; clicks: number }[]) {
        aliases.add(link.alias);
        clicks += link.clicks;
      }
      expect((list.meta as { total: number }).total).toBe(LINKS);
    }
    expect(aliases.size).toBe(LINKS);
    expect(clicks).toBe(12);
    await target.stop();
  }, 180_000);
});
