import { childEnv, cliAccount, killAllChildren, startServer, type ServerProcess } from './support/process';
import { deleteKeys, describeWithRedis } from './support/redis';
import { UA, unique } from './support/visitors';

const API_LIMIT = 10;
const VISITOR_LIMIT = 20;
const PASSWORD_ATTEMPTS = 5;

/**
 * Two service processes on one database and one Redis, requests spread across both at once: a key, a visitor's
 * address and a visitor's password guesses get exactly the limit of one instance, and not one request more. Without
 * Redis each instance would allow the limit on its own, twice as much, and every count here would fail.
 */
describeWithRedis('two instances sharing their limits in Redis', () => {
  const env = childEnv({
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: String(API_LIMIT),
    VISITOR_RATE_LIMIT_PER_MINUTE: String(VISITOR_LIMIT),
    // The test is the proxy in front: each test is a visitor of its own address.
    TRUST_PROXY: 'loopback',
    INITIAL_API_KEY: undefined,
    // What is tested is the sharing: a busy test machine must not make Redis seem down and the limits fall back
    // to each instance's memory (that case is shared-limits.e2e-spec's).
    REDIS_TIMEOUT_MS: '5000',
  });
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    [first, second] = await Promise.all([startServer({ env }), startServer({ env })]);
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await killAllChildren();
    await deleteKeys(env.REDIS_KEY_PREFIX!);
  });

  /** The instance of the `index`-th request: each in turn. */
  const either = (index: number) => (index % 2 === 0 ? first : second);

  function tally(statuses: number[]): Record<number, number> {
    return statuses.reduce<Record<number, number>>((counts, status) => {
      counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    }, {});
  }

  async function request(server: ServerProcess, path: string, init: RequestInit = {}): Promise<number> {
    const response = await fetch(`${server.url}${path}`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      ...init,
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function createLink(apiKey: string, fields: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${first.url}/api/v1/links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ alias: unique('shared'), url: 'https://example.com/landing', ...fields }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { alias: string } }).data.alias;
  }

  it(`gives a key exactly RATE_LIMIT_PER_MINUTE (${API_LIMIT}) requests across both`, async () => {
    const { apiKey } = await cliAccount('Shared API limit', env);
    const get = (server: ServerProcess) =>
      request(server, '/api/v1/account', { headers: { Authorization: `Bearer ${apiKey}` } });
    const together = await Promise.all(
      Array.from({ length: 3 * API_LIMIT }, (_, index) => get(either(index))),
    );
    expect(tally(together)).toEqual({ 200: API_LIMIT, 429: 2 * API_LIMIT });
    expect([await get(first), await get(second)]).toEqual([429, 429]);
  });

  it(`gives a visitor exactly ${PASSWORD_ATTEMPTS} password attempts across both; the next is a 429 on either`, async () => {
    const { apiKey } = await cliAccount('Shared password attempts', env);
    const alias = await createLink(apiKey, { redirect_password: 'open sesame' });
    const guess = (server: ServerProcess, address: string) =>
      request(server, `/${alias}/password`, {
        method: 'POST',
        headers: { 'User-Agent': UA.macSafari, 'X-Forwarded-For': address },
        body: new URLSearchParams({ password: 'wrong' }),
      });

    // One after another, each instance in turn.
    const inTurn: number[] = [];
    for (let attempt = 0; attempt < PASSWORD_ATTEMPTS + 1; attempt += 1) {
      inTurn.push(await guess(either(attempt), '198.51.100.41'));
    }
    expect(inTurn).toEqual([403, 403, 403, 403, 403, 429]);
    expect(await guess(first, '198.51.100.41')).toBe(429);

    // All at once.
    const together = await Promise.all(
      Array.from({ length: 4 * PASSWORD_ATTEMPTS }, (_, index) => guess(either(index), '198.51.100.42')),
    );
    expect(tally(together)).toEqual({ 403: PASSWORD_ATTEMPTS, 429: 3 * PASSWORD_ATTEMPTS });
  });

  it(`gives a visitor's address exactly VISITOR_RATE_LIMIT_PER_MINUTE (${VISITOR_LIMIT}) visits across both`, async () => {
    const { apiKey } = await cliAccount('Shared visitor limit', env);
    const alias = await createLink(apiKey, {});
    const visit = (server: ServerProcess, address: string) =>
      request(server, `/${alias}`, { headers: { 'User-Agent': UA.macSafari, 'X-Forwarded-For': address } });

    const together = await Promise.all(
      Array.from({ length: 3 * VISITOR_LIMIT }, (_, index) => visit(either(index), '198.51.100.43')),
    );
    expect(tally(together)).toEqual({ 302: VISITOR_LIMIT, 429: 2 * VISITOR_LIMIT });
    expect([await visit(first, '198.51.100.43'), await visit(second, '198.51.100.43')]).toEqual([429, 429]);

    const inTurn: number[] = [];
    for (let index = 0; index < VISITOR_LIMIT + 2; index += 1) {
      inTurn.push(await visit(either(index), '198.51.100.44'));
    }
    expect(inTurn).toEqual([...Array<number>(VISITOR_LIMIT).fill(302), 429, 429]);
  });
});
