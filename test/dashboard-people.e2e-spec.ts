import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DASHBOARD_DIST } from '../src/dashboard/dashboard-ui';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { networkSettled } from './support/browser';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const haveChromium = existsSync(CHROMIUM);
const PASSWORD = 'correct horse battery';
type Role = 'owner' | 'admin' | 'editor' | 'viewer';

let serial = 0;
/** An email no other test of the run uses. */
function email(name: string): string {
  serial += 1;
  return `${name}-${process.pid}-${serial}@example.com`;
}

if (!haveChromium) {
  process.stderr.write(
    `dashboard people tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`,
  );
}

/*
 * People in the dashboard, in a real browser against the service: the owner signs in with an email and a password,
 * invites someone by the link the Members screen shows once; the invited person accepts it in another browser and
 * signs in; a viewer is offered no control that would change anything; the audit log shows each step.
 */
(haveChromium ? describe : describe.skip)('people in the dashboard, in a real browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let workspace: TestAccount;
  let ownerEmail: string;
  const invitedEmail = email('invited');

  /** A person of the workspace with `role`, made as the CLI makes them. */
  async function person(role: Role, name: string): Promise<string> {
    const address = email(role);
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: address, password: PASSWORD, name });
    await t.app.get(MembersService).add(workspace.id, user.id, role);
    return address;
  }

  async function browse(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    return { context, page: await context.newPage() };
  }

  /** Signs in on the sign-in screen with an email and a password; the app opens on its first screen. */
  async function signIn(page: Page, address: string, password = PASSWORD): Promise<void> {
    await page.goto(`${base}/app`);
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
  }

  /** The serious and critical findings of axe-core on the page, each as its rule and where. */
  async function accessibilityProblems(page: Page): Promise<string[]> {
    await page.evaluate(AXE);
    const found = await page.evaluate<string>(
      `axe.run(document).then((result) => JSON.stringify(result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => violation.id + ': ' + violation.nodes.map((node) => node.target).join(' '))))`,
    );
    return JSON.parse(found) as string[];
  }

  beforeAll(async () => {
    if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) {
      throw new Error('dashboard/dist is missing: the test setup builds it (npm run build)');
    }
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_MINUTE: '0' });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    workspace = await createAccount(t, 'People in the browser');
    ownerEmail = await person('owner', 'Olive Owner');
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs the owner in, who invites someone; they accept in another browser and sign in', async () => {
    const owner = await browse();
    await signIn(owner.page, ownerEmail);
    const [cookie] = await owner.context.cookies();
    expect(cookie).toMatchObject({ name: 'shortlink_session', httpOnly: true, sameSite: 'Strict' });
    expect(await owner.page.getByRole('link', { name: 'Olive Owner, your profile' }).count()).toBe(1);

    await owner.page.getByRole('link', { name: 'Members' }).click();
    await owner.page.getByRole('table', { name: 'Members' }).waitFor();
    await owner.page.getByRole('button', { name: 'Invite someone' }).click();
    const form = owner.page.getByRole('dialog', { name: 'Invite someone' });
    await form.getByLabel('Email').fill(invitedEmail);
    await form.getByLabel('Role').selectOption('editor');
    await form.getByRole('button', { name: 'Invite', exact: true }).click();
    const shown = owner.page.getByRole('dialog', { name: `Invitation for ${invitedEmail}` });
    const acceptUrl = new URL((await shown.getByTestId('secret').textContent()) ?? '');
    expect(await shown.textContent()).toContain('it is also emailed when the server has mail set up');
    expect(await accessibilityProblems(owner.page)).toEqual([]);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await owner.page
      .getByRole('table', { name: 'Pending invitations' })
      .getByRole('rowheader', { name: invitedEmail })
      .waitFor();
    expect(acceptUrl.pathname).toBe('/app/accept-invitation');

    // Another browser, signed out: the link's screen, on this service.
    const invited = await browse();
    await invited.page.goto(`${base}${acceptUrl.pathname}${acceptUrl.search}`);
    await invited.page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    expect(await accessibilityProblems(invited.page)).toEqual([]);
    await invited.page.getByLabel('Your name').fill('Ivy Invited');
    await invited.page.getByLabel('New password').fill(PASSWORD);
    await invited.page.getByRole('button', { name: 'Accept the invitation' }).click();
    await invited.page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    // An editor makes links.
    expect(await invited.page.getByRole('button', { name: 'New link' }).count()).toBeGreaterThan(0);

    await invited.page.getByRole('button', { name: 'Sign out' }).click();
    await invited.page.getByText('You are signed out.').waitFor();
    await signIn(invited.page, invitedEmail);
    await invited.page.getByRole('link', { name: 'Ivy Invited, your profile' }).click();
    await invited.page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    expect(await accessibilityProblems(invited.page)).toEqual([]);
    await invited.context.close();

    // The owner's list has the new member, and no pending invitation for them.
    await owner.page.reload();
    const members = owner.page.getByRole('table', { name: 'Members' });
    await members.getByRole('rowheader', { name: 'Ivy Invited' }).waitFor();
    expect(await members.getByRole('row').filter({ hasText: 'Ivy Invited' }).textContent()).toContain(
      'Editor',
    );
    await owner.page.getByText('No pending invitations.').waitFor();
    await owner.context.close();
  });

  it('offers a viewer no control that would change anything, and the API refuses a forced write', async () => {
    const viewer = await browse();
    await signIn(viewer.page, await person('viewer', 'Vic Viewer'));
    const nav = viewer.page.getByRole('navigation', { name: 'Main' }).getByRole('list');
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Links',
      'Analytics',
      'Spaces',
      'Tags',
      'UTM templates',
      'Domains',
      'Pixels',
      'Import and export',
      'Members',
      'Account',
    ]);
    for (const screen of [
      'links',
      'spaces',
      'tags',
      'utm-templates',
      'domains',
      'pixels',
      'transfer',
      'members',
      'account',
    ]) {
      await viewer.page.goto(`${base}/app/${screen}`);
      await viewer.page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
      await networkSettled(viewer.page);
      const writes = viewer.page
        .getByRole('main')
        .getByRole('button', { name: /^(New|Invite|Edit|Delete|Remove|Revoke|Import\b|Change)/ });
      expect(`${screen}: ${(await writes.allTextContents()).join(', ')}`).toBe(`${screen}: `);
    }
    const forced = await viewer.page.evaluate(async () => {
      const response = await fetch('/api/v1/invitations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shortlink-Session': '1' },
        body: JSON.stringify({ email: 'forced@example.com', role: 'owner' }),
      });
      return response.status;
    });
    expect(forced).toBe(403);
    await viewer.context.close();
  });

  it('lists the steps in the audit log, narrowed by its filters', async () => {
    const owner = await browse();
    await signIn(owner.page, ownerEmail);
    await owner.page.getByRole('link', { name: 'Audit log' }).click();
    const table = owner.page.getByRole('table', { name: 'Audit log' });
    await table.waitFor();
    const actions = await table.locator('code').allTextContents();
    for (const step of ['invitation.created', 'invitation.accepted', 'session.created']) {
      expect(actions).toContain(step);
    }
    expect(await accessibilityProblems(owner.page)).toEqual([]);

    await owner.page.getByLabel('Action').fill('invitation.accepted');
    await owner.page.waitForURL(/action=invitation\.accepted/);
    // Once the narrowed page has come, no other action is left in the table.
    await table
      .locator('code')
      .filter({ hasNotText: 'invitation.accepted' })
      .first()
      .waitFor({ state: 'detached' });
    expect(await table.locator('code').allTextContents()).toEqual(['invitation.accepted']);
    const accepted = await table.getByRole('row').filter({ hasText: 'invitation.accepted' }).textContent();
    expect(accepted).toContain('Ivy Invited');
    expect(accepted).toContain(`email: — → ${invitedEmail}`);

    const [download] = await Promise.all([
      owner.page.waitForEvent('download'),
      owner.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    await owner.context.close();
  });
});
