import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DASHBOARD_DIST } from '../../src/dashboard/dashboard-ui';
import type { TestApp } from './app';

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
