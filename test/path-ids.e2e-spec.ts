import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, type Verb } from './support/api';
import { nestRoutes, type NestRoute } from './support/routes';
import { createLink } from './support/visitors';
import { NOT_FOUND } from './support/contract';

/** Spellings that JavaScript's Number() reads as 56, and none of which is the plain decimal id. */
function otherSpellings(id: number): string[] {
  return [
    `0x${id.toString(16)}`,
    `0X${id.toString(16).toUpperCase()}`,
    `0o${id.toString(8)}`,
    `0b${id.toString(2)}`,
    `${id / 10}e1`,
    `${id}.0`,
    `0${id}`,
    `00${id}`,
    `+${id}`,
    `%20${id}`,
    `${id}%20`,
    `%09${id}`,
    `${id}%0A`,
    `${id}n`,
    '2147483648',
    '99999999999999999999',
    '-1',
    '0',
  ];
}

/** The API routes that name a resource by a path id, with the parameter's name. */
function idRoutes(routes: NestRoute[]): (NestRoute & { parameter: string })[] {
  return routes.flatMap((route) => {
    const match = /:(id|\w+Id)\b/.exec(route.path);
    return route.path.startsWith('/api/') && match !== null ? [{ ...route, parameter: match[0] }] : [];
  });
}

describe('ids in paths', () => {
  let t: TestApp;
  const { call } = apiClient(() => t);

  beforeAll(async () => {
    // Hundreds of requests from one key: the rate limit is not what this file tests.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** One resource of each kind, owned by `account`, by the path segment its routes start with. */
  async function ownedIds(account: TestAccount): Promise<Record<string, number>> {
    const post = async (path: string, fields: Record<string, string>) => {
      const response = await t.http().post(path).set('Authorization', account.auth).type('form').send(fields);
      expect(response.status).toBe(201);
      return (response.body as { data: { id: number } }).data.id;
    };
    const link = await createLink(t, account, { url: 'https://example.com/' });
    return {
      spaces: await post('/api/v1/spaces', { name: 'Space' }),
      'utm-templates': await post('/api/v1/utm-templates', { name: 'Template', utm_source: 'newsletter' }),
      tags: await post('/api/v1/tags', { name: 'Tag' }),
      domains: await post('/api/v1/domains', { name: `ids-${account.id}.example` }),
      pixels: await post('/api/v1/pixels', { name: 'Pixel', type: 'facebook', value: '123456789012345' }),
      links: link.id,
      stats: link.id,
      keys: await post('/api/v1/keys', { name: 'Key', 'scopes[]': 'links.read' }),
      webhooks: await post('/api/v1/webhooks', {
        name: 'Hook',
        url: 'http://127.0.0.1:9/hooks',
        'events[]': 'link.created',
      }),
      invitations: await post('/api/v1/invitations', {
        email: `ids-${account.id}@example.com`,
        role: 'viewer',
      }),
      members: await member(account),
      imports: await anImport(account),
      // A person's own session: a key is refused it before its id is read, so any spelling would do.
      user: 1,
    };
  }

  /** An import of the account's (it fails at once: its database is on an address imports may not reach). */
  async function anImport(account: TestAccount): Promise<number> {
    const response = await t
      .http()
      .post('/api/v1/imports')
      .set('Authorization', account.auth)
      .type('form')
      .send({ source: 'yourls', database_url: 'mysql://127.0.0.1:9/none' });
    expect(response.status).toBe(202);
    return (response.body as { data: { id: number } }).data.id;
  }

  /** A viewer of the account, made as the CLI makes one: their user's id. */
  async function member(account: TestAccount): Promise<number> {
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email: `ids-member-${account.id}@example.com`, password: 'a fine password' });
    await t.app.get(MembersService).add(account.id, user.id, 'viewer');
    return user.id;
  }

  it('finds the routes that take an id, for every resource', () => {
    const found = idRoutes(nestRoutes(t.app)).map((route) => route.route);
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /api/v1/spaces/:id',
        'PUT /api/v1/domains/:id',
        'PATCH /api/v1/pixels/:id',
        'DELETE /api/v1/links/:id',
        'GET /api/v1/stats/:linkId',
      ]),
    );
  });

  it('names a resource only by its plain decimal id: every other spelling is a 404, on every route', async () => {
    const account = await createAccount(t);
    const ids = await ownedIds(account);
    const offending: string[] = [];
    for (const route of idRoutes(nestRoutes(t.app))) {
      const id = ids[route.path.split('/')[3]];
      expect(id).toEqual(expect.any(Number));
      for (const spelling of otherSpellings(id)) {
        const path = `${route.path.replace(route.parameter, spelling)}?name=country`;
        const response = await call(account, route.method.toLowerCase() as Verb, path);
        if (response.status !== 404 || JSON.stringify(response.body) !== JSON.stringify(NOT_FOUND)) {
          offending.push(`${route.method} ${path} -> ${response.status}`);
        }
      }
    }
    expect(offending).toEqual([]);
    // The plain id still names them: the spellings were refused for their form, not for want of a resource.
    for (const [kind, id] of Object.entries(ids).filter(([kind]) => kind !== 'user')) {
      const response = await call(account, 'get', `/api/v1/${kind}/${id}?name=country`);
      expect(`${kind} ${response.status}`).toBe(`${kind} 200`);
    }
  });
});
