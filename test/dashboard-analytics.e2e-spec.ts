import type { Page } from 'playwright-core';
import { createAccount, type TestAccount } from './support/app';
import {
  accessibilityProblems,
  dashboardSuite,
  describeInChromium,
  mapCountries,
  networkSettled,
  signInWithKey,
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
    const suite = dashboardSuite();
    let owner: TestAccount;
    let inSpace: LinkData;
    let elsewhere: LinkData;
    const { insertClicks } = clickFixtures(() => suite.t);

    beforeAll(async () => {
      owner = await createAccount(suite.t, 'Analytics in the browser');
      const space = await suite.t
        .http()
        .post('/api/v1/spaces')
        .set('Authorization', owner.auth)
        .type('form')
        .send({ name: 'Spring' });
      expect(space.status).toBe(201);
      inSpace = await createLink(suite.t, owner, {
        url: 'https://example.com/spring',
        space_id: space.body.data.id,
      });
      elsewhere = await createLink(suite.t, owner, { url: 'https://example.com/autumn' });
      await insertClicks(inSpace.id, [{ country: 'GB' }, { country: 'GB' }, { country: 'DE' }]);
      await insertClicks(elsewhere.id, [{ country: 'FR' }]);
    });

    async function open(options: { width: number; dark: boolean }): Promise<Page> {
      const context = await suite.browser.newContext({
        viewport: { width: options.width, height: 800 },
        colorScheme: options.dark ? 'dark' : 'light',
        locale: 'en-US',
      });
      const page = await context.newPage();
      await signInWithKey(page, suite.base, owner.apiKey);
      await page.goto(`${suite.base}/app/analytics`);
      await page.getByRole('heading', { name: 'Workspace analytics', level: 1 }).waitFor();
      return page;
    }

    it('counts every link, narrows to a space, and compares two links', async () => {
      const page = await open({ width: 1280, dark: false });
      await page.getByText('4 clicks in this period').waitFor();
      expect(await mapCountries(page)).toEqual([
        ['United Kingdom', '2'],
        ['France', '1'],
        ['Germany', '1'],
      ]);
      expect(await page.locator('.world-map-svg path title').allTextContents()).toContain(
        'United Kingdom: 2 clicks',
      );

      await page.getByLabel('Space', { exact: true }).selectOption({ label: 'Spring' });
      await page.getByText('3 clicks in this period').waitFor();
      expect(await mapCountries(page)).toEqual([
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
      await mapCountries(page);
      const choices = page.getByRole('group', { name: 'Choose up to 5' });
      await choices.getByRole('checkbox', { name: inSpace.short_url, exact: true }).check();
      await page.getByRole('img', { name: `Clicks over time of ${inSpace.short_url}` }).waitFor();
      await networkSettled(page);
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
      await page.context().close();
    });
  },
);
