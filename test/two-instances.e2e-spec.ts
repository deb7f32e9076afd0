import { Agent, request as httpRequest } from 'node:http';
import {
  childEnv,
  cliAccount,
  killAllChildren,
  lastLine,
  recordedClicks,
  runCli,
  startServer,
  type ServerProcess,
} from './support/process';
import { sleep } from './support/sleep';
import { UA, unique } from './support/visitors';

/**
 * Two service processes on one database, visits spread across both, with the caching and click buffering the
 * redirect path has in production: limits exact, rotations in exact order, clicks recorded equal redirects answered,
 * a change on one instance obeyed by the other within 1 s, a revoked key refused by both at once.
 */

interface Visit {
  status: number;
  location?: string;
}

describe('two instances on one database', () => {
  const env = childEnv({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', INITIAL_API_KEY: undefined });
  let first: ServerProcess;
  let second: ServerProcess;
  let apiKey: string;
  let accountId: number;
  const agents = new Map<ServerProcess, Agent>();

  beforeAll(async () => {
    ({ apiKey, id: accountId } = await cliAccount('Two instances', env));
    [first, second] = await Promise.all([startServer({ env }), startServer({ env })]);
    for (const server of [first, second]) agents.set(server, new Agent({ keepAlive: true, maxSockets: 16 }));
  });
  afterAll(async () => {
    for (const agent of agents.values()) agent.destroy();
    await Promise.all([first?.stop(), second?.stop()]);
    await killAllChildren();
  });

  function visit(server: ServerProcess, alias: string, userAgent: string = UA.macSafari): Promise<Visit> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          path: `/${alias}`,
          agent: agents.get(server),
          headers: { 'User-Agent': userAgent },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
          );
        },
      );
      request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
      request.on('error', reject);
      request.end();
    });
  }

  /** `count` visits to `alias`, alternating between the instances, all at once. */
  function spread(alias: string, count: number): Promise<Visit[]> {
    return Promise.all(
      Array.from({ length: count }, (_, index) => visit(index % 2 === 0 ? first : second, alias)),
    );
  }

  async function api(
    server: ServerProcess,
    method: string,
    path: string,
    body?: Record<string, unknown>,
    key = apiKey,
  ): Promise<{ status: number; body: { data?: Record<string, unknown> } & Record<string, unknown> }> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
  }

  async function createLink(
    server: ServerProcess,
    fields: Record<string, unknown>,
  ): Promise<{ id: number; alias: string }> {
    const created = await api(server, 'POST', '/api/v1/links', { alias: unique('two'), ...fields });
    expect(created.status).toBe(201);
    return created.body.data as { id: number; alias: string };
  }

  /** The link's clicks, counter and rows, once both instances have written what they hold (an API read does). */
  async function recorded(linkId: number): Promise<{ counter: number; rows: number }> {
    for (const server of [first, second])
      expect((await api(server, 'GET', `/api/v1/links/${linkId}`)).status).toBe(200);
    return recordedClicks(linkId);
  }

  /** Visits through `server` until the answer is `expected` or `ms` have passed; the last answer. */
  async function eventually(
    server: ServerProcess,
    alias: string,
    expected: string,
    ms = 1_000,
  ): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const answer = await visit(server, alias);
      const seen = `${answer.status} ${answer.location ?? ''}`.trim();
      if (seen === expected || Date.now() > deadline) return seen;
      await sleep(20);
    }
  }

  it('never lets more visits than the clicks limit through, however they are spread', async () => {
    const link = await createLink(first, { url: 'https://example.com/limited', clicks_limit: 50 });
    const answers = await spread(link.alias, 200);
    const statuses = answers.reduce<Record<number, number>>((counts, answer) => {
      counts[answer.status] = (counts[answer.status] ?? 0) + 1;
      return counts;
    }, {});
    expect(statuses).toEqual({ 302: 50, 410: 150 });
    expect(await recorded(link.id)).toEqual({ counter: 50, rows: 50 });
  });

  it('serves a rotation in exact round-robin order across both instances', async () => {
    const targets = ['https://example.com/r1', 'https://example.com/r2', 'https://example.com/r3'];
    const link = await createLink(second, {
      url: 'https://example.com/r0',
      targets_type: 'rotations',
      targets: targets.map((value) => ({ value })),
    });
    const inTurn: string[] = [];
    for (let index = 0; index < 30; index += 1) {
      inTurn.push((await visit(index % 2 === 0 ? first : second, link.alias)).location ?? 'none');
    }
    expect(inTurn).toEqual(Array.from({ length: 30 }, (_, index) => targets[index % 3]));

    // All at once: the turns are handed out in one order, so 90 visits give each target exactly 30.
    const together = await spread(link.alias, 90);
    const perTarget = Object.fromEntries(
      targets.map((target) => [target, together.filter((answer) => answer.location === target).length]),
    );
    expect(perTarget).toEqual(Object.fromEntries(targets.map((target) => [target, 30])));
    expect(await recorded(link.id)).toEqual({ counter: 120, rows: 120 });
  });

  it('records exactly as many clicks as redirects were answered by both', async () => {
    const link = await createLink(first, { url: 'https://example.com/counted' });
    const answers = [...(await spread(link.alias, 300)), ...(await spread(link.alias, 301))];
    // Bots reach the destination on both without being counted.
    const bots = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        visit(index % 2 === 0 ? first : second, link.alias, UA.googlebot),
      ),
    );
    expect(bots.filter((answer) => answer.status === 302)).toHaveLength(20);
    const redirects = answers.filter((answer) => answer.status === 302).length;
    expect(redirects).toBe(601);
    expect(await recorded(link.id)).toEqual({ counter: redirects, rows: redirects });
  });

  it('obeys an update, a disable and a delete made on the other instance within 1 s', async () => {
    const link = await createLink(first, { url: 'https://example.com/before' });
    for (const server of [first, second]) {
      // Twice each: the second answer comes from the instance's cache.
      expect(await eventually(server, link.alias, '302 https://example.com/before', 0)).toBe(
        '302 https://example.com/before',
      );
      expect(await eventually(server, link.alias, '302 https://example.com/before', 0)).toBe(
        '302 https://example.com/before',
      );
    }
    expect(
      (await api(first, 'PATCH', `/api/v1/links/${link.id}`, { url: 'https://example.com/after' })).status,
    ).toBe(200);
    expect(await eventually(second, link.alias, '302 https://example.com/after')).toBe(
      '302 https://example.com/after',
    );

    expect((await api(second, 'PATCH', `/api/v1/links/${link.id}`, { disabled: 1 })).status).toBe(200);
    expect(await eventually(first, link.alias, '404')).toBe('404');

    expect((await api(first, 'PATCH', `/api/v1/links/${link.id}`, { disabled: 0 })).status).toBe(200);
    expect(await eventually(second, link.alias, '302 https://example.com/after')).toBe(
      '302 https://example.com/after',
    );
    expect(await eventually(first, link.alias, '302 https://example.com/after')).toBe(
      '302 https://example.com/after',
    );

    expect((await api(second, 'DELETE', `/api/v1/links/${link.id}`)).status).toBe(200);
    expect(await eventually(first, link.alias, '404')).toBe('404');
    expect(await eventually(second, link.alias, '404', 0)).toBe('404');
  });

  it('refuses a revoked key on both instances from the next request on', async () => {
    const issued = await runCli(['key:create', '--account', String(accountId)], { env });
    expect(issued.code).toBe(0);
    const { api_key: key } = JSON.parse(lastLine(issued.stdout)) as { api_key: string };
    for (const server of [first, second])
      expect((await api(server, 'GET', '/api/v1/account', undefined, key)).status).toBe(200);

    const revoked = await runCli(['key:revoke', '--key', key], { env });
    expect(revoked.code).toBe(0);
    const answers = await Promise.all(
      [first, second].map((server) => api(server, 'GET', '/api/v1/account', undefined, key)),
    );
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [401, { message: 'Unauthenticated.', status: 401 }],
      [401, { message: 'Unauthenticated.', status: 401 }],
    ]);
    // The account's other key still works on both.
    for (const server of [first, second])
      expect((await api(server, 'GET', '/api/v1/account')).status).toBe(200);
  });
});
