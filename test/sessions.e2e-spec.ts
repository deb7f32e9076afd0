import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { UNAUTHENTICATED } from './support/contract';

/** The contract's refusal of a request that may not do what it asks. */
const FORBIDDEN = { message: 'This action is unauthorized.', status: 403 };
/** What the dashboard sends with every request it makes with its session. */
const PROOF = { 'X-Shortlink-Session': '1' };

/**
 * The dashboard's sessions: a key sent once as a bearer becomes a cookie that carries no key, has exactly the key's
 * scopes, is refused without the dashboard's same-origin proof, and ends when it expires, is signed out, or its key
 * is revoked or expires.
 */
describe('dashboard sessions', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', SESSION_TTL_HOURS: '12' });
    owner = await createAccount(t, 'Sessions');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Signs in with `auth` (an Authorization value); returns the answer and the cookie pair to send back. */
  async function signIn(auth: string) {
    const response = await t.http().post('/api/v1/session').set('Authorization', auth);
    const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    return { response, setCookie: setCookie[0] ?? '', cookie: (setCookie[0] ?? '').split(';')[0] };
  }

  /** A key of the owner with these scopes. */
  async function keyWith(scopes: string[], extra: Record<string, unknown> = {}) {
    const response = await t
      .http()
      .post('/api/v1/keys')
      .set('Authorization', owner.auth)
      .send({ name: `Key ${scopes.join(' ')}`, scopes, ...extra });
    expect(response.status).toBe(201);
    return response.body.data as { id: number; key: string };
  }

  it('exchanges a key for an HttpOnly, SameSite=Strict cookie that carries no key, with its scopes', async () => {
    const key = await keyWith(['links.write', 'stats.read']);
    const { response, setCookie, cookie } = await signIn(`Bearer ${key.key}`);
    expect(response.status).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(setCookie).toMatch(
      /^shortlink_session=lss_[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43\d{3}; HttpOnly; SameSite=Strict$/,
    );
    expect(setCookie).not.toContain(key.key);
    expect(JSON.stringify(response.body)).not.toContain(cookie.split('=')[1]);
    expect(response.body).toEqual({
      data: {
        scopes: ['links.read', 'links.write', 'stats.read'],
        space_ids: [],
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d/),
        key: { id: key.id, name: 'Key links.write stats.read', prefix: key.key.slice(0, 8) },
        // A key's session is no person's: its workspace is the key's account, without a role.
        user: null,
        workspace: { id: owner.id, name: owner.name, role: null },
        workspaces: [],
      },
      status: 200,
    });

    const links = await t.http().get('/api/v1/links').set('Cookie', cookie).set(PROOF);
    expect(links.status).toBe(200);
    const shown = await t.http().get('/api/v1/session').set('Cookie', cookie).set(PROOF);
    expect(shown.status).toBe(200);
    expect(shown.body.data.scopes).toEqual(['links.read', 'links.write', 'stats.read']);
  });

  it('gives a read-only key a read-only session: a write is refused', async () => {
    const key = await keyWith(['links.read']);
    const { cookie } = await signIn(`Bearer ${key.key}`);
    const read = await t.http().get('/api/v1/links').set('Cookie', cookie).set(PROOF);
    expect(read.status).toBe(200);
    const write = await t
      .http()
      .post('/api/v1/links')
      .set('Cookie', cookie)
      .set(PROOF)
      .send({ url: 'https://example.com/forced' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(FORBIDDEN);
    const spaces = await t.http().get('/api/v1/spaces').set('Cookie', cookie).set(PROOF);
    expect(spaces.status).toBe(403);
  });

  it('refuses the cookie without the proof header, from another origin or an opaque one, or from another site', async () => {
    const { cookie } = await signIn(owner.auth);
    const without = await t.http().get('/api/v1/links').set('Cookie', cookie);
    expect(without.status).toBe(403);
    expect(without.body).toEqual(FORBIDDEN);
    const foreign = await t
      .http()
      .post('/api/v1/links')
      .set('Cookie', cookie)
      .set(PROOF)
      .set('Origin', 'https://evil.example')
      .send({ url: 'https://example.com/csrf' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(FORBIDDEN);
    const crossSite = await t
      .http()
      .get('/api/v1/links')
      .set('Cookie', cookie)
      .set(PROOF)
      .set('Sec-Fetch-Site', 'cross-site');
    expect(crossSite.status).toBe(403);
    // An opaque origin: a sandboxed visitor page of this very host, which the dashboard never is.
    const opaque = await t
      .http()
      .post('/api/v1/keys')
      .set('Cookie', cookie)
      .set(PROOF)
      .set('Origin', 'null')
      .send({ name: 'From a visitor page', scopes: ['links.read'] });
    expect(opaque.status).toBe(403);
    expect(opaque.body).toEqual(FORBIDDEN);
    const ownOrigin = await t
      .http()
      .get('/api/v1/links')
      .set('Cookie', cookie)
      .set(PROOF)
      .set('Host', 'links.example')
      .set('Origin', 'http://links.example')
      .set('Sec-Fetch-Site', 'same-origin');
    expect(ownOrigin.status).toBe(200);
    const appUrlOrigin = await t
      .http()
      .get('/api/v1/links')
      .set('Cookie', cookie)
      .set(PROOF)
      .set('Origin', 'http://localhost:3000');
    expect(appUrlOrigin.status).toBe(200);
  });

  it('answers 401 to a wrong key, a made-up cookie and no credentials at all', async () => {
    const wrong = await signIn('Bearer lsk_wrong');
    expect(wrong.response.status).toBe(401);
    expect(wrong.response.body).toEqual(UNAUTHENTICATED);
    expect(wrong.setCookie).toBe('');
    const madeUp = await t
      .http()
      .get('/api/v1/session')
      .set('Cookie', `shortlink_session=lss_${'A'.repeat(43)}`)
      .set(PROOF);
    expect(madeUp.status).toBe(401);
    expect(madeUp.body).toEqual(UNAUTHENTICATED);
    // Without a key, a sign-in is a person's: its email and password are missing.
    const nothing = await t.http().post('/api/v1/session');
    expect(nothing.status).toBe(422);
    expect(Object.keys(nothing.body.message as object).sort()).toEqual(['email', 'password']);
    expect(nothing.headers['set-cookie']).toBeUndefined();
  });

  it('lets a key sign in, not a session: its cookie alone is a sign-in without credentials', async () => {
    const { cookie } = await signIn(owner.auth);
    const again = await t.http().post('/api/v1/session').set('Cookie', cookie).set(PROOF);
    expect(again.status).toBe(422);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('ends at sign-out: the cookie is removed and no longer works', async () => {
    const { cookie } = await signIn(owner.auth);
    const out = await t.http().delete('/api/v1/session').set('Cookie', cookie).set(PROOF);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ id: expect.any(Number), object: 'session', deleted: true, status: 200 });
    expect(out.headers['set-cookie']).toEqual([
      'shortlink_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict',
    ]);
    const after = await t.http().get('/api/v1/links').set('Cookie', cookie).set(PROOF);
    expect(after.status).toBe(401);
  });

  it('ends when its key is revoked or expires, and when it expires itself', async () => {
    const revoked = await keyWith(['links.read']);
    const first = await signIn(`Bearer ${revoked.key}`);
    const revoke = await t.http().delete(`/api/v1/keys/${revoked.id}`).set('Authorization', owner.auth);
    expect(revoke.status).toBe(200);
    expect((await t.http().get('/api/v1/links').set('Cookie', first.cookie).set(PROOF)).status).toBe(401);

    const expiring = await keyWith(['links.read']);
    const second = await signIn(`Bearer ${expiring.key}`);
    await t.dataSource.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.id,
    ]);
    expect((await t.http().get('/api/v1/links').set('Cookie', second.cookie).set(PROOF)).status).toBe(401);

    const third = await signIn(owner.auth);
    expect((await t.http().get('/api/v1/links').set('Cookie', third.cookie).set(PROOF)).status).toBe(200);
    await t.dataSource.query(
      `UPDATE api_sessions SET expires_at = now() - interval '1 second'
        WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [third.cookie.split('=')[1]],
    );
    expect((await t.http().get('/api/v1/links').set('Cookie', third.cookie).set(PROOF)).status).toBe(401);
  });

  it('acts with its key’s powers, not its own end: a never-expiring key’s session manages never-expiring keys', async () => {
    const signedIn = await keyWith(['keys.write', 'links.read']);
    const { cookie } = await signIn(`Bearer ${signedIn.key}`);
    const session = (body: Record<string, unknown>, method: 'post' | 'patch' | 'delete', path: string) =>
      t.http()[method](path).set('Cookie', cookie).set(PROOF).send(body);

    const made = await session(
      { name: 'From the dashboard', scopes: ['links.read'] },
      'post',
      '/api/v1/keys',
    );
    expect(made.status).toBe(201);
    expect(made.body.data.expires_at).toBeNull();
    const leaked = await keyWith(['links.read']);
    const renamed = await session({ name: 'Leaked' }, 'patch', `/api/v1/keys/${leaked.id}`);
    expect(`${renamed.status} ${renamed.body.data?.name}`).toBe('200 Leaked');
    const self = await session({ name: 'Mine' }, 'patch', `/api/v1/keys/${signedIn.id}`);
    expect(`${self.status} ${self.body.data?.expires_at}`).toBe('200 null');
    const revoked = await session({}, 'delete', `/api/v1/keys/${leaked.id}`);
    expect(revoked.status).toBe(200);
    expect((await t.http().get('/api/v1/links').set('Authorization', `Bearer ${leaked.key}`)).status).toBe(
      401,
    );

    // The session itself still ends when it ends: what it answers of itself is its own end.
    const shown = await t.http().get('/api/v1/session').set('Cookie', cookie).set(PROOF);
    const hoursLeft = (Date.parse(shown.body.data.expires_at as string) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(11.9);
    expect(hoursLeft).toBeLessThanOrEqual(12);
  });

  it('never outlives its key: a key that expires in an hour makes a session of an hour', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000);
    const stamp = inAnHour.toISOString().slice(0, 16).replace('T', ' ');
    const key = await keyWith(['links.read'], { expires_at: stamp });
    const { response, setCookie } = await signIn(`Bearer ${key.key}`);
    expect(response.status).toBe(201);
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(maxAge).toBeGreaterThan(3000);
  });
});

describe('dashboard sessions of a service served over https', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_URL: 'https://links.example' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks the cookie Secure', async () => {
    const owner = await createAccount(t, 'Secure sessions');
    const response = await t.http().post('/api/v1/session').set('Authorization', owner.auth);
    expect(response.status).toBe(201);
    expect(response.headers['set-cookie'][0]).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });
});
