import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { AuditService } from '../src/audit/audit.service';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { UNAUTHENTICATED } from './support/contract';
import { startMailbox, type Mailbox } from './support/mailbox';

const FORBIDDEN = { message: 'This action is unauthorized.', status: 403 };
/** What the dashboard sends with every request it makes with its session. */
const PROOF = { 'X-Shortlink-Session': '1' };
const PASSWORD = 'correct horse battery';

let serial = 0;
/** An email no other test uses. */
function email(name: string): string {
  serial += 1;
  return `${name}-${process.pid}-${serial}@example.com`;
}

/** The cookie pair a sign-in's answer sets, to send back. */
function cookieOf(response: Response): string {
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  return (setCookie[0] ?? '').split(';')[0];
}

/**
 * People (contract §11): a workspace's owner invites by email, the invited person accepts and signs in, roles
 * limit what each may do, a removed member's sessions end at once on every instance, and the audit log records
 * each step with nothing secret in it.
 */
describe('people: invitations, sign-in, roles, removal and the audit log', () => {
  let t: TestApp;
  let other: TestApp;
  let mailbox: Mailbox;
  let workspace: TestAccount;
  let ownerEmail: string;
  let ownerCookie: string;

  /** A request with a session cookie, as the dashboard makes it. */
  const as = (cookie: string, app: TestApp = t) => ({
    get: (path: string) => app.http().get(path).set('Cookie', cookie).set(PROOF),
    delete: (path: string) => app.http().delete(path).set('Cookie', cookie).set(PROOF),
    post: (path: string, body: object) => app.http().post(path).set('Cookie', cookie).set(PROOF).send(body),
    patch: (path: string, body: object) => app.http().patch(path).set('Cookie', cookie).set(PROOF).send(body),
    put: (path: string, body: object) => app.http().put(path).set('Cookie', cookie).set(PROOF).send(body),
  });

  async function signIn(address: string, password = PASSWORD, extra: object = {}): Promise<Response> {
    return t
      .http()
      .post('/api/v1/session')
      .send({ email: address, password, ...extra });
  }

  /** A user of the workspace with `role`, made as the CLI makes them; their cookie. */
  async function member(role: 'owner' | 'admin' | 'editor' | 'viewer', account = workspace) {
    const address = email(role);
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: address, password: PASSWORD, name: role });
    await t.app.get(MembersService).add(account.id, user.id, role);
    const response = await signIn(address, PASSWORD, { workspace_id: account.id });
    expect(response.status).toBe(201);
    return { id: user.id, email: address, cookie: cookieOf(response) };
  }

  /** Invites `address` as `role` with the cookie; the token of its link. */
  async function invite(cookie: string, address: string, role: string): Promise<string> {
    const response = await as(cookie).post('/api/v1/invitations', { email: address, role });
    expect(response.status).toBe(201);
    return new URL(response.body.data.accept_url as string).searchParams.get('token')!;
  }

  beforeAll(async () => {
    mailbox = await startMailbox();
    const env = { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: mailbox.url, MAIL_FROM: 'Short <no-reply@sho.rt>' };
    t = await createTestApp(env);
    other = await createTestApp(env);
    workspace = await createAccount(t, 'People');
    const owner = await member('owner');
    ownerEmail = owner.email;
    ownerCookie = owner.cookie;
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await mailbox?.close();
  });

  it('signs a person in with their email and password: their role, their workspaces, a session cookie', async () => {
    const response = await signIn(ownerEmail);
    expect(response.status).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['set-cookie']?.[0]).toMatch(
      /^shortlink_session=lss_[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
    );
    const { data } = response.body;
    expect(data.user).toEqual({ id: expect.any(Number), name: 'owner', email: ownerEmail });
    expect(data.workspace).toEqual({ id: workspace.id, name: 'People', role: 'owner' });
    expect(data.workspaces).toEqual([{ id: workspace.id, name: 'People', role: 'owner' }]);
    expect(data.key).toBeNull();
    expect(data.scopes).toEqual(expect.arrayContaining(['members.write', 'audit.read', 'links.write']));
    expect(data.space_ids).toEqual([]);
    expect(JSON.stringify(response.body)).not.toContain(PASSWORD);
  });

  it('answers a wrong password and an unknown email alike: 422 on email, the same message', async () => {
    const wrong = await signIn(ownerEmail, 'not the password');
    const unknown = await signIn(email('nobody'), 'not the password');
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(wrong.body).toEqual({
      message: { email: ['These credentials do not match our records.'] },
      status: 422,
    });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('names every bad field of a sign-in', async () => {
    const response = await t
      .http()
      .post('/api/v1/session')
      .send({ email: 'not-an-email', workspace_id: 'x' });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message as object).sort()).toEqual([
      'email',
      'password',
      'workspace_id',
    ]);
  });

  it('invites by email (link in the answer and in the mail), accepts once, and signs the new member in', async () => {
    const address = email('invited');
    const created = await as(ownerCookie).post('/api/v1/invitations', { email: address, role: 'editor' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        id: expect.any(Number),
        email: address,
        role: 'editor',
        expires_at: expect.stringMatching(/Z$/),
        created_at: expect.stringMatching(/Z$/),
        accept_url: expect.stringMatching(
          /^http:\/\/localhost:3000\/app\/accept-invitation\?token=lsi_[\w-]{43}$/,
        ),
      },
      status: 200,
    });
    const mail = await mailbox.next(address);
    expect(mail.from).toContain('no-reply@sho.rt');
    expect(mail.text).toContain(created.body.data.accept_url);
    const token = new URL(created.body.data.accept_url as string).searchParams.get('token')!;

    const pending = await as(ownerCookie).get('/api/v1/invitations');
    expect(pending.status).toBe(200);
    expect((pending.body.data as { email: string }[]).map((one) => one.email)).toContain(address);
    expect(JSON.stringify(pending.body)).not.toContain(token);

    const accepted = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token, name: 'Ivy', password: PASSWORD });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.workspace).toEqual({ id: workspace.id, name: 'People', role: 'editor' });
    expect(accepted.body.data.user).toMatchObject({ name: 'Ivy', email: address });
    const again = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token, name: 'Ivy', password: PASSWORD });
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.message as object)).toEqual(['token']);

    const signedIn = await signIn(address);
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.data.workspace.role).toBe('editor');
  });

  it('refuses a made-up, a revoked and a short invitation password', async () => {
    const madeUp = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: `lsi_${'A'.repeat(43)}`, name: 'X', password: PASSWORD });
    expect(madeUp.status).toBe(422);
    expect(Object.keys(madeUp.body.message as object)).toEqual(['token']);

    const address = email('revoked');
    const created = await as(ownerCookie).post('/api/v1/invitations', { email: address, role: 'viewer' });
    const revoked = await as(ownerCookie).delete(`/api/v1/invitations/${created.body.data.id}`);
    expect(revoked.body).toEqual({
      id: created.body.data.id,
      object: 'invitation',
      deleted: true,
      status: 200,
    });
    const token = new URL(created.body.data.accept_url as string).searchParams.get('token')!;
    const late = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token, name: 'X', password: PASSWORD });
    expect(late.status).toBe(422);

    const short = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token: 'x', name: 'X', password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.message.password).toEqual([
      'The password field must be between 10 and 256 characters.',
    ]);
  });

  it('validates an invitation: email and role named, an unknown role refused', async () => {
    const response = await as(ownerCookie).post('/api/v1/invitations', { email: 'nope', role: 'king' });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message as object).sort()).toEqual(['email', 'role']);
  });

  it('limits each role to its scopes: a viewer reads, an editor writes links but not members', async () => {
    const viewer = await member('viewer');
    expect((await as(viewer.cookie).get('/api/v1/links')).status).toBe(200);
    expect((await as(viewer.cookie).get('/api/v1/members')).status).toBe(200);
    const write = await as(viewer.cookie).post('/api/v1/links', { url: 'https://example.com/viewer' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(FORBIDDEN);
    expect((await as(viewer.cookie).get('/api/v1/keys')).status).toBe(403);
    expect((await as(viewer.cookie).get('/api/v1/audit-log')).status).toBe(403);

    const editor = await member('editor');
    expect(
      (await as(editor.cookie).post('/api/v1/links', { url: 'https://example.com/editor' })).status,
    ).toBe(201);
    expect(
      (await as(editor.cookie).post('/api/v1/invitations', { email: email('x'), role: 'viewer' })).status,
    ).toBe(403);
    expect((await as(editor.cookie).patch(`/api/v1/members/${viewer.id}`, { role: 'editor' })).status).toBe(
      403,
    );
    expect((await as(editor.cookie).get('/api/v1/audit-log')).status).toBe(403);
  });

  it('keeps owners to owners: an admin cannot invite, make, demote or remove one', async () => {
    const admin = await member('admin');
    const owner2 = await member('owner');
    const viewer = await member('viewer');
    expect(
      (await as(admin.cookie).post('/api/v1/invitations', { email: email('o'), role: 'owner' })).body,
    ).toEqual(FORBIDDEN);
    expect((await as(admin.cookie).patch(`/api/v1/members/${viewer.id}`, { role: 'owner' })).status).toBe(
      403,
    );
    expect((await as(admin.cookie).patch(`/api/v1/members/${owner2.id}`, { role: 'admin' })).status).toBe(
      403,
    );
    expect((await as(admin.cookie).delete(`/api/v1/members/${owner2.id}`)).status).toBe(403);
    // What an admin may do: change the others.
    const changed = await as(admin.cookie).patch(`/api/v1/members/${viewer.id}`, { role: 'editor' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: viewer.id, role: 'editor', two_factor: 0 });
  });

  it('keeps the last owner: demoting or removing them is a 422 on role', async () => {
    const solo = await createAccount(t, 'Solo');
    const owner = await member('owner', solo);
    const demote = await as(owner.cookie).patch(`/api/v1/members/${owner.id}`, { role: 'admin' });
    expect(demote.status).toBe(422);
    expect(Object.keys(demote.body.message as object)).toEqual(['role']);
    const remove = await as(owner.cookie).delete(`/api/v1/members/${owner.id}`);
    expect(remove.status).toBe(422);
  });

  it("answers 404 for another workspace's member and invitation", async () => {
    const elsewhere = await createAccount(t, 'Elsewhere');
    const stranger = await member('viewer', elsewhere);
    expect((await as(ownerCookie).patch(`/api/v1/members/${stranger.id}`, { role: 'editor' })).status).toBe(
      404,
    );
    expect((await as(ownerCookie).delete(`/api/v1/members/${stranger.id}`)).status).toBe(404);
    expect((await as(ownerCookie).get(`/api/v1/members/${stranger.id}`)).status).toBe(404);
    const theirOwner = await member('owner', elsewhere);
    const theirs = await as(theirOwner.cookie).post('/api/v1/invitations', {
      email: email('t'),
      role: 'viewer',
    });
    expect((await as(ownerCookie).delete(`/api/v1/invitations/${theirs.body.data.id}`)).status).toBe(404);
  });

  it("ends a removed member's sessions at once, on another instance too", async () => {
    const leaving = await member('editor');
    expect((await as(leaving.cookie, other).get('/api/v1/links')).status).toBe(200);
    const removed = await as(ownerCookie).delete(`/api/v1/members/${leaving.id}`);
    expect(removed.body).toEqual({ id: leaving.id, object: 'member', deleted: true, status: 200 });
    const after = await as(leaving.cookie, other).get('/api/v1/links');
    expect(after.status).toBe(401);
    expect(after.body).toEqual(UNAUTHENTICATED);
    expect((await as(leaving.cookie).get('/api/v1/session')).status).toBe(401);
  });

  it('switches a user between their workspaces', async () => {
    const second = await createAccount(t, 'Second');
    const both = await member('viewer');
    const user = await t.app.get(UsersService).findByEmail(both.email);
    await t.app.get(MembersService).add(second.id, user!.id, 'admin');
    const switched = await as(both.cookie).put('/api/v1/session', { workspace_id: second.id });
    expect(switched.status).toBe(200);
    expect(switched.body.data.workspace).toEqual({ id: second.id, name: 'Second', role: 'admin' });
    expect((switched.body.data.workspaces as { id: number }[]).map((one) => one.id)).toEqual([
      workspace.id,
      second.id,
    ]);
    expect((await as(both.cookie).get('/api/v1/account')).body.data.id).toBe(second.id);
    const foreign = await as(both.cookie).put('/api/v1/session', {
      workspace_id: (await createAccount(t)).id,
    });
    expect(foreign.status).toBe(422);
  });

  it("lets a member's key do no more than the member, and expire only when asked", async () => {
    const editor = await member('editor');
    const beyond = await as(editor.cookie).post('/api/v1/keys', {
      name: 'too much',
      scopes: ['members.write'],
    });
    expect(beyond.status).toBe(422);
    const made = await as(editor.cookie).post('/api/v1/keys', { name: 'links', scopes: ['links.write'] });
    expect(made.status).toBe(201);
    expect(made.body.data.expires_at).toBeNull();
  });

  it('shows and changes the user; a new password ends their other sessions', async () => {
    const person = await member('viewer');
    const second = cookieOf(await signIn(person.email));
    const me = await as(person.cookie).get('/api/v1/user');
    expect(me.body.data).toEqual({
      id: person.id,
      name: 'viewer',
      email: person.email,
      two_factor: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const sessions = await as(person.cookie).get('/api/v1/user/sessions');
    expect(sessions.body.data).toHaveLength(2);
    expect((sessions.body.data as { current: number }[]).filter((one) => one.current === 1)).toHaveLength(1);

    const noCurrent = await as(person.cookie).patch('/api/v1/user', { password: 'another fine password' });
    expect(noCurrent.status).toBe(422);
    expect(Object.keys(noCurrent.body.message as object)).toEqual(['current_password']);
    const changed = await as(person.cookie).patch('/api/v1/user', {
      name: 'Vic',
      password: 'another fine password',
      current_password: PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.name).toBe('Vic');
    expect((await as(person.cookie).get('/api/v1/user')).status).toBe(200);
    expect((await as(second).get('/api/v1/user')).status).toBe(401);
    expect((await signIn(person.email)).status).toBe(422);
    expect((await signIn(person.email, 'another fine password')).status).toBe(201);
  });

  it('resets a forgotten password by the mailed link, once; every session ends', async () => {
    const person = await member('viewer');
    const forgot = await t.http().post('/api/v1/password/forgot').send({ email: person.email });
    expect(forgot.status).toBe(202);
    const unknown = await t
      .http()
      .post('/api/v1/password/forgot')
      .send({ email: email('ghost') });
    expect(unknown.status).toBe(202);
    // The same answer either way: the email as given.
    expect(forgot.body).toEqual({ data: { email: person.email }, status: 200 });
    expect(unknown.body).toEqual({ data: { email: unknown.body.data.email as string }, status: 200 });
    const mail = await mailbox.next(person.email);
    const link = /https?:\/\/\S+reset-password\?token=(lsr_[\w-]{43})/.exec(mail.text);
    expect(link).not.toBeNull();
    const reset = await t
      .http()
      .post('/api/v1/password/reset')
      .send({ token: link![1], password: 'a brand new password' });
    expect(reset.status).toBe(200);
    expect((await as(person.cookie).get('/api/v1/user')).status).toBe(401);
    const twice = await t
      .http()
      .post('/api/v1/password/reset')
      .send({ token: link![1], password: 'a brand new password' });
    expect(twice.status).toBe(422);
    expect((await signIn(person.email, 'a brand new password')).status).toBe(201);
  });

  it('refuses registration while it is closed', async () => {
    const response = await t
      .http()
      .post('/api/v1/users')
      .send({ name: 'Reg', email: email('reg'), password: PASSWORD });
    expect(response.status).toBe(403);
  });

  it('records each step in the audit log, with who and from where, and nothing secret', async () => {
    const address = email('audited');
    const token = await invite(ownerCookie, address, 'viewer');
    const accepted = await t
      .http()
      .post('/api/v1/invitations/accept')
      .send({ token, name: 'Aud', password: PASSWORD });
    const userId = accepted.body.data.user.id as number;
    const link = await as(ownerCookie).post('/api/v1/links', {
      url: 'https://example.com/audited',
      password: 'visitor secret',
    });
    await as(ownerCookie).patch(`/api/v1/links/${link.body.data.id}`, { url: 'https://example.com/changed' });
    await as(ownerCookie).delete(`/api/v1/members/${userId}`);

    const log = await as(ownerCookie).get('/api/v1/audit-log?per_page=100');
    expect(log.status).toBe(200);
    const entries = log.body.data as {
      action: string;
      actor: { type: string; id: number };
      target: { type: string; id: number };
      changes: Record<string, unknown[]>;
      ip: string;
    }[];
    const actions = entries.map((entry) => entry.action);
    for (const action of [
      'invitation.created',
      'invitation.accepted',
      'session.created',
      'link.created',
      'link.updated',
      'member.removed',
    ]) {
      expect(actions).toContain(action);
    }
    const updated = entries.find(
      (entry) => entry.action === 'link.updated' && entry.target.id === link.body.data.id,
    )!;
    expect(updated.changes.url).toEqual(['https://example.com/audited', 'https://example.com/changed']);
    expect(updated.actor).toMatchObject({ type: 'user', name: 'owner' });
    expect(updated.ip).toMatch(/127\.0\.0\.1/);
    const created = entries.find(
      (entry) => entry.action === 'link.created' && entry.target.id === link.body.data.id,
    )!;
    expect(created.changes.password).toEqual([null, '[redacted]']);
    const removed = entries.find((entry) => entry.action === 'member.removed')!;
    expect(removed.target).toEqual({ type: 'member', id: userId });
    const text = JSON.stringify(log.body);
    for (const secret of [PASSWORD, 'visitor secret', token]) expect(text).not.toContain(secret);

    const filtered = await as(ownerCookie).get(
      `/api/v1/audit-log?action=member.removed&target_type=member&target_id=${userId}`,
    );
    expect(filtered.body.data).toHaveLength(1);
    const csv = await as(ownerCookie).get('/api/v1/audit-log/export?action=link.updated');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('validates the audit log filters', async () => {
    const response = await as(ownerCookie).get(
      '/api/v1/audit-log?actor_type=robot&from=2026-02-30&per_page=7',
    );
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message as object).sort()).toEqual(['actor_type', 'from', 'per_page']);
  });

  it('blocks an email after ten failed sign-ins, the right password too; success is never counted', async () => {
    const person = await member('viewer');
    for (let attempt = 0; attempt < 15; attempt += 1) expect((await signIn(person.email)).status).toBe(201);
    const answers: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      answers.push((await signIn(person.email, `guess number ${attempt}`)).status);
    }
    // Ten failures are answered; the eleventh passes the limit, and from then on every attempt waits.
    expect(answers).toEqual([...Array<number>(10).fill(422), 429]);
    const right = await signIn(person.email);
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(800);
    expect(right.body).toEqual({ message: 'Too Many Attempts.', status: 429 });
  });
});

/** Two-factor sign-in (RFC 6238) with recovery codes, and a workspace that requires a second factor. */
describe('people: two-factor sign-in', () => {
  let t: TestApp;
  let workspace: TestAccount;
  const as = (cookie: string) => ({
    get: (path: string) => t.http().get(path).set('Cookie', cookie).set(PROOF),
    post: (path: string, body: object = {}) =>
      t.http().post(path).set('Cookie', cookie).set(PROOF).send(body),
    put: (path: string, body: object) => t.http().put(path).set('Cookie', cookie).set(PROOF).send(body),
  });
  const signIn = (address: string, extra: object = {}) =>
    t
      .http()
      .post('/api/v1/session')
      .send({ email: address, password: PASSWORD, ...extra });

  async function member(role: 'owner' | 'editor') {
    const address = email(`tf-${role}`);
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: address, password: PASSWORD });
    await t.app.get(MembersService).add(workspace.id, user.id, role);
    return { id: user.id, email: address, cookie: cookieOf(await signIn(address)) };
  }

  /** The code an authenticator app shows for `secret`, `steps` periods from now. */
  function code(secret: string, steps = 0): string {
    return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
      timestamp: Date.now() + steps * 30_000,
    });
  }

  /** Turns two-factor on for the cookie's user: the secret and the recovery codes. */
  async function turnOn(cookie: string) {
    const started = await as(cookie).post('/api/v1/user/two-factor');
    expect(started.status).toBe(201);
    const secret = started.body.data.secret as string;
    expect(started.body.data.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    const confirmed = await as(cookie).post('/api/v1/user/two-factor/confirm', { otp: code(secret) });
    expect(confirmed.status).toBe(200);
    return { secret, codes: confirmed.body.data.recovery_codes as string[] };
  }

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    workspace = await createAccount(t, 'Two factor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('turns on with a confirmed code; then asks every sign-in for a code, each good once', async () => {
    const person = await member('editor');
    const wrongFirst = await as(person.cookie).post('/api/v1/user/two-factor/confirm', { otp: '000000' });
    expect(wrongFirst.status).toBe(422);
    const { secret, codes } = await turnOn(person.cookie);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const one of codes) expect(one).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect((await as(person.cookie).get('/api/v1/user')).body.data.two_factor).toBe(1);
    expect((await as(person.cookie).post('/api/v1/user/two-factor')).status).toBe(422);

    const missing = await signIn(person.email);
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ message: { otp: ['The otp field is required.'] }, status: 422 });
    expect((await signIn(person.email, { otp: '123' })).body.message).toEqual({
      otp: ['The code is incorrect.'],
    });
    // The confirming code's step is used: the next step's code signs in, once.
    const next = code(secret, 1);
    expect((await signIn(person.email, { otp: next })).status).toBe(201);
    expect((await signIn(person.email, { otp: next })).status).toBe(422);

    expect((await signIn(person.email, { otp: codes[0].toLowerCase().replace(/-/g, '') })).status).toBe(201);
    expect((await signIn(person.email, { otp: codes[0] })).status).toBe(422);
    // A wrong password is still the email's refusal: the code is asked only of the right one.
    const wrong = await t
      .http()
      .post('/api/v1/session')
      .send({ email: person.email, password: 'not it at all' });
    expect(Object.keys(wrong.body.message as object)).toEqual(['email']);

    const renewed = await as(person.cookie).post('/api/v1/user/two-factor/recovery-codes', {
      current_password: PASSWORD,
    });
    expect(renewed.status).toBe(200);
    expect((await signIn(person.email, { otp: codes[1] })).status).toBe(422);
    expect((await signIn(person.email, { otp: renewed.body.data.recovery_codes[0] as string })).status).toBe(
      201,
    );

    const badOff = await as(person.cookie).post('/api/v1/user/two-factor/disable', {
      current_password: 'wrong one',
    });
    expect(Object.keys(badOff.body.message as object)).toEqual(['current_password']);
    const off = await as(person.cookie).post('/api/v1/user/two-factor/disable', {
      current_password: PASSWORD,
    });
    expect(off.body.data.two_factor).toBe(0);
    expect((await signIn(person.email)).status).toBe(201);
  });

  it('lets an owner require a second factor: a member without one keeps only their own routes', async () => {
    const owner = await member('owner');
    const editor = await member('editor');
    expect((await as(editor.cookie).put('/api/v1/account/two-factor', { required: 1 })).status).toBe(403);
    const set = await as(owner.cookie).put('/api/v1/account/two-factor', { required: 1 });
    expect(set.body).toEqual({ data: { required: 1 }, status: 200 });

    const barred = cookieOf(await signIn(editor.email));
    expect((await as(barred).get('/api/v1/session')).body.data.scopes).toEqual([]);
    expect((await as(barred).get('/api/v1/links')).status).toBe(403);
    expect((await as(barred).get('/api/v1/user')).status).toBe(200);
    const { secret } = await turnOn(barred);
    const full = await signIn(editor.email, { otp: code(secret, 1) });
    expect(full.body.data.scopes).toContain('links.write');
    expect((await as(cookieOf(full)).get('/api/v1/links')).status).toBe(200);

    const log = await t
      .http()
      .get('/api/v1/audit-log?action=account.updated')
      .set('Authorization', workspace.auth);
    expect(log.body.data[0]).toMatchObject({
      actor: { type: 'user', id: owner.id },
      target: { type: 'account', id: workspace.id },
      changes: { require_two_factor: [false, true] },
    });
    await as(owner.cookie).put('/api/v1/account/two-factor', { required: 0 });
  });

  it('never answers or records the secret or the codes', async () => {
    const person = await member('editor');
    const { secret, codes } = await turnOn(person.cookie);
    const log = await t.http().get('/api/v1/audit-log?per_page=100').set('Authorization', workspace.auth);
    const text =
      JSON.stringify(log.body) + JSON.stringify((await as(person.cookie).get('/api/v1/user')).body);
    expect(text).not.toContain(secret);
    for (const one of codes) expect(text).not.toContain(one);
    expect((log.body.data as { action: string }[]).map((entry) => entry.action)).toContain(
      'user.two_factor_enabled',
    );
  });
});

