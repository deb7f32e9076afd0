import fc from 'fast-check';
import { Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountsService } from '../src/auth/accounts.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  describeRequest,
  fuzzRequest,
  send,
  violations,
  type FuzzRequest,
  type FuzzTargets,
} from './support/fuzz';
import { nestRoutes, type NestRoute } from './support/routes';
import { createLink, unique } from './support/visitors';

/**
 * Generated requests over every route the router has, API and visitor alike. Properties: no 5xx, an answer within
 * 2 s, no stack trace, SQL or internal name in any body, every 4xx in the contract's envelope (a visitor route may
 * answer with its HTML page instead). FUZZ_RUNS sets the number of requests (5,000 by default), FUZZ_SEED replays
 * a run: the seed is printed at the start of every run, and fast-check prints it with the failing request.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 5_000);
const SEED =
  process.env.FUZZ_SEED === undefined
    ? Date.now() ^ (Math.random() * 0x7fffffff)
    : Number(process.env.FUZZ_SEED);
const BUDGET_MS = 2_000;
const HOST = 'localhost:3000';

function say(line: string): void {
  process.stderr.write(`[fuzz] ${line}\n`);
}

describe('generated requests', () => {
  let t: TestApp;
  let port: number;
  let routes: NestRoute[];
  let targets: FuzzTargets;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    // The limits are tested elsewhere: here they would only turn every request after the first hundred into 429.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'loopback' });
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as Server).address() as AddressInfo).port;
    routes = nestRoutes(t.app);
    targets = await makeTargets(t);
  });
  afterAll(async () => {
    agent.destroy();
    await t?.close();
  });

  it(
    `answers ${RUNS} generated requests over every route without a 5xx, a hang, a leak or a bare 4xx`,
    async () => {
      say(`${RUNS} requests, seed ${SEED} (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} replays this run)`);
      const statuses = new Map<string, number>();
      const perRoute = new Map<string, number>();
      let slowest = 0;
      let sent = 0;
      const started = Date.now();
      const progress = () => {
        const memory = process.memoryUsage();
        const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
        return `${sent} sent, ${((Date.now() - started) / 1000).toFixed(0)} s, slowest ${Math.round(slowest)} ms, test process RSS ${mb(memory.rss)} MB, heap ${mb(memory.heapUsed)} MB`;
      };

      const property = fc.asyncProperty(
        fc.constantFrom(...routes).chain((route) => fuzzRequest(route, targets)),
        async (request: FuzzRequest) => {
          const answer = await send({ port }, agent, request, BUDGET_MS + 1_000);
          sent += 1;
          if (sent % Math.max(1_000, Math.floor(RUNS / 10)) === 0) say(progress());
          perRoute.set(request.route, (perRoute.get(request.route) ?? 0) + 1);
          if ('error' in answer) throw new Error(`${describeRequest(request)}: ${answer.error}`);
          const group = `${Math.floor(answer.status / 100)}xx`;
          statuses.set(group, (statuses.get(group) ?? 0) + 1);
          slowest = Math.max(slowest, answer.ms);
          const broken = violations(request, answer, BUDGET_MS);
          if (broken.length > 0) {
            throw new Error(`${describeRequest(request)} -> ${answer.status}: ${broken.join('; ')}`);
          }
        },
      );
      // FUZZ_PATH, the path of a failure's report, starts the run at the failing request.
      await fc.assert(property, {
        numRuns: RUNS,
        seed: SEED,
        path: process.env.FUZZ_PATH,
        endOnFailure: true,
      });

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const histogram = [...statuses]
        .sort()
        .map(([group, count]) => `${group} ${count}`)
        .join(', ');
      say(
        `${sent} requests in ${seconds} s over ${perRoute.size} routes (${histogram}); slowest ${Math.round(slowest)} ms; seed ${SEED}`,
      );
      if (process.env.FUZZ_PATH !== undefined) return;
      // Every route was reached: a route the generator could not reach would pass unfuzzed.
      expect(routes.filter((route) => !perRoute.has(route.route)).map((route) => route.route)).toEqual([]);
      if (process.env.FUZZ_PATH !== undefined) return;
      expect(sent).toBeGreaterThanOrEqual(RUNS);
    },
    Math.max(600_000, RUNS * 200),
  );
});

/**
 * Resources for the generated requests to name: the fuzzing account's own (which its requests may change or
 * delete), another account's (whose ids must stay out of reach), and visitor-facing links of every kind in a third
 * account that no generated request can authenticate as, so that every visitor rule stays reachable all run long.
 */
