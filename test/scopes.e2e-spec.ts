import type { IncomingMessage } from 'node:http';
import { PNG } from 'pngjs';
import { AccountsService } from '../src/auth/accounts.service';
import { Account } from '../src/auth/account.entity';
import { isScope, SCOPES, type Scope } from '../src/auth/scopes';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, type Verb } from './support/api';
import { nestRoutes, PEOPLE_WAYS_IN, type NestRoute } from './support/routes';
import { unique } from './support/visitors';

/**
 * Scopes on every route, read from the router: each route either says `@Public()` or names a scope the contract
 * knows, and for each, a key without that scope is refused with the contract's 403 and changes nothing, while a key
 * holding that scope alone is served. A route added later is in the matrix without a line here, and one that says
 * nothing fails the walk.
 */

const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };

type Kind =
  | 'spaces'
  | 'domains'
  | 'pixels'
  | 'links'
  | 'keys'
  | 'webhooks'
  | 'members'
  | 'invitations'
  | 'imports'
  | 'utm-templates'
  | 'tags';

/** The kind of resource a path's id names, by the path's resource segment (`stats` takes a link's id). */
const PATH_KINDS: Record<string, Kind> = {
  spaces: 'spaces',
  domains: 'domains',
  pixels: 'pixels',
  links: 'links',
  stats: 'links',
  keys: 'keys',
  webhooks: 'webhooks',
  members: 'members',
  invitations: 'invitations',
  imports: 'imports',
  'utm-templates': 'utm-templates',
  tags: 'tags',
};

/** A QR code's logo, sent as the image itself. */
const LOGO = PNG.sync.write(new PNG({ width: 8, height: 8 }));

/** An import whose database is on loopback, which imports may not reach: it fails at once. */
const IMPORT_BODY = { source: 'yourls', database_url: 'mysql://127.0.0.1:9/none' };

/** Routes that need the workspace's owner, a person: a key with their scope is refused them too. */
const OWNER_ONLY = ['PUT /api/v1/account/two-factor'];

/** A body every person's route reads as valid, so that a key is refused for what it is, not for its input. */
const PERSON_BODY = { otp: '123456', current_password: 'a fine password', name: 'Laptop', response: {} };

/** A person's own routes: any session may reach them, and a key, which is no person, is refused whatever it holds. */
const PERSON_ONLY = [
  'PUT /api/v1/session',
  'GET /api/v1/user',
  'PATCH /api/v1/user',
  'PUT /api/v1/user',
  'GET /api/v1/user/sessions',
  'DELETE /api/v1/user/sessions/:id',
  'POST /api/v1/user/two-factor',
  'POST /api/v1/user/two-factor/confirm',
  'POST /api/v1/user/two-factor/disable',
  'POST /api/v1/user/two-factor/recovery-codes',
  'GET /api/v1/user/passkeys',
  'POST /api/v1/user/passkeys/options',
  'POST /api/v1/user/passkeys',
  'DELETE /api/v1/user/passkeys/:id',
];

/** The routes that need no key, by what they are: the visitor's, the probes', the metrics' (own token). */
const PUBLIC_PREFIXES = ['/health', '/metrics', '/:alias', '/assets', '/'];

/** A webhook to a loopback port where nothing listens: its pings fail at once, as a delivery, not as a request. */
function webhookBody(): Record<string, unknown> {
  return { name: unique('Hook'), url: 'http://127.0.0.1:9/hooks', events: ['link.created'] };
}

/** Every scope but `scope` and, for a `.read`, the `.write` that includes it: a key that cannot do the route. */
function scopesWithout(scope: Scope): Scope[] {
  const write = scope.endsWith('.read') ? `${scope.slice(0, -'.read'.length)}.write` : null;
  return SCOPES.filter((held) => held !== scope && held !== write);
}

