import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createAccount, createTestApp, type TestApp } from './support/app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, 'artifacts');
const haveChromium = existsSync(CHROMIUM);

if (!haveChromium) {
  // Said once, plainly, so that a skipped browser test is never mistaken for a passing one.
  process.stderr.write(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
}

(haveChromium ? describe : describe.skip)('a visitor in a real browser', () => {
  let t: TestApp;
  let base: string;
  let destination: Server;
  let destinationUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp();
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

  it('walks the password page and the consent page to the destination', async () => {
    const account = await createAccount(t);
    const created = await t
      .http()
      .post('/api/v1/links')
      .set('Authorization', account.auth)
      .type('form')
      .send({
        url: destinationUrl,
        alias: `walk${Date.now()}`,
        redirect_password: 'open sesame',
        sensitive_content: '1',
      });
    expect(created.status).toBe(201);
    const alias = (created.body.data as { alias: string }).alias;

    // Headless Chromium names itself HeadlessChrome, which counts as a bot: this visitor is a person.
    const page = await browser.newPage({
      viewport: { width: 800, height: 600 },
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });

    await page.goto(`${base}/${alias}?ref=browser`);
    expect(await page.title()).toBe('Password required');
    expect(await page.locator('h1').textContent()).toBe('This link is protected');
    await page.screenshot({ path: join(ARTIFACTS, 'password-page.png') });

    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('not right');

    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.title()).toBe('Sensitive content');
    await page.screenshot({ path: join(ARTIFACTS, 'consent-page.png') });

    await page.getByRole('button', { name: /continue/i }).click();
    await page.waitForURL((url) => url.toString().startsWith(destinationUrl));
    expect(page.url()).toBe(`${destinationUrl}?ref=browser`);
    expect(await page.locator('h1').textContent()).toBe('You made it');
    expect(violations).toEqual([]);

    const shown = await t
      .http()
      .get(`/api/v1/links/${(created.body.data as { id: number }).id}`)
      .set('Authorization', account.auth);
    expect(shown.body.data.clicks).toBe(1);
    await page.close();
  });
});