async function makeTargets(t: TestApp): Promise<FuzzTargets> {
  const owner = await createAccount(t, 'Fuzzer');
  const other = await createAccount(t, 'Neighbour');
  const visitors = await createAccount(t, 'Visited');
  const revoked = await createAccount(t, 'Revoked');
  await t.app.get(AccountsService).revokeKey(revoked.apiKey);

  const post = async (account: TestAccount, path: string, fields: Record<string, unknown>) => {
    const response = await t.http().post(path).set('Authorization', account.auth).type('json').send(fields);
    expect(response.status).toBe(201);
    return (response.body as { data: { id: number } }).data.id;
  };
  const owned = async (account: TestAccount) => {
    const ids: Record<string, number[]> = { spaces: [], pixels: [], domains: [], links: [], stats: [] };
    for (let index = 0; index < 4; index += 1) {
      ids.spaces.push(await post(account, '/api/v1/spaces', { name: unique('space') }));
      ids.pixels.push(
        await post(account, '/api/v1/pixels', {
          name: unique('pixel'),
          type: 'google-tag-manager',
          value: 'GTM-ABC1234',
        }),
      );
      ids.domains.push(await post(account, '/api/v1/domains', { name: `${unique('fuzz')}.example` }));
      const link = await createLink(t, account, {
        url: 'https://example.com/owned',
        space_id: ids.spaces[index],
        pixel_ids: [ids.pixels[index]],
      });
      ids.links.push(link.id);
      ids.stats.push(link.id);
    }
    return ids;
  };
  const mine = await owned(owner);
  const theirs = await owned(other);
  const ids = Object.fromEntries(
    Object.entries(mine).map(([kind, list]) => [kind, [...list, ...theirs[kind]]]),
  );

  const domain = `${unique('visit')}.example`;
  await post(visitors, '/api/v1/domains', {
    name: domain,
    index_page: 'https://example.com/index',
    not_found_page: 'https://example.com/lost',
  });
  const pixel = await post(visitors, '/api/v1/pixels', {
    name: 'Tag',
    type: 'facebook',
    value: '123456789012345',
  });
  const url = 'https://example.com/landing?from=short';
  const links: Record<string, unknown>[] = [
    {},
    { redirect_password: 'open sesame' },
    { sensitive_content: 1 },
    { redirect_password: 'open sesame', sensitive_content: 1 },
    { pixel_ids: [pixel] },
    {
      targets_type: 'rotations',
      targets: [{ value: 'https://example.com/a' }, { value: 'https://example.com/b' }],
    },
    { targets_type: 'countries', targets: [{ key: 'US', value: 'https://example.com/us' }] },
    { targets_type: 'languages', targets: [{ key: 'de', value: 'https://example.com/de' }] },
    { clicks_limit: 3 },
    { clicks_limit: 3, expiration_url: 'https://example.com/expired' },
    { active_period_start_at: '2020-01-01 00:00', active_period_end_at: '2020-01-02 00:00' },
    { disabled: 1 },
    { privacy: 1 },
    { privacy: 2, password: 'stats secret' },
  ];
  const aliases: string[] = [];
  for (const fields of links) aliases.push((await createLink(t, visitors, { url, ...fields })).alias);

  return {
    ids,
    aliases,
    authorizations: [owner.auth, owner.auth, owner.auth, other.auth, revoked.auth],
    hosts: [HOST, HOST, domain, 'unknown.example', '127.0.0.1'],
  };
}
