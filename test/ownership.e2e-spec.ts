import { parse } from 'csv-parse/sync';
import { PNG } from 'pngjs';
import { MAX_ID } from '../src/common/validation';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, type Verb } from './support/api';
import { nestRoutes, type NestRoute } from './support/routes';
import { unique } from './support/visitors';
import { NOT_FOUND } from './support/contract';

/**
 * Account B against account A's resources, on every route and verb the router has that takes an id or a reference:
 * a path id is a 404, a reference in a body a 422 on that field, a list filter matches nothing (the same answer as
 * an id that does not exist); and A's data, read through the API before and after, is unchanged. Each cell has a
 * control: the same request with B's own resource succeeds, so that the refusal is for the owner, not the input.
 */

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

/** The kind a path names, by its segment (`stats` takes a link's id). */
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

/** A person's own routes, which a key (as A and B are here) is refused whatever it holds: no account's resource. */
function personOnly(route: NestRoute): boolean {
  return route.path.startsWith('/api/v1/user') || route.route === 'PUT /api/v1/session';
}

/** The kind a reference field names. A new reference field fails the test until it is added here. */
const FIELD_KINDS: Record<string, Kind> = {
  space_id: 'spaces',
  space_ids: 'spaces',
  domain_id: 'domains',
  domain: 'domains',
  pixel_id: 'pixels',
  pixel_ids: 'pixels',
  link_id: 'links',
  link_ids: 'links',
  // The links a bulk change or delete names.
  ids: 'links',
  // The audit log's filter by what an entry is about: B's log has nothing about A's link.
  target_id: 'links',
};

/** Whether a body or query field names another resource. */
function isReference(field: string): boolean {
  return /(^|_)ids?$/.test(field) || field === 'domain';
}

/**
 * What a bulk change or delete of links sends beside the links it names (`ids`): a change that shows nothing to
 * visitors, or nothing; undefined for any other route.
 */
function bulkBody(route: NestRoute): Record<string, unknown> | undefined {
  if (route.path !== '/api/v1/links/bulk' || route.method === 'POST') return undefined;
  return route.method === 'PATCH' ? { changes: { archived: 0 } } : {};
}

/** A body that the route accepts for a resource of the caller's own: a new name each time, where names are unique. */
function validBody(kind: Kind, method: string): Record<string, unknown> {
  const create = method === 'POST';
  switch (kind) {
    case 'spaces':
      return { name: unique('Space'), color: 4 };
    case 'domains':
      return create ? { name: `${unique('owned')}.example` } : { index_page: 'https://example.com/changed' };
    case 'pixels':
      return { name: unique('Pixel'), type: 'facebook', value: '123456789012345' };
    case 'links':
      return { url: 'https://example.com/changed' };
    case 'keys':
      return create ? { name: unique('Key'), scopes: ['links.read'] } : { name: unique('Key') };
    case 'webhooks':
      // A loopback port where nothing listens: a ping fails as a delivery, at once.
      return create
        ? { name: unique('Hook'), url: 'http://127.0.0.1:9/hooks', events: ['link.created'] }
        : { name: unique('Hook') };
    case 'members':
      return { role: 'editor' };
    case 'invitations':
      return { email: `${unique('invited')}@example.com`, role: 'viewer' };
    case 'imports':
      // A database on loopback, which imports may not reach: it fails at once, and stays as it ended.
      return { source: 'yourls', database_url: 'mysql://127.0.0.1:9/none' };
    case 'utm-templates':
      return { name: unique('Template'), utm_source: 'newsletter' };
    case 'tags':
      return { name: unique('Tag'), color: 2 };
  }
}

type Resources = Record<Kind, number>;

/** A QR code's logo, as its upload sends it. */
const LOGO = PNG.sync.write(new PNG({ width: 8, height: 8 }));