describe('scopes on every route', () => {
  let t: TestApp;
  let full: TestAccount;
  let routes: NestRoute[];
  const { call, json } = apiClient(() => t);
  const cells: string[] = [];

  /** A key of `full`'s account with these scopes alone, as a test account. */
  async function keyWith(scopes: Scope[]): Promise<TestAccount> {
    const account = await t.dataSource.getRepository(Account).findOneByOrFail({ id: full.id });
    const { apiKey } = await t.app
      .get(AccountsService)
      .createKey(account, { name: unique('scoped'), scopes });
    return { ...full, apiKey, auth: `Bearer ${apiKey}` };
  }

  async function post(path: string, body: Record<string, unknown>): Promise<number> {
    const response = await json(full, 'post', path, body);
    expect(`${path} ${response.status}`).toBe(`${path} 201`);
    return (response.body as { data: { id: number } }).data.id;
  }

  /** A fresh resource of `kind` made by the full key, with nothing that depends on it (a domain can be deleted). */
  function fresh(kind: Kind): Promise<number> {
    switch (kind) {
      case 'spaces':
        return post('/api/v1/spaces', { name: unique('Space') });
      case 'domains':
        return post('/api/v1/domains', { name: `${unique('scoped')}.example` });
      case 'pixels':
        return post('/api/v1/pixels', { name: unique('Pixel'), type: 'x', value: 'abc123' });
      case 'links':
        return post('/api/v1/links', { url: 'https://example.com/scoped', alias: unique('scoped') });
      case 'keys':
        // Within what a key holding keys.write alone may change.
        return post('/api/v1/keys', { name: unique('Key'), scopes: ['keys.read'] });
      case 'webhooks':
        return post('/api/v1/webhooks', webhookBody());
      case 'invitations':
        return post('/api/v1/invitations', { email: `${unique('invited')}@example.com`, role: 'viewer' });
      case 'members':
        return freshMember();
      case 'imports':
        return freshImport();
      case 'utm-templates':
        return post('/api/v1/utm-templates', { name: unique('Template'), utm_source: 'newsletter' });
      case 'tags':
        return post('/api/v1/tags', { name: unique('Tag') });
    }
  }

  /** An import of `full`'s account; it fails at once (its database is on an address imports may not reach). */
  async function freshImport(): Promise<number> {
    const response = await json(full, 'post', '/api/v1/imports', IMPORT_BODY);
    expect(`imports ${response.status}`).toBe('imports 202');
    return (response.body as { data: { id: number } }).data.id;
  }

  /** A viewer of `full`'s account, made as the CLI makes one: their user's id. */
  async function freshMember(): Promise<number> {
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: `${unique('member')}@example.com`, password: 'a fine password' });
    await t.app.get(MembersService).add(full.id, user.id, 'viewer');
    return user.id;
  }

  /** A body the route accepts from a key that holds its scope alone. */
  function bodyFor(route: NestRoute, kind: Kind | undefined): { type: string; body: unknown } | undefined {
    if (!['POST', 'PUT', 'PATCH'].includes(route.method)) return undefined;
    // A switch of workspace names one; the key's own sign-in reads no body.
    if (route.path === '/api/v1/session') {
      return route.method === 'PUT' ? { type: 'json', body: { workspace_id: full.id } } : undefined;
    }
    if (route.path === '/api/v1/user') return { type: 'json', body: { name: unique('Person') } };
    if (route.path.startsWith('/api/v1/user/')) return { type: 'json', body: PERSON_BODY };
    // An owner's choice, which no key makes: a key holding members.write is refused it too.
    if (route.path === '/api/v1/account/two-factor') return { type: 'json', body: { required: 0 } };
    const create = route.method === 'POST';
    if (route.path === '/api/v1/links/import') {
      return { type: 'text/csv', body: `url,alias\nhttps://example.com/imported,${unique('imported')}\n` };
    }
    if (route.path === '/api/v1/imports') return { type: 'json', body: IMPORT_BODY };
    if (route.path.endsWith('/qr-logo')) return { type: 'image/png', body: LOGO };
    if (route.path === '/api/v1/links/bulk') {
      return { type: 'json', body: { links: [{ url: 'https://example.com/bulk', alias: unique('bulk') }] } };
    }
    switch (kind) {
      case 'spaces':
        return { type: 'json', body: { name: unique('Space'), color: 3 } };
      case 'domains':
        return {
          type: 'json',
          body: create ? { name: `${unique('made')}.example` } : { index_page: 'https://example.com/index' },
        };
      case 'pixels':
        return { type: 'json', body: { name: unique('Pixel'), type: 'facebook', value: '1234567890' } };
      case 'links':
        return { type: 'json', body: { url: 'https://example.com/changed', alias: unique('made') } };
      case 'keys':
        return {
          type: 'json',
          body: create ? { name: unique('Key'), scopes: ['keys.read'] } : { name: unique('Key') },
        };
      case 'webhooks':
        return { type: 'json', body: create ? webhookBody() : { name: unique('Hook') } };
      case 'members':
        return { type: 'json', body: { role: 'editor' } };
      case 'invitations':
        return { type: 'json', body: { email: `${unique('invited')}@example.com`, role: 'viewer' } };
      case 'imports':
        return { type: 'json', body: IMPORT_BODY };
      case 'utm-templates':
        return { type: 'json', body: { name: unique('Template'), utm_source: 'newsletter' } };
      case 'tags':
        return { type: 'json', body: { name: unique('Tag'), color: 2 } };
      case undefined:
        throw new Error(`No body known for ${route.route}: add one here`);
    }
  }

  /** A bulk change or delete of links: it names a fresh link by id (and changes nothing visitors see). */
  function bulkChange(route: NestRoute): boolean {
    return route.path === '/api/v1/links/bulk' && route.method !== 'POST';
  }

  /** The route's request, its path ids (or a bulk change's ids) filled with fresh resources. */
  async function request(route: NestRoute, account: TestAccount) {
    const kind = PATH_KINDS[route.path.split('/')[3]];
    let path = route.path;
    // An id of no resource of the account's (a person's own session) is any id: it is refused before it is read.
    if (/:\w+/.test(path)) path = path.replace(/:\w+/, kind === undefined ? '1' : String(await fresh(kind)));
    const verb = route.method.toLowerCase() as Verb;
    const ids = bulkChange(route) ? [await fresh('links')] : [];
    const body = bulkChange(route)
      ? { type: 'json', body: route.method === 'PATCH' ? { ids, changes: { archived: 0 } } : { ids } }
      : bodyFor(route, kind);
    const test = call(account, verb, path);
    // An event stream never ends: its head and first frame are its answer, and then the client goes.
    if (route.path === '/api/v1/events/stream') {
      return test.buffer(false).parse((response, done) => {
        if (String(response.headers['content-type']).startsWith('text/event-stream')) {
          response.once('data', () => {
            done(null, '');
            (response as unknown as IncomingMessage).destroy();
          });
          return;
        }
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => done(null, JSON.parse(text)));
      });
    }
    return body === undefined ? test : test.type(body.type).send(body.body as object);
  }

  /** What the account has, as the full key lists it: a refused request must leave every count as it was. */
  async function totals(): Promise<Record<string, number>> {
    const counted: Record<string, number> = {};
    for (const kind of [
      'spaces',
      'domains',
      'pixels',
      'links',
      'keys',
      'webhooks',
      'utm-templates',
      'tags',
    ]) {
      const response = await call(full, 'get', `/api/v1/${kind}`);
      counted[kind] = (response.body as { meta: { total: number } }).meta.total;
    }
    return counted;
  }

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
    full = await createAccount(t, 'Scopes');
    routes = nestRoutes(t.app);
  });
  afterAll(async () => {
    process.stderr.write(`[scopes] ${cells.length} cells:\n  ${cells.join('\n  ')}\n`);
    await t?.close();
  });

  it('finds on every route either @Public() or a scope the contract knows, and every API route has a scope', () => {
    const unscoped = routes
      .filter((route) => !route.isPublic && !isScope(route.scope) && route.scope !== 'any')
      .map((route) => `${route.route}: ${String(route.scope)}`);
    expect(unscoped).toEqual([]);
    const publicApi = routes.filter((route) => route.isPublic && route.path.startsWith('/api/'));
    expect(publicApi.map((route) => route.route).sort()).toEqual([...PEOPLE_WAYS_IN].sort());
    const elsewhere = routes.filter(
      (route) => route.isPublic && !PUBLIC_PREFIXES.some((prefix) => route.path.startsWith(prefix)),
    );
    expect(elsewhere.map((route) => route.route)).toEqual([]);
    // The router was read: these are there with their scopes, so a reader that found nothing would fail here.
    const scopeOf = (name: string) => routes.find((route) => route.route === name)?.scope;
    expect(scopeOf('DELETE /api/v1/links/:id')).toBe('links.write');
    expect(scopeOf('GET /api/v1/links/export')).toBe('links.read');
    expect(scopeOf('GET /api/v1/links/:id/qr')).toBe('links.read');
    expect(scopeOf('PUT /api/v1/links/:id/qr-logo')).toBe('links.write');
    expect(scopeOf('DELETE /api/v1/account/qr-logo')).toBe('links.write');
    expect(scopeOf('POST /api/v1/links/import')).toBe('links.write');
    expect(scopeOf('POST /api/v1/links/bulk')).toBe('links.write');
    expect(scopeOf('PATCH /api/v1/links/bulk')).toBe('links.write');
    expect(scopeOf('DELETE /api/v1/links/bulk')).toBe('links.write');
    expect(scopeOf('GET /api/v1/stats/:linkId')).toBe('stats.read');
    expect(scopeOf('GET /api/v1/stats/:linkId/export')).toBe('stats.read');
    expect(scopeOf('GET /api/v1/account')).toBe('account.read');
    expect(scopeOf('PATCH /api/v1/keys/:id')).toBe('keys.write');
    expect(scopeOf('GET /api/v1/session')).toBe('any');
    expect(scopeOf('GET /api/v1/members')).toBe('members.read');
    expect(scopeOf('DELETE /api/v1/members/:id')).toBe('members.write');
    expect(scopeOf('GET /api/v1/audit-log')).toBe('audit.read');
  });

  it('refuses every route to a key without its scope (403, nothing changed) and serves a key with it alone', async () => {
    const guarded = routes.filter((route) => !route.isPublic);
    expect(guarded.length).toBeGreaterThan(30);
    for (const route of guarded) {
      if (PERSON_ONLY.includes(route.route)) {
        const refused = await request(route, await keyWith([...SCOPES]));
        expect(`${route.route} with every scope: ${refused.status}`).toBe(
          `${route.route} with every scope: 403`,
        );
        cells.push(`${route.route}: a person`);
        continue;
      }
      if (route.scope === 'any') {
        // Nothing to lack: a key with one scope unrelated to it is served.
        const served = await request(route, await keyWith(['pixels.read']));
        expect(`${route.route} with pixels.read alone: ${served.status}`).toBe(
          `${route.route} with pixels.read alone: ${route.status}`,
        );
        cells.push(`${route.route}: any`);
        continue;
      }
      const scope = route.scope as Scope;
      const lacking = await keyWith(scopesWithout(scope));
      const before = await totals();
      const refused = await request(route, lacking);
      expect(`${route.route} without ${scope}: ${refused.status} ${JSON.stringify(refused.body)}`).toBe(
        `${route.route} without ${scope}: 403 ${JSON.stringify(UNAUTHORIZED)}`,
      );
      // The refused request made nothing: the totals are as before, but for what `request` itself made.
      const after = await totals();
      const kind = PATH_KINDS[route.path.split('/')[3]];
      if ((/:\w+/.test(route.path) || bulkChange(route)) && kind in after) after[kind] -= 1;
      expect(`${route.route}: ${JSON.stringify(after)}`).toBe(`${route.route}: ${JSON.stringify(before)}`);

      const served = await request(route, await keyWith([scope]));
      // An owner's own choice: no key is an owner, whatever it holds.
      const expected = OWNER_ONLY.includes(route.route) ? 403 : route.status;
      expect(`${route.route} with ${scope} alone: ${served.status}`).toBe(
        `${route.route} with ${scope} alone: ${expected}`,
      );
      cells.push(`${route.route}: ${scope}`);
    }
  });

  it('lets a .write scope do what its .read does', async () => {
    const writer = await keyWith(['links.write']);
    const link = await fresh('links');
    expect((await call(writer, 'get', `/api/v1/links/${link}`)).status).toBe(200);
    expect((await call(writer, 'get', '/api/v1/links')).status).toBe(200);
    // And nothing else: its stats need stats.read.
    expect((await call(writer, 'get', `/api/v1/stats/${link}`)).body).toEqual(UNAUTHORIZED);
  });

  it('answers 401, not 403, to no key or a wrong one, whatever the route', async () => {
    const noKey = await call(null, 'get', '/api/v1/links');
    expect(noKey.status).toBe(401);
    const wrong = await call({ ...full, auth: 'Bearer lsk_nope' }, 'post', '/api/v1/keys');
    expect(wrong.status).toBe(401);
  });
});
