import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DASHBOARD_DIST } from '../src/dashboard/dashboard-ui';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { networkSettled } from './support/browser';
import { clickFixtures } from './support/clicks';
import { createLink, IP, unique } from './support/visitors';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** The screenshots of the README and docs are taken here, by this test. */
const DOCS = join(__dirname, '..', 'docs');
const haveChromium = existsSync(CHROMIUM);
const PERSON =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
/** The dashboard's screens, by their address under /app. */
const SCREENS = [
  'links',
  'links/new',
  'spaces',
  'tags',
  'utm-templates',
  'domains',
  'pixels',
  'transfer',
  'keys',
  'webhooks',
  'account',
  'members',
  'audit',
  'profile',
];

/** The value of `read` once it equals `wanted` (by JSON), or the last one read after 10 s. */
async function until<T>(read: () => Promise<T>, wanted: T): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (JSON.stringify(value) === JSON.stringify(wanted) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

if (!haveChromium) {
  process.stderr.write(
    `dashboard browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`,
  );
}

/*
 * The dashboard in a real browser, against the service: sign-in with a key that the page never keeps, a link made
 * with targeting and a visitor password, edited, visited, its stats seen; a read-only key's session refused a
 * write; another origin refused; sign-out. Every screen passes axe-core, in light at 1280 px and dark at 320 px.
 */
(haveChromium ? describe : describe.skip)('the dashboard in a real browser', () => {
  let t: TestApp;
  let base: string;
  let destination: Server;
  let destinationUrl: string;
  let foreign: Server;
  let foreignUrl: string;
  let browser: Browser;
  let owner: TestAccount;
  const axeResults: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) {
      throw new Error('dashboard/dist is missing: the test setup builds it (npm run build)');
    }
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_MINUTE: '0' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    destination = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Destination</title><h1>You made it to ${request.url}</h1>`);
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    destinationUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}`;
    // Another origin (another port) whose page tries to make a link with the visitor's session.
    foreign = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Elsewhere</title>
        <form id="f" method="post" action="${base}/api/v1/links"><input name="url" value="https://evil.example/"></form>
        <script>
          fetch(${JSON.stringify(`${base}/api/v1/links`)}, {
            method: 'POST', credentials: 'include',
            headers: { 'Content-Type': 'application/json', 'X-Shortlink-Session': '1' },
            body: JSON.stringify({ url: 'https://evil.example/fetch' }),
          }).then((r) => { document.title = 'fetch ' + r.status; }, () => { document.title = 'fetch refused'; });
        </script>`);
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    owner = await createAccount(t, 'Dashboard');
  });

  afterAll(async () => {
    process.stderr.write(`[dashboard] axe:\n  ${axeResults.join('\n  ')}\n`);
    await browser?.close();
    await new Promise((resolve) => destination?.close(resolve));
    await new Promise((resolve) => foreign?.close(resolve));
    await t?.close();
  });

  async function session(
    options: { width?: number; dark?: boolean; locale?: string } = {},
  ): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 800 },
      colorScheme: options.dark === true ? 'dark' : 'light',
      userAgent: PERSON,
      locale: options.locale ?? 'en-US',
    });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return { context, page, violations };
  }

  async function signIn(page: Page, key: string): Promise<void> {
    await page.goto(`${base}/app`);
    // A person's email and password come first; the key is the other way in.
    await page.getByRole('button', { name: 'Sign in with an API key' }).click();
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
  }

  /**
   * The controls of the page's search that cut their longest option: the width it needs (a copy of the control at
   * its natural width) beside the width it has. The test account's own names (spaces...) are short.
   */
  function cutControls(page: Page): Promise<string[]> {
    return page.evaluate<
      string[]
    >(`[...document.querySelectorAll('[role="search"] select')].flatMap((select) => {
      const natural = select.cloneNode(true);
      Object.assign(natural.style, { width: 'auto', minWidth: '0', maxWidth: 'none', position: 'absolute' });
      document.body.append(natural);
      const needed = natural.offsetWidth;
      natural.remove();
      return select.offsetWidth >= needed ? [] : [select.labels[0].textContent + ': ' + select.offsetWidth + ' < ' + needed];
    })`);
  }

  async function seriousViolations(page: Page): Promise<AxeViolation[]> {
    await page.evaluate(AXE);
    const result = await page.evaluate<string>('axe.run(document).then((result) => JSON.stringify(result))');
    return (JSON.parse(result) as { violations: AxeViolation[] }).violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
  }

  async function linkByAlias(alias: string): Promise<Record<string, unknown>> {
    const response = await t
      .http()
      .get(`/api/v1/links?search=${alias}&search_by=alias`)
      .set('Authorization', owner.auth);
    expect(response.status).toBe(200);
    const [found] = response.body.data as Record<string, unknown>[];
    return found;
  }

  it('signs in with a key it never keeps, makes, edits and visits a link, and shows its stats', async () => {
    const { context, page, violations } = await session();
    await signIn(page, owner.apiKey);
    // The key is nowhere in the page's storage; the session is an HttpOnly, SameSite=Strict cookie.
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage, ...sessionStorage })');
    expect(stored).not.toContain(owner.apiKey);
    expect(await page.getByLabel('API key').count()).toBe(0);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'shortlink_session', httpOnly: true, sameSite: 'Strict' });
    expect(cookie.value).not.toContain(owner.apiKey);

    const alias = unique('dash');
    // The page's own button; an empty list offers the same one where its rows would be.
    await page.getByRole('button', { name: 'New link' }).first().click();
    await page.getByLabel('Destination URL').fill(`${destinationUrl}/home`);
    await page.getByLabel('Alias').fill(alias);
    await page.getByLabel('Visitor password').fill('open sesame');
    await page.getByLabel('Target by').selectOption('countries');
    if ((await page.getByRole('group', { name: 'Rule 1' }).count()) === 0) {
      await page.getByRole('button', { name: 'Add a rule' }).click();
    }
    const rule = page.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Country').selectOption('GB');
    await rule.getByLabel('URL').fill(`${destinationUrl}/uk`);
    await page.screenshot({ path: join(DOCS, 'dashboard-link-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const targets = [{ key: 'GB', value: `${destinationUrl}/uk` }];
    expect(await until(async () => (await linkByAlias(alias))?.targets, targets)).toEqual(targets);
    const made = await linkByAlias(alias);
    expect(made).toMatchObject({
      url: `${destinationUrl}/home`,
      targets_type: 'countries',
      redirect_password: true,
    });

    // Edited from the list.
    const shortUrl = made.short_url as string;
    await page.goto(`${base}/app/links`);
    await page.getByRole('link', { name: `Edit ${shortUrl}` }).click();
    await page.getByLabel('Destination URL').fill(`${destinationUrl}/edited`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await until(async () => (await linkByAlias(alias)).url, `${destinationUrl}/edited`)).toBe(
      `${destinationUrl}/edited`,
    );

    // Visited from the United Kingdom: the password, then the country's destination.
    const visitor = await browser.newContext({
      userAgent: PERSON,
      extraHTTPHeaders: { 'X-Forwarded-For': IP.gb },
    });
    const visit = await visitor.newPage();
    await visit.goto(`${base}/${alias}`);
    await visit.getByLabel('Password').fill('open sesame');
    await visit.getByRole('button', { name: 'Continue' }).click();
    await visit.waitForURL(`${destinationUrl}/uk`);
    await visitor.close();

    // Its stats: the click is there once it is written.
    expect(await until(async () => (await linkByAlias(alias)).clicks, 1)).toBe(1);
    await page.goto(`${base}/app/links`);
    await page.getByRole('link', { name: `Stats ${shortUrl}` }).click();
    await page.getByRole('heading', { name: `Stats of ${shortUrl}` }).waitFor();
    await page.getByText('1 click in this period').waitFor();
    // Where the click was sent: the country's destination.
    await page
      .getByRole('region', { name: 'Destinations' })
      .getByRole('listitem')
      .filter({ hasText: `${destinationUrl}/uk` })
      .waitFor();
    await page.screenshot({ path: join(DOCS, 'dashboard-stats.png'), fullPage: true });
    await page.goto(`${base}/app/links`);
    await page.getByRole('table', { name: 'Links' }).waitFor();
    await page.screenshot({ path: join(DOCS, 'dashboard-links.png') });
    expect(violations).toEqual([]);
    await context.close();
  });

  it('shows a link’s visits after a visit, newest first, paged by keyboard, in light and dark, down to 320 px', async () => {
    const link = await createLink(t, owner, { url: `${destinationUrl}/visited` });
    // 25 earlier visits of the day, then one from the United Kingdom, as a browser sends it.
    await clickFixtures(() => t).insertClicks(
      link.id,
      Array.from({ length: 25 }, (_, index) => ({
        created_at: new Date(Date.now() - (index + 1) * 60_000).toISOString(),
        browser: 'Firefox',
      })),
    );
    const visited = await t
      .http()
      .get(`/${link.alias}`)
      .set('User-Agent', PERSON)
      .set('X-Forwarded-For', IP.gb)
      .set('Referer', 'https://news.example.org/today');
    expect(visited.status).toBe(302);

    for (const { width, dark } of [
      { width: 1280, dark: false },
      { width: 320, dark: true },
    ]) {
      const { context, page, violations } = await session({ width, dark });
      await signIn(page, owner.apiKey);
      await page.goto(`${base}/app/links/${link.id}/stats`);
      const visits = page.getByRole('region', { name: 'Visits', exact: true });
      const newest = visits
        .getByRole('table', { name: /^Visits of .*, newest first$/ })
        .getByRole('row')
        .nth(1);
      for (const value of [
        'United Kingdom',
        'news.example.org',
        'Chrome',
        'Linux',
        `${destinationUrl}/visited`,
      ]) {
        await newest.getByText(value, { exact: true }).waitFor();
      }
      const pages = visits.getByRole('navigation', { name: 'Pages of Visits' });
      await pages.getByText('Page 1 of 2').waitFor();
      await networkSettled(page);
      const serious = await seriousViolations(page);
      axeResults.push(`visits at ${width} px${dark ? ', dark' : ''}: ${serious.length} serious or critical`);
      expect(serious.map((violation) => [violation.id, violation.nodes.map((node) => node.target)])).toEqual(
        [],
      );
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);

      // The next page by keyboard alone: the oldest visit, on the second page.
      await pages.getByRole('button', { name: 'Next' }).focus();
      await page.keyboard.press('Enter');
      await pages.getByText('Page 2 of 2').waitFor();
      await visits.getByRole('table').getByRole('row').nth(1).getByText('Firefox', { exact: true }).waitFor();
      expect(await visits.getByRole('table').getByRole('row').count()).toBe(2);
      expect(violations).toEqual([]);
      await context.close();
    }
  });

  it.each([
    { width: 1280, dark: false },
    { width: 320, dark: true },
  ])(
    'passes axe-core on every screen at $width px (dark: $dark), within its policy',
    async ({ width, dark }) => {
      const { context, page, violations } = await session({ width, dark });
      await signIn(page, owner.apiKey);
      const link = await createLink(t, owner, { url: `${destinationUrl}/screens` });
      for (const screen of [...SCREENS, `links/${link.id}/edit`, `links/${link.id}/stats`]) {
        await page.goto(`${base}/app/${screen}`);
        await page.getByRole('main').waitFor();
        await networkSettled(page);
        const serious = await seriousViolations(page);
        axeResults.push(
          `${screen} at ${width} px${dark ? ', dark' : ''}: ${serious.length} serious or critical`,
        );
        expect(
          `${screen}: ${JSON.stringify(serious.map((violation) => [violation.id, violation.nodes.map((node) => node.target)]))}`,
        ).toBe(`${screen}: []`);
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - window.innerWidth',
        );
        expect(`${screen}: ${overflow}`).toBe(`${screen}: 0`);
      }
      expect(violations).toEqual([]);
      await context.close();
    },
    // Every screen in turn, each read whole before axe runs: the longest walk of the suite.
    180_000,
  );

  it.each(['en-US', 'es-ES', 'fr-FR', 'de-DE'])(
    'fits every sort and filter control to its longest label in %s, at 320 and 1280 px',
    async (locale) => {
      const { context, page } = await session({ locale });
      await page.goto(`${base}/app`);
      await page.locator('.sign-in-others button').first().click();
      await page.locator('input[name="api-key"]').fill(owner.apiKey);
      await page.locator('button[type="submit"]').click();
      await page.locator('[role="search"]').waitFor();
      for (const width of [320, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        for (const screen of ['links', 'spaces', 'keys']) {
          await page.goto(`${base}/app/${screen}`);
          await page.locator('[role="search"] select').first().waitFor();
          // A phone folds the links' filters behind a button: opened, they are measured too.
          const fold = page.locator('.filter-fold-toggle[aria-expanded="false"]');
          if (await fold.isVisible()) await fold.click();
          expect(`${screen} at ${width} px: ${(await cutControls(page)).join('; ')}`).toBe(
            `${screen} at ${width} px: `,
          );
        }
      }
      await context.close();
    },
  );

  it('tags a link from its row, lists it by the tag, and archives it out of the list and back', async () => {
    const shown = async (id: number) => {
      const response = await t.http().get(`/api/v1/links/${id}`).set('Authorization', owner.auth);
      return response.body.data as { tags: string[]; archived: 0 | 1 };
    };
    const link = await createLink(t, owner, { url: `${destinationUrl}/tagged` });
    const name = unique('Tag');
    const { context, page, violations } = await session();
    await signIn(page, owner.apiKey);

    await page.getByRole('button', { name: `Add tags ${link.short_url}` }).click();
    const dialog = page.getByRole('dialog', { name: `Tags of ${link.short_url}` });
    const field = dialog.getByRole('combobox', { name: 'Tags' });
    await field.pressSequentially(`${name},launch`);
    await field.press('Enter');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await until(async () => (await shown(link.id)).tags, [name, 'launch'])).toEqual([name, 'launch']);

    // The tag's own page links to its links: this one alone.
    await page.goto(`${base}/app/tags?search=${name}`);
    await page.getByRole('link', { name: `1 links tagged ${name}` }).click();
    await page.getByRole('table', { name: 'Links' }).waitFor();
    expect(await page.getByRole('rowheader').count()).toBe(1);

    await page.getByRole('button', { name: `Archive ${link.short_url}` }).click();
    await page.getByText('Nothing matches.').waitFor();
    expect((await shown(link.id)).archived).toBe(1);
    await page.getByLabel('Show').selectOption('Archived links');
    await page.getByRole('button', { name: `Unarchive ${link.short_url}` }).click();
    expect(await until(async () => (await shown(link.id)).archived, 0)).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('moves links picked on two pages of the list to a space in one bulk action', async () => {
    // An account of its own: the list then holds these twelve links alone, two pages of ten.
    const mover = await createAccount(t, 'Bulk');
    const space = await t
      .http()
      .post('/api/v1/spaces')
      .set('Authorization', mover.auth)
      .send({ name: 'Marketing' });
    expect(space.status).toBe(201);
    const links = [];
    for (let i = 0; i < 12; i += 1)
      links.push(await createLink(t, mover, { url: `${destinationUrl}/bulk${i}` }));
    // Newest first: the last made leads page 1, the first two made end page 2.
    const [first, second, , , , , , , , , eleventh, twelfth] = links;
    const { context, page, violations } = await session();
    await signIn(page, mover.apiKey);
    await page.goto(`${base}/app/links?per_page=10`);
    await page.getByRole('table', { name: 'Links' }).waitFor();

    await page.getByRole('checkbox', { name: `Select ${twelfth.short_url}` }).check();
    await page.getByRole('checkbox', { name: `Select ${eleventh.short_url}` }).check();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('checkbox', { name: `Select ${first.short_url}` }).check();
    const bar = page.getByRole('region', { name: 'Selected links' });
    await bar.getByText('3 selected').waitFor();
    // On a wide screen the page's box is the table header's, and it alone.
    expect(await page.getByRole('checkbox', { name: 'Select every link on this page' }).count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: '3 selected' }).count()).toBe(1);
    const barViolations = await seriousViolations(page);
    axeResults.push(`links with the bulk bar: ${barViolations.length} serious or critical`);
    expect(barViolations).toEqual([]);

    await bar.getByRole('button', { name: 'Move to space' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to space' });
    await dialog.getByLabel('Space').selectOption('Marketing');
    await dialog.getByText('Move 3 links to Marketing?').waitFor();
    await dialog.getByRole('button', { name: 'Move to space' }).click();
    await page.getByText('3 links changed.').waitFor();
    expect(await bar.count()).toBe(0);

    const spaceOf = async (id: number) => {
      const response = await t.http().get(`/api/v1/links/${id}`).set('Authorization', mover.auth);
      return (response.body.data as { space: { name: string } | null }).space?.name ?? null;
    };
    expect(await Promise.all([first, eleventh, twelfth, second].map((link) => spaceOf(link.id)))).toEqual([
      'Marketing',
      'Marketing',
      'Marketing',
      null,
    ]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('opens the shortcuts with ?, focuses the search with /, and folds the filters on a phone', async () => {
    await createLink(t, owner, { url: `${destinationUrl}/shortcut` });
    const { context, page, violations } = await session({ width: 320, dark: true });
    await signIn(page, owner.apiKey);
    await page.getByRole('table', { name: 'Links' }).waitFor();

    await page.locator('body').press('?');
    const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await overlay.waitFor();
    await overlay.getByText('Show these shortcuts').waitFor();
    const overlayViolations = await seriousViolations(page);
    axeResults.push(`shortcuts overlay: ${overlayViolations.length} serious or critical`);
    expect(overlayViolations).toEqual([]);
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });

    await page.keyboard.press('/');
    expect(
      await page
        .getByRole('searchbox', { name: 'Search' })
        .evaluate((field) => field === field.ownerDocument.activeElement),
    ).toBe(true);

    // At 320 px the filters wait behind their button, and nothing is wider than the screen, open or not.
    const fold = page.getByRole('button', { name: 'Filters' });
    expect(await fold.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByLabel('Health').isVisible()).toBe(false);
    const overflow = () => page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
    expect(await overflow()).toBe(false);
    await fold.click();
    expect(await page.getByLabel('Health').isVisible()).toBe(true);
    await page
      .getByRole('checkbox', { name: /^Select http/ })
      .first()
      .check();
    await page.getByRole('region', { name: 'Selected links' }).waitFor();
    expect(await overflow()).toBe(false);
    // Rows are cards here, and the table's header is hidden: the page's box stands above the list, alone.
    const pageBox = page.getByRole('checkbox', { name: 'Select every link on this page' });
    expect(await pageBox.count()).toBe(1);
    await pageBox.check();
    const rows = page.getByRole('checkbox', { name: /^Select http/ });
    const checked = [];
    for (let row = 0; row < (await rows.count()); row += 1) checked.push(await rows.nth(row).isChecked());
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.every(Boolean)).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("gives a read-only key's session no write controls, and refuses a write it forces", async () => {
    const key = await t
      .http()
      .post('/api/v1/keys')
      .set('Authorization', owner.auth)
      .send({ name: 'Read only', scopes: ['links.read'] });
    const { context, page } = await session();
    await signIn(page, (key.body.data as { key: string }).key);
    expect(await page.getByRole('button', { name: 'New link' }).count()).toBe(0);
    const forced = await page.evaluate(async () => {
      const response = await fetch('/api/v1/links', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shortlink-Session': '1' },
        body: JSON.stringify({ url: 'https://example.com/forced' }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(forced).toEqual({ status: 403, body: { message: 'This action is unauthorized.', status: 403 } });
    await context.close();
  });

  it('refuses what another origin makes the browser send with the session, then signs out', async () => {
    const before = await t.http().get('/api/v1/links').set('Authorization', owner.auth);
    const { context, page } = await session();
    await signIn(page, owner.apiKey);

    const elsewhere = await context.newPage();
    await elsewhere.goto(foreignUrl);
    // The fetch with the proof header needs a CORS preflight, which the service never grants.
    expect(await until(() => elsewhere.title(), 'fetch refused')).toBe('fetch refused');
    // A form carries the cookie (same site) but not the proof: the contract's 403.
    const [answer] = await Promise.all([
      elsewhere.waitForResponse(`${base}/api/v1/links`),
      elsewhere.evaluate("document.getElementById('f').submit()"),
    ]);
    expect(answer.status()).toBe(403);
    const after = await t.http().get('/api/v1/links').set('Authorization', owner.auth);
    expect(after.body.meta.total).toBe(before.body.meta.total);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
});

mkdirSync(DOCS, { recursive: true });
