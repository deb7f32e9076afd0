import type { Browser, Page } from 'playwright-core';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  accessibilityProblems,
  describeInChromium,
  expectDashboardBuilt,
  launchChromium,
  serveOnLoopback,
} from './support/browser';
import { clickFixtures } from './support/clicks';
import { createLink, type LinkData } from './support/visitors';

/*
 * The workspace's analytics in a real browser against the service: the clicks of every link, narrowed to a space,
 * the countries on a map and in a table, two links compared; axe-core in light and dark, and no sideways scroll at
 * 320 px.
 */
describeInChromium('dashboard analytics tests')(
  'workspace analytics in the dashboard, in a real browser',
  () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let owner: TestAccount;
    let inSpace: LinkData;
    let elsewhere: LinkData;
    const { insertClicks } = clickFixtures(() => t);

    beforeAll(async () => {
      expectDashboardBuilt();
      t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_MINUTE: '0' });
      base = await serveOnLoopback(t);
      browser = await launchChromium();
      owner = await createAccount(t, 'Analytics in the browser');
      const space = await t
        .http()
        .post('/api/v1/spaces')
        .set('Authorization', owner.auth)
        .type('form')
        .send({ name: 'Spring' });
      expect(space.status).toBe(201);
      inSpace = await createLink(t, owner, {
        url: 'https://example.com/spring',
        space_id: space.body.data.id,
      });
      elsewhere = await createLink(t, owner, { url: 'https://example.com/autumn' });
      await insertClicks(inSpace.id, [{ country: 'GB' }, { country: 'GB' }, { country: 'DE' }]);
      await insertClicks(elsewhere.id, [{ country: 'FR' }]);
    });

    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    async function open(options: { width: number; dark: boolean }): Promise<Page> {
      const context = await browser.newContext({
        viewport: { width: options.width, height: 800 },
        colorScheme: options.dark ? 'dark' : 'light',
        locale: 'en-US',
      });
      const page = await context.newPage();
      await page.goto(`${base}/app`);
      await page.getByRole('button', { name: 'Sign in with an API key' }).click();
      await page.getByLabel('API key').fill(owner.apiKey);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
      await page.goto(`${base}/app/analytics`);
      await page.getByRole('heading', { name: 'Workspace analytics', level: 1 }).waitFor();
      return page;
    }

    /** The rows of the map's table: each country and its clicks. */
    async function countries(page: Page): Promise<string[][]> {
      const table = page.getByRole('table', { name: 'World map of visits by country' });
      await table.waitFor();
      // A row's text as the browser lays it out: its cells apart by tabs.
      const rows = await table.locator('tbody tr').allInnerTexts();
      return rows.map((row) => row.split('\t').map((cell) => cell.trim()));
    }

    it('counts every link, narrows to a space, and compares two links', async () => {
      const page = await open({ width: 1280, dark: false });
      await page.getByText('4 clicks in this period').waitFor();
      expect(await countries(page)).toEqual([
        ['United Kingdom', '2'],
        ['France', '1'],
        ['Germany', '1'],
      ]);
      expect(await page.locator('.world-map-svg path title').allTextContents()).toContain(
        'United Kingdom: 2 clicks',
      );

      await page.getByLabel('Space', { exact: true }).selectOption({ label: 'Spring' });
      await page.getByText('3 clicks in this period').waitFor();
      expect(await countries(page)).toEqual([
        ['United Kingdom', '2'],
        ['Germany', '1'],
      ]);

      const choices = page.getByRole('group', { name: 'Choose up to 5' });
      await choices.getByRole('checkbox', { name: inSpace.short_url, exact: true }).check();
      await choices.getByRole('checkbox', { name: elsewhere.short_url, exact: true }).check();
      const chart = page.getByRole('img', {
        name: `Clicks over time of ${inSpace.short_url}, ${elsewhere.short_url}`,
      });
      await chart.waitFor();
      expect(await chart.locator('polyline').count()).toBe(2);
      await page.getByText('Show as a table').last().click();
      const today = new Date().toISOString().slice(0, 10);
      expect(await page.locator('.comparison table tbody tr', { hasText: today }).first().textContent()).toBe(
        `${today}31`,
      );
      await page.context().close();
    });

    it.each([
      { width: 1280, dark: false },
      { width: 320, dark: true },
    ])('passes axe-core at $width px (dark: $dark), with no sideways scroll', async ({ width, dark }) => {
      const page = await open({ width, dark });
      await page.getByText('4 clicks in this period').waitFor();
      await countries(page);
      const choices = page.getByRole('group', { name: 'Choose up to 5' });
      await choices.getByRole('checkbox', { name: inSpace.short_url, exact: true }).check();
      await page.getByRole('img', { name: `Clicks over time of ${inSpace.short_url}` }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
      await page.context().close();
    });
  },
);