describe('ownership matrix', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let aOwns: Resources;
  let routes: NestRoute[];
  const { call, json } = apiClient(() => t);
  const cells: string[] = [];

  /** One resource of each kind, the link in the space, with the pixel, on the domain. */
  async function resources(account: TestAccount): Promise<Resources> {
    const post = async (path: string, body: Record<string, unknown>) => {
      const response = await json(account, 'post', path, body);
      expect(`${path} ${response.status}`).toBe(`${path} 201`);
      return (response.body as { data: { id: number } }).data.id;
    };
    const spaces = await post('/api/v1/spaces', validBody('spaces', 'POST'));
    const domains = await post('/api/v1/domains', validBody('domains', 'POST'));
    const pixels = await post('/api/v1/pixels', validBody('pixels', 'POST'));
    const links = await post('/api/v1/links', {
      url: 'https://example.com/owned',
      alias: unique('owned'),
      space_id: spaces,
      domain_id: domains,
      pixel_ids: [pixels],
    });
    // A click, so that the workspace's stats filtered to the link (or its space or domain) count something.
    await t.dataSource.query(`INSERT INTO clicks (link_id, country) VALUES ($1, 'GB')`, [links]);
    const keys = await post('/api/v1/keys', { ...validBody('keys', 'POST'), space_ids: [spaces] });
    const webhooks = await post('/api/v1/webhooks', validBody('webhooks', 'POST'));
    const invitations = await post('/api/v1/invitations', validBody('invitations', 'POST'));
    const members = await member(account);
    const imports = await anImport(account);
    const utmTemplates = await post('/api/v1/utm-templates', validBody('utm-templates', 'POST'));
    const tags = await post('/api/v1/tags', validBody('tags', 'POST'));
    return {
      spaces,
      domains,
      pixels,
      links,
      keys,
      webhooks,
      members,
      invitations,
      imports,
      'utm-templates': utmTemplates,
      tags,
    };
  }

  /** An import of the account's that has ended (failed: its source may not be reached), so that it stays as it is. */
  async function anImport(account: TestAccount): Promise<number> {
    const response = await json(account, 'post', '/api/v1/imports', validBody('imports', 'POST'));
    expect(`imports ${response.status}`).toBe('imports 202');
    const id = (response.body as { data: { id: number } }).data.id;
    for (let tries = 0; tries < 200; tries += 1) {
      const shown = await call(account, 'get', `/api/v1/imports/${id}`);
      if ((shown.body as { data: { status: string } }).data.status === 'failed') return id;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the import did not end');
  }

  /** A viewer of the account, made as the CLI makes one: their user's id. */
  async function member(account: TestAccount): Promise<number> {
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: `${unique('member')}@example.com`, password: 'a fine password' });
    await t.app.get(MembersService).add(account.id, user.id, 'viewer');
    return user.id;
  }

  /** One resource of `kind` alone: a domain without links can be deleted. */
  async function bare(account: TestAccount, kind: Kind): Promise<number> {
    if (kind === 'members') return member(account);
    if (kind === 'imports') return anImport(account);
    const response = await json(account, 'post', `/api/v1/${kind}`, validBody(kind, 'POST'));
    expect(`${kind} ${response.status}`).toBe(`${kind} 201`);
    return (response.body as { data: { id: number } }).data.id;
  }

  /** Everything A has, as A reads it: each list whole, each resource by id, and the link's stats and referrers. */
  async function snapshotOfA(): Promise<unknown> {
    const read = async (path: string) => {
      // One Host for every read: the list's links are absolute, and supertest listens on a new port each time.
      const response = await call(a, 'get', path).set('Host', 'localhost:3000');
      expect(`${path} ${response.status}`).toBe(`${path} 200`);
      // A's own key is used by these very reads: when it was last is not what B could change.
      return JSON.parse(JSON.stringify(response.body), (key, value: unknown) =>
        key === 'last_used_at' ? undefined : value,
      ) as unknown;
    };
    const snapshot: Record<string, unknown> = {};
    for (const kind of Object.keys(aOwns) as Kind[]) {
      snapshot[kind] = await read(`/api/v1/${kind}?per_page=100`);
      snapshot[`${kind}/${aOwns[kind]}`] = await read(`/api/v1/${kind}/${aOwns[kind]}`);
    }
    snapshot.stats = await read(`/api/v1/stats/${aOwns.links}`);
    snapshot.referrers = await read(`/api/v1/stats/${aOwns.links}?name=referrer&per_page=100`);
    return snapshot;
  }

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
    a = await createAccount(t, 'Owner A');
    b = await createAccount(t, 'Intruder B');
    aOwns = await resources(a);
    routes = nestRoutes(t.app).filter(
      (route) => route.path.startsWith('/api/') && !route.isPublic && !personOnly(route),
    );
  });
  afterAll(async () => {
    process.stderr.write(`[ownership] ${cells.length} cells:\n  ${cells.join('\n  ')}\n`);
    await t?.close();
  });

  it('knows the kind of every id and reference the router takes', () => {
    const unknown: string[] = [];
    for (const route of routes) {
      const segment = route.path.split('/')[3];
      if (/:\w+/.test(route.path) && PATH_KINDS[segment] === undefined)
        unknown.push(`${route.route}: path id`);
      for (const field of [...route.bodyFields, ...route.queryFields].filter(isReference)) {
        if (FIELD_KINDS[field] === undefined) unknown.push(`${route.route}: ${field}`);
      }
    }
    expect(unknown).toEqual([]);
    // The router was read: these are there, so a reader that found nothing would fail here.
    expect(routes.map((route) => route.route)).toEqual(
      expect.arrayContaining([
        'DELETE /api/v1/links/:id',
        'GET /api/v1/stats/:linkId',
        'PATCH /api/v1/spaces/:id',
      ]),
    );
  });

  it('answers 404 to B for every route that takes one of A’s ids in its path, and changes nothing of A', async () => {
    const idRoutes = routes.filter((route) => /:\w+/.test(route.path));
    expect(idRoutes.length).toBeGreaterThan(0);
    for (const route of idRoutes) {
      const kind = PATH_KINDS[route.path.split('/')[3]];
      const verb = route.method.toLowerCase() as Verb;
      const body = ['post', 'put', 'patch'].includes(verb) ? validBody(kind, route.method) : undefined;
      const send = (account: TestAccount, id: number) => {
        const path = route.path.replace(/:\w+/, String(id));
        // A logo is the image itself, not a JSON body.
        if (route.path.endsWith('/qr-logo') && verb === 'put') {
          return call(account, verb, path).type('image/png').send(LOGO);
        }
        return body === undefined ? call(account, verb, path) : json(account, verb as 'put', path, body);
      };

      const before = await snapshotOfA();
      const answer = await send(b, aOwns[kind]);
      expect(`${route.route} as B: ${answer.status} ${JSON.stringify(answer.body)}`).toBe(
        `${route.route} as B: 404 ${JSON.stringify(NOT_FOUND)}`,
      );
      expect(await snapshotOfA()).toEqual(before);

      // Control: the same request on a resource of B's own, with nothing that depends on it, succeeds.
      const control = await send(b, await bare(b, kind));
      expect(`${route.route} on B's own: ${control.status}`).toBe(`${route.route} on B's own: 200`);
      cells.push(`${route.route} with A's ${kind} id: 404`);
    }
  });

  it('answers 422 on the field to B for every body that names one of A’s resources, and changes nothing', async () => {
    const writes = routes.filter((route) => route.bodyFields.some(isReference));
    expect(writes.length).toBeGreaterThan(0);
    for (const route of writes) {
      const pathKind = PATH_KINDS[route.path.split('/')[3]];
      const verb = route.method.toLowerCase() as 'post' | 'put' | 'patch';
      for (const field of route.bodyFields.filter(isReference)) {
        const kind = FIELD_KINDS[field];
        const own = await resources(b);
        const path = route.path.replace(/:\w+/, String(own[pathKind]));
        const value = (id: number) => (field.endsWith('_ids') || field === 'ids' ? [id] : id);
        const base = bulkBody(route) ?? validBody(pathKind, route.method);
        const ownBefore = (
          await call(b, 'get', `/api/v1/${pathKind}/${own[pathKind]}`).set('Host', 'localhost:3000')
        ).body as unknown;
        const total = async () =>
          ((await call(b, 'get', `/api/v1/${pathKind}`)).body as { meta: { total: number } }).meta.total;
        const totalBefore = await total();

        const before = await snapshotOfA();
        const answer = await json(b, verb, path, { ...base, [field]: value(aOwns[kind]) });
        const messages = (answer.body as { message?: Record<string, unknown> }).message ?? {};
        expect(`${route.route} ${field}=A's: ${answer.status} ${Object.keys(messages).join(',')}`).toBe(
          // An array's entries are named by index, as the contract names nested fields: `pixel_ids.0`; a bulk
          // request's links are all or nothing, refused on `ids` itself.
          `${route.route} ${field}=A's: 422 ${field.endsWith('_ids') ? `${field}.0` : field}`,
        );
        expect(await snapshotOfA()).toEqual(before);
        // Nothing of B's changed or was made either.
        expect(
          (await call(b, 'get', `/api/v1/${pathKind}/${own[pathKind]}`).set('Host', 'localhost:3000')).body,
        ).toEqual(ownBefore);
        expect(await total()).toBe(totalBefore);

        // Control: the same body naming B's own resource is accepted.
        const control = await json(b, verb, path, { ...base, [field]: value(own[kind]) });
        expect(`${route.route} ${field}=B's: ${control.status}`).toBe(
          `${route.route} ${field}=B's: ${verb === 'post' ? 201 : 200}`,
        );
        cells.push(`${route.route} with ${field} = A's ${kind}: 422`);
      }
    }
  });

  it('matches nothing for B in every list filter set to one of A’s resources, as for an id that does not exist', async () => {
    const lists = routes.filter((route) => route.method === 'GET' && route.queryFields.some(isReference));
    expect(lists.length).toBeGreaterThan(0);
    const own = await resources(b);
    for (const route of lists) {
      for (const field of route.queryFields.filter(isReference)) {
        const kind = FIELD_KINDS[field];
        const list = async (id: number) => {
          // An audit entry's target id names a link only beside its type: a pixel of B's may share the number.
          const kindOf = field === 'target_id' ? '&target_type=link' : '';
          const response = await call(b, 'get', `${route.path}?${field}=${id}${kindOf}`);
          expect(`${route.route}?${field}=${id}: ${response.status}`).toBe(
            `${route.route}?${field}=${id}: 200`,
          );
          // An export answers the list as CSV: its rows after the header are the list's data.
          if (String(response.headers['content-type']).startsWith('text/csv')) {
            const rows = parse(response.text).slice(1);
            return { data: rows, total: rows.length };
          }
          // A whole list (the rollups of links) has no meta: its total is its length.
          const { data, meta } = response.body as { data: unknown[]; meta?: { total: number } };
          return { data, total: meta?.total ?? data.length };
        };
        const before = await snapshotOfA();
        const answer = await list(aOwns[kind]);
        expect(answer).toEqual({ data: [], total: 0 });
        expect(answer).toEqual(await list(MAX_ID));
        expect(await snapshotOfA()).toEqual(before);
        // Control: the filter set to B's own resource finds B's link.
        expect((await list(own[kind])).total).toBeGreaterThan(0);
        cells.push(`${route.route}?${field} = A's ${kind}: nothing`);
      }
    }
  });
});
