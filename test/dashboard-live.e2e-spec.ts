import type { Page } from 'playwright-core';
import { createAccount, type TestAccount } from './support/app';
import {
  accessibilityProblems,
  dashboardSuite,
  describeInChromium,
  mapCountries,
  signInWithKey,
} from './support/browser';
import { clickFixtures } from './support/clicks';
import { createLink, IP, UA, unique, type LinkData } from './support/visitors';

/** Events reach the stream a fraction of a second after their commit, and a screen refreshes a second later. */
const LIVE_MS = 15_000;

/*
 * The dashboard's live updates in a real browser against the service: what another client does (a link made with an
 * API key, a visit to a short link) shows on the open screen without a reload, keeping its open dialog; the per-link
 * stats screen has the map of countries with its table; axe-core on both screens.
 */
describeInChromium('dashboard live tests')('live updates in the dashboard, in a real browser', () => {
  const suite = dashboardSuite();
  let owner: TestAccount;
  let visited: LinkData;
  const { insertClicks } = clickFixtures(() => suite.t);

  beforeAll(async () => {
    owner = await createAccount(suite.t, 'Live in the browser');
    visited = await createLink(suite.t, owner, { url: 'https://example.com/visited' });
    await insertClicks(visited.id, [{ country: 'GB' }, { country: 'GB' }, { country: 'DE' }]);
  });

  /** A signed-in tab at `path`, its stream open; marked, so that a reload would show. */
  async function open(path: string): Promise<Page> {
    const context = await suite.browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
    });
    const page = await context.newPage();
    await signInWithKey(page, suite.base, owner.apiKey);
    if (path !== '/links') await page.getByRole('link', { name: `Stats ${visited.short_url}` }).click();
    await page.getByText('Live updates are on', { exact: false }).waitFor();
    await page.evaluate('window.notReloaded = true');
    return page;
  }

  const notReloaded = (page: Page) => page.evaluate<boolean>('window.notReloaded === true');

  it('shows a link another client makes, and the new count, without a reload or closing a dialog', async () => {
    const page = await open('/links');
    await page.getByText('1–1 of 1').waitFor();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();

    const made = await suite.t
      .http()
      .post('/api/v1/links')
      .set('Authorization', owner.auth)
      .type('json')
      .send({ url: 'https://example.com/made-elsewhere', alias: unique('live') });
    expect(made.status).toBe(201);

    await page
      .getByRole('link', { name: made.body.data.short_url, exact: true })
      .waitFor({ timeout: LIVE_MS });
    await page.getByText('1–2 of 2').waitFor();
    expect(await help.isVisible()).toBe(true);
    expect(await notReloaded(page)).toBe(true);

    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('counts a visit another client makes on the open stats screen, beside the map and its table', async () => {
    const page = await open('/stats');
    await page.getByText('3 clicks in this period').waitFor();
    expect(await mapCountries(page)).toEqual([
      ['United Kingdom', '2'],
      ['Germany', '1'],
    ]);
    expect(await page.locator('.world-map-svg path title').allTextContents()).toContain(
      'United Kingdom: 2 clicks',
    );

    const visit = await fetch(`${suite.base}/${visited.alias}`, {
      redirect: 'manual',
      headers: { 'User-Agent': UA.windowsChrome, 'X-Forwarded-For': IP.gb },
    });
    expect(visit.status).toBe(302);

    await page.getByText('4 clicks in this period').waitFor({ timeout: LIVE_MS });
    await page.getByRole('table', { name: 'World map of visits by country' }).getByText('3').waitFor();
    expect(await mapCountries(page)).toEqual([
      ['United Kingdom', '3'],
      ['Germany', '1'],
    ]);
    expect(await notReloaded(page)).toBe(true);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.context().close();
  });
});
