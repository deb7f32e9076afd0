import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DASHBOARD_DIST } from '../src/dashboard/dashboard-ui';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  accessibilityProblems,
  CHROMIUM,
  haveChromium,
  launchChromium,
  networkSettled,
  serveOnLoopback,
} from './support/browser';
import { closeServer, listenOnLoopback } from './support/http-server';

/** How often the screen reads the list while an import goes on (dashboard/src/features/imports/ImportsPage.tsx). */
const POLL_MS = 1500;

interface ImportAnswer {
  id: number;
  status: string;
  errors: { item: string; message: string }[];
}

if (!haveChromium) {
  process.stderr.write(
    `dashboard import tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`,
  );
}

/*
 * The Import screen in a real browser, against the service: an import whose source cannot be reached ends failed and
 * says why; one sent without a field its source needs shows the API's message beside that field; and one waiting
 * behind a running import (whose source never answers) is cancelled, the list followed live until none goes on.
 */
(haveChromium ? describe : describe.skip)('imports in the dashboard, in a real browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  /** A source that takes every request and never answers it: an import reading it stays running. */
  let silent: Server;
  let silentUrl: string;

  beforeAll(async () => {
    if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) {
      throw new Error('dashboard/dist is missing: the test setup builds it (npm run build)');
    }
    t = await createTestApp({
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_PER_MINUTE: '0',
      // The sources of these imports are on this machine; the silent one is waited for as long as the test lasts.
      IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true',
      IMPORT_TIMEOUT_MS: '600000',
    });
    base = await serveOnLoopback(t);
    silent = createServer(() => undefined);
    silentUrl = `http://127.0.0.1:${await listenOnLoopback(silent)}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (silent) await closeServer(silent);
    await t?.close();
  });

  async function browse(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    return { context, page: await context.newPage() };
  }

  /** Signs in with the account's key and opens the Import screen from the navigation. */
  async function openImports(page: Page, account: TestAccount): Promise<void> {
    await page.goto(`${base}/app`);
    await page.getByRole('button', { name: 'Sign in with an API key' }).click();
    await page.getByLabel('API key').fill(account.apiKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Import', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
  }

  /** Starts an import from the form: the source, then each of its fields by label. */
  async function startImport(page: Page, source: string, fields: Record<string, string>): Promise<Locator> {
    await page.getByRole('button', { name: 'New import' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New import' });
    await dialog.getByLabel('Source', { exact: true }).selectOption(source);
    for (const [label, value] of Object.entries(fields))
      await dialog.getByLabel(label, { exact: true }).fill(value);
    await dialog.getByRole('button', { name: 'Start the import' }).click();
    return dialog;
  }

  /** The account's imports as the API answers them, newest first. */
  async function imports(account: TestAccount): Promise<ImportAnswer[]> {
    const response = await t.http().get('/api/v1/imports').set('Authorization', account.auth);
    expect(response.status).toBe(200);
    return response.body.data as ImportAnswer[];
  }

  /** A row of the list, by the import's name (its source and number). */
  function row(page: Page, name: string): Locator {
    return page.getByRole('table', { name: 'Import' }).getByRole('row', { name: new RegExp(`^${name} `) });
  }

  it('starts an import whose source cannot be reached: it ends failed, and its reason is shown', async () => {
    const account = await createAccount(t, 'Import that fails');
    const { context, page } = await browse();
    await openImports(page, account);
    await page.getByText('No imports yet.').waitFor();

    const dialog = await startImport(page, 'yourls', { 'Database URL': 'mysql://127.0.0.1:9/none' });
    await dialog.waitFor({ state: 'detached' });
    const [started] = await imports(account);
    const name = `YOURLS #${started.id}`;
    await page.getByText(`Import started: ${name}`).waitFor();

    // Followed live: the row turns failed without a reload.
    const failed = row(page, name);
    await failed.getByText('Failed', { exact: true }).waitFor();
    const [ended] = await imports(account);
    expect(ended.status).toBe('failed');
    // Refused, or not there: the reason depends on which instance ran it, and is the API's own words.
    expect(ended.errors).toEqual([{ item: 'source', message: expect.stringMatching(/database/) }]);
    expect(await failed.getByRole('button', { name: /Cancel import/ }).count()).toBe(0);
    await failed.getByText('1 problem').click();
    await failed.getByText(ended.errors[0].message).waitFor();
    expect(
      await failed.getByRole('progressbar', { name: `Progress of ${name}` }).getAttribute('aria-valuetext'),
    ).toBe('0 of 0 links');
    expect(await accessibilityProblems(page)).toEqual([]);
    // At 320 px, the row's cells stack under their labels: nothing wider than the screen.
    await page.setViewportSize({ width: 320, height: 800 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A phpShort source without its API key: the API's message, beside the field it names.
    const refused = await startImport(page, 'phpshort', { 'Source URL': silentUrl });
    const apiKey = refused.getByLabel('API key');
    await refused.getByText('The api key field is required.').waitFor();
    expect(await apiKey.getAttribute('aria-invalid')).toBe('true');
    const describedBy = ((await apiKey.getAttribute('aria-describedby')) ?? '').split(' ');
    const descriptions = await Promise.all(
      describedBy.map((id) => refused.locator(`[id="${id}"]`).textContent()),
    );
    expect(descriptions.join(' ')).toContain('The api key field is required.');
    expect(await apiKey.getAttribute('type')).toBe('password');
    expect(await apiKey.getAttribute('autocomplete')).toBe('off');
    expect(await accessibilityProblems(page)).toEqual([]);
    await refused.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await imports(account)).toHaveLength(1);
    await context.close();
  });

  it('cancels an import that waits behind a running one, and stops reading the list once none goes on', async () => {
    const account = await createAccount(t, 'Import cancelled');
    const { context, page } = await browse();
    await openImports(page, account);
    const source = { 'Source URL': silentUrl, 'API key': 'the-source-key' };
    await (await startImport(page, 'phpshort', source)).waitFor({ state: 'detached' });
    const [running] = await imports(account);
    // A workspace runs one import at a time: the next one waits.
    await (await startImport(page, 'shlink', source)).waitFor({ state: 'detached' });
    const [queued] = await imports(account);
    const runningRow = row(page, `phpShort #${running.id}`);
    const queuedRow = row(page, `Shlink #${queued.id}`);
    await runningRow.getByText('Running', { exact: true }).waitFor();
    await queuedRow.getByText('Queued', { exact: true }).waitFor();
    // The source has not said how many links it holds: the bar has no value yet.
    const bar = runningRow.getByRole('progressbar', { name: `Progress of phpShort #${running.id}` });
    expect(await bar.getAttribute('aria-valuenow')).toBeNull();
    expect(await bar.getAttribute('aria-valuetext')).toBe('0 links read');

    // The list is read again while they go on.
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/imports') reads.push(request.method());
    });
    await page.waitForRequest((request) => new URL(request.url()).pathname === '/api/v1/imports');

    await queuedRow.getByRole('button', { name: `Cancel import Shlink #${queued.id}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this import?' });
    expect(await confirm.textContent()).toContain(`Shlink #${queued.id} stops`);
    await confirm.getByRole('button', { name: 'Cancel import' }).click();
    await page.getByText(`Import cancelled: Shlink #${queued.id}`).waitFor();
    await queuedRow.getByText('Cancelled', { exact: true }).waitFor();
    expect(await queuedRow.getByRole('button', { name: /Cancel import/ }).count()).toBe(0);
    expect((await imports(account)).map(({ id, status }) => ({ id, status }))).toEqual([
      { id: queued.id, status: 'cancelled' },
      { id: running.id, status: 'running' },
    ]);

    // The running one too; then nothing on screen goes on, and the list is no longer read.
    await runningRow.getByRole('button', { name: `Cancel import phpShort #${running.id}` }).click();
    await confirm.getByRole('button', { name: 'Cancel import' }).click();
    await runningRow.getByText('Cancelled', { exact: true }).waitFor();
    expect((await imports(account)).map(({ status }) => status)).toEqual(['cancelled', 'cancelled']);
    await networkSettled(page);
    const settled = reads.length;
    await page.waitForTimeout(2 * POLL_MS + 500);
    expect(reads.length).toBe(settled);
    expect(await accessibilityProblems(page)).toEqual([]);
    await context.close();
  });
});