/** Open registration, and the audit log's retention. */
describe('people: registration and retention', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', REGISTRATION: 'open', AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers a user who owns a workspace of their own, once per email', async () => {
    const address = email('registered');
    const made = await t
      .http()
      .post('/api/v1/users')
      .send({ name: 'Reg Istered', email: address, password: PASSWORD });
    expect(made.status).toBe(201);
    expect(made.body.data.user).toMatchObject({ name: 'Reg Istered', email: address });
    expect(made.body.data.workspace).toMatchObject({ name: 'Reg Istered', role: 'owner' });
    expect(cookieOf(made)).toMatch(/^shortlink_session=lss_/);
    const providers = await t.http().get('/api/v1/session/providers');
    expect(providers.body.data).toEqual({ oidc: 0, registration: 1 });

    const again = await t
      .http()
      .post('/api/v1/users')
      .send({ name: 'Other', email: address, password: PASSWORD });
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.message as object)).toEqual(['email']);
    const bad = await t.http().post('/api/v1/users').send({ name: '', email: 'x', password: 'short' });
    expect(Object.keys(bad.body.message as object).sort()).toEqual(['email', 'name', 'password']);
    const same = email('same');
    const sameAsEmail = await t
      .http()
      .post('/api/v1/users')
      .send({ name: 'Same', email: same, password: same });
    expect(sameAsEmail.body.message).toEqual({ password: ['The password must not be the email address.'] });
  });

  it('removes audit entries older than AUDIT_RETENTION_DAYS, and keeps the others', async () => {
    const account = await createAccount(t, 'Retention');
    await t.http().post('/api/v1/spaces').set('Authorization', account.auth).send({ name: 'Kept' });
    await t.dataSource.query(
      `INSERT INTO audit_log (account_id, action, actor_type, target_type, changes, created_at)
       VALUES ($1, 'space.created', 'cli', 'space', '{}', now() - interval '31 days')`,
      [account.id],
    );
    const before = await t.http().get('/api/v1/audit-log').set('Authorization', account.auth);
    expect(before.body.meta.total).toBe(2);
    expect(await t.app.get(AuditService).prune(new Date())).toBeGreaterThanOrEqual(1);
    const after = await t.http().get('/api/v1/audit-log').set('Authorization', account.auth);
    expect(after.body.meta.total).toBe(1);
    expect(after.body.data[0]).toMatchObject({ action: 'space.created', actor: { type: 'key' } });
  });
});

/** Behind a trusted proxy, the audit log records the address it forwards, and nothing else. */
describe('people: the address a trusted proxy forwards', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records an address as forwarded, and no address where the proxy forwarded something else', async () => {
    const account = await createAccount(t, 'Proxied');
    const create = (forwarded: string, name: string) =>
      t
        .http()
        .post('/api/v1/spaces')
        .set('Authorization', account.auth)
        .set('X-Forwarded-For', forwarded)
        .send({ name });
    expect((await create('203.0.113.9', 'Forwarded')).status).toBe(201);
    // Longer than any address column: it was written as given, and the change failed with 500.
    expect((await create('\u00e2\u00ac'.repeat(250), 'Garbled')).status).toBe(201);

    const log = await t
      .http()
      .get('/api/v1/audit-log?action=space.created')
      .set('Authorization', account.auth);
    const ips = (log.body.data as { changes: { name: [null, string] }; ip: string | null }[]).map((entry) => [
      entry.changes.name[1],
      entry.ip,
    ]);
    expect(ips.sort()).toEqual([
      ['Forwarded', '203.0.113.9'],
      ['Garbled', null],
    ]);
  });
});
