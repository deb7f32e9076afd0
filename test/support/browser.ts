import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DASHBOARD_DIST } from '../../src/dashboard/dashboard-ui';
import { createTestApp, type TestApp } from './app';

/** The browser of the dashboard's tests; where there is none, they are skipped (`apt-get install chromium`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

/** Chromium without a screen, as the dashboard's tests run it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}

/** Starts the app's HTTP server on a free loopback port, for a browser to open: its base URL. */
export async function serveOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
}

/** What a dashboard spec runs against: the service on a loopback port, and Chromium. */
export interface DashboardSuite {
  t: TestApp;
  base: string;
  browser: Browser;
}

/**
 * The service (built dashboard, proxy trusted on loopback, no rate limit) and Chromium, started before the spec's
 * tests and its own `beforeAll`, and stopped after them.
 */
export function dashboardSuite(): Readonly<DashboardSuite> {
  const suite = {} as DashboardSuite;
  beforeAll(async () => {
    expectDashboardBuilt();
    suite.t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_MINUTE: '0' });
    suite.base = await serveOnLoopback(suite.t);
    suite.browser = await launchChromium();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.t?.close();
  });
  return suite;
}

/** Signs in to the dashboard at `base` with an API key, as its sign-in screen offers: the links are then shown. */
export async function signInWithKey(page: Page, base: string, apiKey: string): Promise<void> {
  await page.goto(`${base}/app`);
  await page.getByRole('button', { name: 'Sign in with an API key' }).click();
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
}

/** The dashboard's event stream: one request, held open as long as the tab is. */
const EVENT_STREAM = '/api/v1/events/stream';

/**
 * Waits until none of the page's requests but its event stream has been in flight for half a second. Playwright's
 * `networkidle` leaves out a stream that an EventSource reads, not one read with `fetch` as the dashboard's is.
 */
export async function networkSettled(page: Page): Promise<void> {
  const others = async () =>
    (await page.requests()).filter((request) => new URL(request.url()).pathname !== EVENT_STREAM);
  for (let seen = await others(); ;) {
    // A body is there once all of it came (an error once its page is gone): asking for it waits for the end.
    await Promise.all(seen.map(async (request) => (await request.response())?.body().catch(() => null)));
    await page.waitForTimeout(500);
    const now = await others();
    if (now.every((request) => seen.includes(request))) return;
    seen = now;
  }
}

/** The rows of the world map's table, each a country and its clicks, once it shows. */
export async function mapCountries(page: Page): Promise<string[][]> {
  const table = page.getByRole('table', { name: 'World map of visits by country' });
  await table.waitFor();
  // A row's text as the browser lays it out: its cells apart by tabs.
  const rows = await table.locator('tbody tr').allInnerTexts();
  return rows.map((row) => row.split('\t').map((cell) => cell.trim()));
}

/** The serious and critical findings of axe-core on the page, each as its rule and where. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate<string>(
    `axe.run(document).then((result) => JSON.stringify(result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id + ': ' + violation.nodes.map((node) => node.target).join(' '))))`,
  );
  return JSON.parse(found) as string[];
}

/**
 * `describe` where Chromium is installed; else `describe.skip`, with a line on stderr that names what is skipped and
 * how to install it.
 */
export function describeInChromium(what: string): jest.Describe {
  if (haveChromium) return describe;
  process.stderr.write(`${what} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
  return describe.skip;
}

/** Fails the set-up where the dashboard was not built: the browser would find nothing to open. */
export function expectDashboardBuilt(): void {
  if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) {
    throw new Error('dashboard/dist is missing: the test setup builds it (npm run build)');
  }
}
