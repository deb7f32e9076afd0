import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { createLink, unique, type LinkData } from './support/visitors';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, 'artifacts');
/** The screenshots of the docs are taken here, by this test. */
const DOCS = join(__dirname, '..', 'docs');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const haveChromium = existsSync(CHROMIUM);
/** Visitor routes allow this many requests a minute per address: the 429 page is reached on purpose. */
const VISITOR_LIMIT = 20;
/** Headless Chromium names itself HeadlessChrome, which counts as a bot: this visitor is a person. */
const PERSON =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

if (!haveChromium) {
  // Said once, plainly, so that a skipped browser test is never mistaken for a passing one.
  process.stderr.write(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

(haveChromium ? describe : describe.skip)('a visitor in a real browser', () => {
  let t: TestApp;
  let base: string;
  let destination: Server;
  let destinationUrl: string;
  let browser: Browser;
  /** Each page is opened from an address of its own, so that the visitor limit meets only the page that wants it. */
  let addresses = 0;

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: 'loopback',
      VISITOR_RATE_LIMIT_PER_MINUTE: String(VISITOR_LIMIT),
      // Counted in this app's memory even when the run shares its limits in Redis: a Redis reply slower than its
      // timeout (a loaded machine driving a browser) sends the next checks to memory, and the hits counted on each
      // side no longer add up to the limit the 429 page is reached by. The shared limits have tests of their own.
      REDIS_URL: '',
    });
    await t.app.listen(0, '127.0.0.1');
    const server: Server = t.app.getHttpServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    destination = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Destination</title><h1>You made it</h1>');
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    destinationUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}/landing`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => destination?.close(resolve));
    await t?.close();
  });

  function nextAddress(): string {
    addresses += 1;
    return `198.51.${100 + Math.floor(addresses / 250)}.${addresses % 250}`;
  }

  async function visitor(
    options: { width?: number; height?: number; dark?: boolean; address?: string; language?: string } = {},
  ): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 800, height: options.height ?? 600 },
      colorScheme: options.dark === true ? 'dark' : 'light',
      userAgent: PERSON,
      locale: options.language ?? 'en-US',
      extraHTTPHeaders: {
        'X-Forwarded-For': options.address ?? nextAddress(),
        'Accept-Language': options.language ?? 'en-US,en;q=0.9',
      },
    });
    // Nothing leaves the machine: vendors' pixels and any other host are refused.
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return { context, page, violations };
  }

  async function link(account: TestAccount, body: Record<string, unknown>): Promise<LinkData> {
    return createLink(t, account, { url: destinationUrl, ...body });
  }

  /** A month of clicks that look like a newsletter's: a peak on the day it went out, then a tail. */
  async function seedClicks(linkId: number): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO clicks (link_id, created_at, referrer, country, continent, browser, operating_system, device, language)
       SELECT $1,
              date_trunc('day', now()) - make_interval(days => day) + make_interval(hours => n % 24),
              (ARRAY['news.example.org', NULL, NULL, 'mastodon.example', 'forum.example.net'])[1 + (n * 7 + day) % 5],
              (ARRAY['GB', 'GB', 'DE', 'FR', 'US', 'IE', NULL])[1 + (n * 3 + day) % 7],
              (ARRAY['EU', 'EU', 'EU', 'EU', 'NA', 'EU', NULL])[1 + (n * 3 + day) % 7],
              (ARRAY['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet'])[1 + (n * 5 + day) % 5],
              (ARRAY['iOS', 'Android', 'Windows', 'OS X', 'Linux'])[1 + (n * 5 + day) % 5],
              (ARRAY['Mobile', 'Mobile', 'Desktop', 'Tablet'])[1 + (n + day) % 4],
              (ARRAY['en', 'en', 'de', 'fr', 'es', NULL])[1 + (n * 3 + day) % 6]
         FROM generate_series(0, 29) AS day,
              generate_series(1, 60) AS n
        WHERE n <= 4 + (56 * exp(-abs(day - 12) / 3.0))::int + (day % 3) * 2`,
      [linkId],
    );
  }

  async function axeViolations(page: Page): Promise<AxeViolation[]> {
    // Evaluated through the browser's debugging protocol: the page's policy, which refuses any inline script,
    // does not apply to it.
    await page.evaluate(AXE);
    const result = await page.evaluate<string>('axe.run(document).then((result) => JSON.stringify(result))');
    return (JSON.parse(result) as { violations: AxeViolation[] }).violations;
  }

  it('lets an API user authorise in /docs and create a space with "Try it out"', async () => {
    const account = await createAccount(t);
    const name = unique('From the docs');
    const { context, page } = await visitor({ width: 1280, height: 900 });
    try {
      await page.goto(`${base}/docs`);
      await page.locator('button.authorize').first().click();
      await page.locator('.modal-ux input').first().fill(account.apiKey);
      await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
      await page.locator('.modal-ux button.btn-done').click();
      const operation = page.locator('.opblock-post', {
        has: page.locator('.opblock-summary-path[data-path="/api/v1/spaces"]'),
      });
      await operation.locator('.opblock-summary').click();
      await operation.locator('button.try-out__btn').click();
      await operation.locator('textarea.body-param__text').fill(JSON.stringify({ name, color: 3 }));
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor();
      expect((await status.innerText()).trim()).toBe('201');
      // The answer alone: the curl line above it shows the key.
      await operation
        .locator('.live-responses-table')
        .first()
        .screenshot({ path: join(DOCS, 'docs-try-it-out.png') });
    } finally {
      await context.close();
    }
    // The space exists, made by the key the page was given.
    const spaces = await t
      .http()
      .get(`/api/v1/spaces?search=${encodeURIComponent(name)}`)
      .set('Authorization', account.auth);
    expect((spaces.body as { data: { name: string }[] }).data.map((space) => space.name)).toEqual([name]);
  });

  it('walks the password page and the consent page to the destination', async () => {
    const account = await createAccount(t);
    const created = await link(account, {
      alias: `walk${Date.now()}`,
      redirect_password: 'open sesame',
      sensitive_content: '1',
    });

    const { context, page, violations } = await visitor();
    await page.goto(`${base}/${created.alias}?ref=browser`);
    expect(await page.title()).toBe('Password required');
    // The sandbox keeps the field's autofocus, which a sandbox without scripts would refuse.
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('password');
    expect(await page.locator('h1').textContent()).toBe('This link is protected');
    expect(await page.locator('.leads').textContent()).toBe(
      'This link on localhost:3000 leads to 127.0.0.1:' + `${new URL(destinationUrl).port}.`,
    );

    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('not right');
    // The message is the field's description: a screen reader says it with the field.
    const field = page.getByLabel('Password');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(
      await field.evaluate((input) => (input as unknown as { labels: ArrayLike<unknown> }).labels.length),
    ).toBe(1);
    expect(await page.locator(`#${await field.getAttribute('aria-describedby')}`).textContent()).toBe(
      'That password is not right. Try again.',
    );

    await field.fill('open sesame');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.title()).toBe('Sensitive content');
    await page.screenshot({ path: join(ARTIFACTS, 'consent-page.png') });

    await page.getByRole('button', { name: /continue/i }).click();
    await page.waitForURL((url) => url.toString().startsWith(destinationUrl));
    expect(page.url()).toBe(`${destinationUrl}?ref=browser`);
    expect(await page.locator('h1').textContent()).toBe('You made it');
    expect(violations).toEqual([]);

    const shown = await t.http().get(`/api/v1/links/${created.id}`).set('Authorization', account.auth);
    expect(shown.body.data.clicks).toBe(1);
    await context.close();
  });

  it('unlocks the stats page with its password, then reloads it without asking again', async () => {
    const account = await createAccount(t);
    const created = await link(account, { privacy: '2', password: 'numbers', title: 'Quarterly report' });
    const { context, page } = await visitor();
    await page.goto(`${base}/${created.alias}/stats?range=7`);
    expect(await page.locator('h1').textContent()).toBe('These statistics are protected');
    await page.getByLabel('Statistics password').fill('numbers');
    await page.getByRole('button', { name: 'Show the statistics' }).click();
    await page.waitForURL(`${base}/${created.alias}/stats?range=7`);
    expect(await page.locator('h1').textContent()).toBe('Quarterly report');
    await page.reload();
    expect(await page.locator('h1').textContent()).toBe('Quarterly report');
    await page.getByRole('link', { name: 'All time' }).click();
    expect(await page.locator('[aria-current="page"]').textContent()).toBe('All time');
    // The cookie is out of scripts' reach: HttpOnly, and the sandboxed page's origin has no cookies at all.
    await expect(page.evaluate<string>('document.cookie')).rejects.toThrow(/sandboxed/);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({
      name: 'stats_access',
      httpOnly: true,
      sameSite: 'Lax',
      path: `/${created.alias}/stats`,
    });
    await context.close();
  });

  it.each([
    ['with', true],
    ['without', false],
  ])('forwards from the pixels page to the destination %s JavaScript', async (_how, javaScriptEnabled) => {
    const account = await createAccount(t);
    const pixel = await t
      .http()
      .post('/api/v1/pixels')
      .set('Authorization', account.auth)
      .type('form')
      .send({ name: unique('pixel'), type: 'facebook', value: '1234567890' });
    const created = await link(account, { pixel_ids: [pixel.body.data.id as number] });
    const context = await browser.newContext({
      userAgent: PERSON,
      javaScriptEnabled,
      extraHTTPHeaders: { 'X-Forwarded-For': nextAddress() },
    });
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    const page = await context.newPage();
    await page.goto(`${base}/${created.alias}`, { waitUntil: 'commit' });
    await page.waitForURL(destinationUrl);
    expect(await page.locator('h1').textContent()).toBe('You made it');
    await context.close();
  });

  describe('every visitor page, at 320 and 1280 px, light and dark', () => {
    interface VisitorPage {
      title: string | (() => string);
      status?: number;
      /** Opens the page in `page`, from its own address. */
      open: (page: Page, address: string) => Promise<unknown>;
      /** Written for the docs, from the light page at this width. */
      screenshot?: { file: string; width: number };
    }

    let account: TestAccount;
    const made: Record<string, LinkData> = {};

    beforeAll(async () => {
      account = await createAccount(t);
      made.protected = await link(account, { redirect_password: 'pw', sensitive_content: '1' });
      made.sensitive = await link(account, { sensitive_content: '1' });
      made.expired = await link(account, {
        active_period_start_at: '2020-01-01 00:00',
        active_period_end_at: '2020-01-02 00:00',
      });
      made.newsletter = await link(account, {
        alias: unique('spring'),
        url: 'https://shop.example.com/newsletters/2026/spring/the-garden-issue?utm_source=newsletter&utm_medium=email',
        title: 'Spring newsletter: the garden issue',
      });
      await seedClicks(made.newsletter.id);
      made.statsPassword = await link(account, { privacy: '2', password: 'numbers' });
      made.private = await link(account, { privacy: '1' });
      const pixel = await t
        .http()
        .post('/api/v1/pixels')
        .set('Authorization', account.auth)
        .type('form')
        .send({ name: unique('pixel'), type: 'facebook', value: '1234567890' });
      expect(pixel.status).toBe(201);
      made.pixels = await link(account, { pixel_ids: [pixel.body.data.id as number] });
    });

    async function wrongPasswords(alias: string, address: string, count: number): Promise<void> {
      for (let attempt = 0; attempt < count; attempt += 1) {
        const response = await t
          .http()
          .post(`/${alias}/password`)
          .set('X-Forwarded-For', address)
          .set('User-Agent', PERSON)
          .type('form')
          .send({ password: 'wrong' });
        expect(response.status).toBe(403);
      }
    }

    async function submitWrong(page: Page, label: string): Promise<void> {
      await page.getByLabel(label).fill('wrong');
      await Promise.all([page.waitForLoadState('load'), page.locator('button[type="submit"]').click()]);
      await page.waitForSelector('h1');
    }

    const PAGES: Record<string, VisitorPage> = {
      root: { title: 'localhost:3000', open: (page) => page.goto(`${base}/`) },
      'not found': {
        title: 'Link not found',
        status: 404,
        open: (page) => page.goto(`${base}/${unique('nothing')}`),
      },
      expired: {
        title: 'This link has expired',
        status: 410,
        open: (page) => page.goto(`${base}/${made.expired.alias}`),
      },
      password: {
        title: 'Password required',
        open: (page) => page.goto(`${base}/${made.protected.alias}`),
        screenshot: { file: 'password-page.png', width: 390 },
      },
      'wrong password': {
        title: 'Password required',
        status: 403,
        open: async (page) => {
          await page.goto(`${base}/${made.protected.alias}`);
          await submitWrong(page, 'Password');
        },
      },
      consent: { title: 'Sensitive content', open: (page) => page.goto(`${base}/${made.sensitive.alias}`) },
      pixels: {
        title: 'Redirecting',
        open: async (page) => {
          // The page forwards once its pixels have loaded: a 204 answer to the forward keeps it on screen. The
          // page is judged once that forward is over, not while the browser is still on its way.
          let forwarded = (): void => undefined;
          const forward = new Promise<void>((resolve) => (forwarded = resolve));
          await page.route(
            (url) => url.toString().startsWith(destinationUrl),
            async (route) => {
              await route.fulfill({ status: 204 });
              forwarded();
            },
          );
          const response = await page.goto(`${base}/${made.pixels.alias}`);
          await Promise.race([forward, new Promise((resolve) => setTimeout(resolve, 5000))]);
          await page.waitForFunction("!document.title.startsWith('Loading')");
          return response;
        },
      },
      preview: {
        title: () => `Preview of ${made.newsletter.alias}`,
        open: (page) => page.goto(`${base}/${made.newsletter.alias}/+`),
        screenshot: { file: 'preview-page.png', width: 390 },
      },
      stats: {
        title: 'Statistics of Spring newsletter: the garden issue',
        open: (page) => page.goto(`${base}/${made.newsletter.alias}/stats`),
        screenshot: { file: 'stats-page.png', width: 1280 },
      },
      'stats password': {
        title: 'Password required',
        open: (page) => page.goto(`${base}/${made.statsPassword.alias}/stats`),
      },
      'wrong stats password': {
        title: 'Password required',
        status: 403,
        open: async (page) => {
          await page.goto(`${base}/${made.statsPassword.alias}/stats`);
          await submitWrong(page, 'Statistics password');
        },
      },
      'private stats': {
        title: 'Private statistics',
        status: 403,
        open: (page) => page.goto(`${base}/${made.private.alias}/stats`),
      },
      'too many attempts': {
        title: 'Too many attempts',
        status: 429,
        open: async (page, address) => {
          await wrongPasswords(made.protected.alias, address, 5);
          await page.goto(`${base}/${made.protected.alias}`);
          await submitWrong(page, 'Password');
        },
      },
      'too many requests': {
        title: 'Too many requests',
        status: 429,
        open: async (page, address) => {
          for (let request = 0; request < VISITOR_LIMIT; request += 1) {
            await t.http().get('/').set('X-Forwarded-For', address);
          }
          return page.goto(`${base}/${made.sensitive.alias}`);
        },
      },
      'query too long': {
        title: 'Address too long',
        status: 414,
        open: (page) =>
          page.goto(
            `${base}/${made.sensitive.alias}?${Array.from({ length: 101 }, (_, index) => `p${index}=1`).join('&')}`,
          ),
      },
    };

    it.each(Object.keys(PAGES))('%s: fits, passes axe, and keeps to its policy', async (name) => {
      const visited = PAGES[name];
      for (const width of [320, 1280]) {
        for (const dark of [false, true]) {
          const address = nextAddress();
          const { context, page, violations } = await visitor({ width, height: 800, dark, address });
          const response = await visited.open(page, address);
          if (response !== undefined && response !== null && visited.status !== undefined) {
            expect((response as { status(): number }).status()).toBe(visited.status);
          }
          const where = `${name} at ${width} px, ${dark ? 'dark' : 'light'}`;
          expect({ where, title: await page.title() }).toEqual({
            where,
            title: typeof visited.title === 'string' ? visited.title : visited.title(),
          });
          // Nothing wider than the screen: no sideways scrolling on a phone.
          const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
          expect({ where, scrollWidth }).toEqual({ where, scrollWidth: width });
          const serious = (await axeViolations(page))
            .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
            .map(
              (violation) =>
                `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
            );
          expect({ where, serious }).toEqual({ where, serious: [] });
          expect({ where, violations }).toEqual({ where, violations: [] });
          if (visited.screenshot !== undefined && !dark && width === 1280) {
            await page.setViewportSize({ width: visited.screenshot.width, height: 800 });
            await page.screenshot({ path: join(DOCS, visited.screenshot.file), fullPage: true });
          }
          await context.close();
        }
      }
    });
  });
});
