import { METRICS_TOKEN, SCRAPED, scrape } from './support/metrics';
import { ClickWriter } from '../src/clicks/click-writer';
import { MetricsServer } from '../src/metrics/metrics-server';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { createLink, UA, unique } from './support/visitors';

const NOT_FOUND = { message: 'Resource not found.', status: 404 };

/** A request to the metrics port of `t`, started as `main.ts` starts it (METRICS_PORT: 0 in tests, a free one). */
async function onMetricsPort(
  t: TestApp,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string | null; text: string }> {
  const server = t.app.get(MetricsServer);
  await server.start();
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, init);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

type Labels = Record<string, string>;

/** The value of the series `name` whose labels include `labels` (0 when there is none), from Prometheus text. */
function sample(text: string, name: string, labels: Labels = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const own: Labels = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) own[pair[1]] = pair[2];
    if (Object.entries(labels).every(([key, value]) => own[key] === value)) return Number(match[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(SCRAPED);
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['no token', undefined],
    ['a wrong token', 'Bearer metrics-token-for-tests-0123456780'],
    ['the token under another scheme', `Basic ${METRICS_TOKEN}`],
  ])('answers 401 in the envelope with %s when METRICS_TOKEN is set', async (_case, header) => {
    const request = t.http().get('/metrics');
    if (header !== undefined) request.set('Authorization', header);
    const response = await request;
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: 'Unauthenticated.', status: 401 });
    expect(response.text).not.toContain('http_requests_total');
  });

  it('counts requests by route pattern and status, visits by outcome and clicks written, by the right amounts', async () => {
    const plain = await createLink(t, account, { url: 'https://example.com/plain' });
    const limited = await createLink(t, account, { url: 'https://example.com/limited', clicks_limit: '1' });
    const locked = await createLink(t, account, {
      url: 'https://example.com/locked',
      redirect_password: 'pw',
    });
    const sensitive = await createLink(t, account, {
      url: 'https://example.com/nsfw',
      sensitive_content: '1',
    });
    await t.app.get(ClickWriter).settle();
    const before = await scrape(t);

    const api = (path: string) => t.http().get(path).set('Authorization', account.auth);
    for (let i = 0; i < 3; i += 1) expect((await api('/api/v1/links')).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await api('/api/v1/links/999999999')).status).toBe(404);
    expect((await t.http().get('/api/v1/links')).status).toBe(401);

    const visit = (alias: string, agent: string = UA.macSafari) =>
      t.http().get(`/${alias}`).set('User-Agent', agent);
    for (let i = 0; i < 4; i += 1) expect((await visit(plain.alias)).status).toBe(302);
    for (let i = 0; i < 2; i += 1) expect((await visit(plain.alias, UA.googlebot)).status).toBe(302);
    expect((await visit(limited.alias)).status).toBe(302);
    expect((await visit(limited.alias)).status).toBe(410);
    expect((await visit(unique('missing'))).status).toBe(404);
    expect((await visit(locked.alias)).status).toBe(200);
    expect((await visit(sensitive.alias)).status).toBe(200);
    await t.app.get(ClickWriter).settle();

    const after = await scrape(t);
    const delta = (name: string, labels: Labels = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect({
      list: delta('http_requests_total', { method: 'GET', route: '/api/v1/links', status: '200' }),
      missing: delta('http_requests_total', { method: 'GET', route: '/api/v1/links/:id', status: '404' }),
      unauthenticated: delta('http_requests_total', { method: 'GET', route: '/api/v1/links', status: '401' }),
      listTimed: delta('http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/links',
        status: '200',
      }),
      redirectedRequests: delta('http_requests_total', { method: 'GET', route: '/:alias', status: '302' }),
      redirected: delta('shortlink_redirects_total', { outcome: 'redirected' }),
      bot: delta('shortlink_redirects_total', { outcome: 'bot' }),
      expired: delta('shortlink_redirects_total', { outcome: 'expired' }),
      notFound: delta('shortlink_redirects_total', { outcome: 'not_found' }),
      password: delta('shortlink_redirects_total', { outcome: 'password' }),
      consent: delta('shortlink_redirects_total', { outcome: 'consent' }),
      clicks: delta('shortlink_clicks_written_total'),
    }).toEqual({
      list: 3,
      missing: 2,
      unauthenticated: 1,
      listTimed: 3,
      // Four counted, two bots and the limited link's one click, all answered with 302.
      redirectedRequests: 7,
      redirected: 5,
      bot: 2,
      expired: 1,
      notFound: 1,
      password: 1,
      consent: 1,
      clicks: 5,
    });
    expect(delta('db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(sample(after, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(after).toMatch(/^db_pool_waiting_requests \d+$/m);
    expect(after).toMatch(/^process_cpu_seconds_total \d/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('never labels a series with a path a client made up', async () => {
    await t
      .http()
      .get(`/api/v1/${unique('made-up')}`)
      .set('Authorization', account.auth);
    await t.http().get(`/${unique('nothing')}/deeper/path`);
    const text = await scrape(t);
    expect(text).not.toMatch(/made-up|nothing/);
  });
});

describe('GET /metrics with METRICS_TOKEN, on the metrics port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(SCRAPED);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { Authorization: 'Bearer metrics-token-for-tests-0123456780' }],
  ])('answers 401 with %s', async (_case, headers) => {
    const response = await onMetricsPort(t, '/metrics', { headers });
    expect(response.status).toBe(401);
    expect(response.text).not.toContain('http_requests_total');
  });

  it('serves the metrics with the token', async () => {
    const response = await onMetricsPort(t, '/metrics', {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/^# HELP http_requests_total /m);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: '' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is not served on the public port', async () => {
    const response = await t.http().get('/metrics');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
    expect(response.text).not.toContain('http_requests_total');
  });

  it('is served on the metrics port, without a key', async () => {
    const response = await onMetricsPort(t, '/metrics');
    expect(response.status).toBe(200);
    expect(response.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toMatch(/^# HELP http_requests_total /m);
    expect(response.text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('serves nothing else on the metrics port', async () => {
    for (const path of ['/', '/api/v1/links', '/health', '/metrics/more', '/docs']) {
      const response = await onMetricsPort(t, path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    const posted = await onMetricsPort(t, '/metrics', { method: 'POST', body: 'x' });
    expect(posted.status).toBe(405);
  });
});
