import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AccountsService } from '../src/auth/accounts.service';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) process.stderr.write(`single sign-on tests skipped: no Chromium at ${CHROMIUM}\n`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The issuer, in a process of its own, once it listens. */
async function startIssuer(port: number, redirectUri: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, 'support', 'oidc-issuer.mjs')], {
    env: { ...process.env, PORT: String(port), REDIRECT_URI: redirectUri, NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the issuer exited with ${code}`)));
  });
  return child;
}

/**
 * Single sign-on with OpenID Connect, end to end in Chromium against a real OpenID provider (oidc-provider) in a
 * process of its own: the authorization code flow with PKCE, a new user of an allowed domain joins the first
 * workspace with the default role, a known user signs in whatever their domain, and an unverified email or a
 * domain not allowed is refused.
 */
(haveChromium ? describe : describe.skip)('single sign-on in a real browser', () => {
  let t: TestApp;
  // A database of its own: an APP_URL of another host makes a system domain of its own, which the run's other
  // files would then see.
  let scratch: ScratchDatabase;
  let issuer: ChildProcess;
  let browser: Browser;
  let base: string;
  let first: TestAccount;

  beforeAll(async () => {
    const [port, issuerPort] = [await freePort(), await freePort()];
    base = `http://localhost:${port}`;
    issuer = await startIssuer(issuerPort, `${base}/api/v1/session/oidc/callback`);
    scratch = await scratchDatabase('shortlink_sso');
    t = await createTestApp({
      DATABASE_URL: scratch.url,
      APP_URL: base,
      RATE_LIMIT_PER_MINUTE: '0',
      OIDC_ISSUER_URL: `http://localhost:${issuerPort}`,
      OIDC_CLIENT_ID: 'shortlink',
      OIDC_CLIENT_SECRET: 'a client secret of the tests',
      OIDC_ALLOWED_DOMAINS: 'corp.example, other.example',
      OIDC_DEFAULT_ROLE: 'editor',
    });
    await t.app.listen(port, '127.0.0.1');
    // The first workspace is the one the run's first start made (or, on a database of its own, this file's).
    await createAccount(t, 'Not the first');
    const accounts = t.app.get(AccountsService);
    const account = (await accounts.findById((await accounts.firstWorkspaceId())!))!;
    const { apiKey } = await accounts.createKey(account);
    first = { id: account.id, name: account.name, apiKey, auth: `Bearer ${apiKey}` };
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    issuer?.kill();
    await t?.close();
    await scratch?.drop();
  });

  /** Goes through the issuer's sign-in and consent as `login`; the page where the browser lands, back here. */
  async function signInAs(login: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/api/v1/session/oidc`);
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', 'anything');
    await page.click('button[type="submit"]');
    // The issuer asks for consent once per person and client.
    if (await page.locator('button[type="submit"]').count()) await page.click('button[type="submit"]');
    await page.waitForURL(new RegExp(`^${base}/app/`));
    return page;
  }

  async function session(page: Page) {
    return page.evaluate(async () => {
      const response = await fetch('/api/v1/session', { headers: { 'X-Shortlink-Session': '1' } });
      return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
    });
  }

  it('says single sign-on is offered', async () => {
    const answer = await t.http().get('/api/v1/session/providers');
    expect(answer.body).toEqual({ data: { oidc: 1, registration: 0 }, status: 200 });
  });

  it('makes a new user of an allowed domain, a member of the first workspace with the default role', async () => {
    const page = await signInAs('dana@corp.example');
    expect(page.url()).toBe(`${base}/app/`);
    const answer = await session(page);
    expect(answer.status).toBe(200);
    expect(answer.body.data.user).toMatchObject({ email: 'dana@corp.example', name: 'Named dana' });
    expect(answer.body.data.workspace).toEqual({ id: first.id, name: first.name, role: 'editor' });
    const log = await t
      .http()
      .get('/api/v1/audit-log?action=session.created')
      .set('Authorization', first.auth);
    expect(log.body.data[0]).toMatchObject({ actor: { type: 'user', name: 'Named dana' } });
  });

  it('signs in a user already known, whatever their domain, in their own workspace', async () => {
    const elsewhere = await createAccount(t, 'Elsewhere');
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: 'kim@partner.example', password: 'a fine long password', name: 'Kim' });
    await t.app.get(MembersService).add(elsewhere.id, user.id, 'viewer');
    const answer = await session(await signInAs('kim@partner.example'));
    expect(answer.body.data.workspace).toEqual({ id: elsewhere.id, name: 'Elsewhere', role: 'viewer' });
  });

  it('refuses a domain not allowed and an unverified email, with no session', async () => {
    for (const login of ['eve@elsewhere.example', 'unverified@corp.example']) {
      const page = await signInAs(login);
      expect(page.url()).toBe(`${base}/app/?sso=failed`);
      expect((await session(page)).status).toBe(401);
    }
  });

  it('refuses a way back that this service did not start (a made-up state)', async () => {
    const answer = await t.http().get('/api/v1/session/oidc/callback?code=x&state=made-up');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/app/?sso=failed');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });
});
