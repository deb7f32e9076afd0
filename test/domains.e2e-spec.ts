import type { Response } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  apiClient,
  resourceClient,
  ISO_DATE,
  RESOURCE_ROUTES,
  UNKNOWN_ID,
  listPath,
  metaLinks,
  type Body,
  type Verb,
} from './support/api';
import { invalid, NOT_FOUND, UNAUTHENTICATED } from './support/contract';
import { offDocument } from './support/openapi-responses';
import { DOMAIN_FIELDS } from './support/links';

const DOMAINS = '/api/v1/domains';
const LINKS = '/api/v1/links';
const APP_URL = 'http://localhost:3000';
const SYSTEM_HOST = 'localhost:3000';

const SYSTEM_DOMAIN_FORBIDDEN = { message: 'A system domain cannot be changed.', status: 403 };
const HAS_LINKS = { message: 'The domain has links and cannot be deleted.', status: 409 };

const NAME_REQUIRED = invalid('name', 'The name field is required.');
const NAME_INVALID = invalid('name', 'The name field must be a valid hostname.');
const NAME_TAKEN = invalid('name', 'The name has already been taken.');

interface DomainData {
  id: number;
  name: string;
  url: string;
  index_page: string | null;
  not_found_page: string | null;
  created_at: string;
  updated_at: string;
  apple_app_site_association: string | null;
  assetlinks: string | null;
}

let counter = 0;

/**
 * A label no other test uses: domain names are unique across the whole service, and every test file of the run
 * shares one database.
 */
function uniqueLabel(prefix = 'dom'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

function uniqueHost(prefix?: string): string {
  return `${uniqueLabel(prefix)}.example`;
}

/** What a domain in a response must look like: every field, dates in the contract's format. */
function aDomain(expected: Partial<DomainData> & { name: string }) {
  return {
    id: expect.any(Number),
    url: `http://${expected.name}`,
    index_page: null,
    not_found_page: null,
    created_at: expect.stringMatching(ISO_DATE),
    updated_at: expect.stringMatching(ISO_DATE),
    apple_app_site_association: null,
    assetlinks: null,
    ...expected,
  };
}

describe('Domains API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  const {
    create: createDomain,
    show: showDomain,
    list,
    names,
  } = resourceClient<DomainData>(() => t, DOMAINS);
  let system: DomainData;

  beforeAll(async () => {
    t = await createTestApp({ APP_URL });
    const rows: { id: number }[] = await t.dataSource.query('SELECT id FROM domains WHERE name = $1', [
      SYSTEM_HOST,
    ]);
    expect(rows).toHaveLength(1);
    const shown = await call(await createAccount(t), 'get', `${DOMAINS}/${rows[0].id}`);
    system = shown.body.data as DomainData;
  });

  afterAll(async () => {
    await t.close();
  });

  /** The system domains as the database holds them now, newest first: every account sees them. */
  async function systemDomainIds(): Promise<number[]> {
    const rows: { id: number }[] = await t.dataSource.query(
      'SELECT id FROM domains WHERE account_id IS NULL ORDER BY id DESC',
    );
    return rows.map((row) => row.id);
  }

  async function createLink(account: TestAccount, body: Record<string, string>): Promise<Response> {
    return form(account, 'post', LINKS, { url: 'https://example.com/', title: 'A link', ...body });
  }

  describe('authentication', () => {
    it.each(RESOURCE_ROUTES)(
      '%s /domains%s without a key is 401 and changes nothing',
      async (verb, suffix) => {
        const owner = await createAccount(t);
        const domain = await createDomain(owner, { name: uniqueHost() });

        const response = await call(null, verb, `${DOMAINS}${suffix.replace(':id', String(domain.id))}`)
          .type('form')
          .send({ name: uniqueHost(), index_page: 'https://changed.example/' });

        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHENTICATED);
        expect((await showDomain(owner, domain.id)).body.data).toEqual(domain);
      },
    );
  });

  describe('the system domain of APP_URL', () => {
    it('exists with the host and URL of APP_URL', () => {
      expect(system).toEqual(aDomain({ id: system.id, name: SYSTEM_HOST, url: APP_URL }));
      expect(Object.keys(system)).toEqual(DOMAIN_FIELDS);
    });

    it('is shown to every account', async () => {
      const first = await createAccount(t);
      const second = await createAccount(t);

      for (const account of [first, second]) {
        const response = await showDomain(account, system.id);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ data: system, status: 200 });
      }
    });

    it('is listed for a new account, with the other system domains only', async () => {
      const account = await createAccount(t);

      const response = await list(account, '?per_page=100');

      expect(response.status).toBe(200);
      expect(response.body.data).toContainEqual(system);
      expect((response.body.data as DomainData[]).map((domain) => domain.id)).toEqual(
        await systemDomainIds(),
      );
    });

    it('is listed beside the account’s own domains', async () => {
      const account = await createAccount(t);
      const own = await createDomain(account, { name: uniqueHost() });

      const response = await list(account, '?per_page=100&sort=asc');

      expect(response.status).toBe(200);
      const ids = (response.body.data as DomainData[]).map((domain) => domain.id);
      expect(ids).toEqual([...(await systemDomainIds()).reverse(), own.id]);
    });

    it.each<['put' | 'patch']>([['put'], ['patch']])('%s on it is 403 and changes nothing', async (verb) => {
      const account = await createAccount(t);

      const response = await form(account, verb, `${DOMAINS}/${system.id}`, {
        index_page: 'https://evil.example/',
        not_found_page: 'https://evil.example/404',
      });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(SYSTEM_DOMAIN_FORBIDDEN);
      expect((await showDomain(account, system.id)).body.data).toEqual(system);
    });

    it('delete on it is 403 and the domain stays', async () => {
      const account = await createAccount(t);

      const response = await call(account, 'delete', `${DOMAINS}/${system.id}`);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(SYSTEM_DOMAIN_FORBIDDEN);
      expect((await showDomain(account, system.id)).body.data).toEqual(system);
    });

    it('cannot be created again by an account, in any case', async () => {
      const account = await createAccount(t);

      for (const name of [SYSTEM_HOST, 'LocalHost:3000']) {
        const response = await form(account, 'post', DOMAINS, { name });
        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
      }
    });

    it('is where a link goes when no domain is given', async () => {
      const account = await createAccount(t);

      const response = await createLink(account, { alias: uniqueLabel('sys') });

      expect(response.status).toBe(201);
      expect(response.body.data.domain).toEqual({ id: system.id, name: SYSTEM_HOST, url: APP_URL });
      expect(response.body.data.short_url).toBe(`${APP_URL}/${response.body.data.alias}`);
    });
  });

  describe('POST /domains (store)', () => {
    it('creates a domain: 201 with the data envelope, fields in order', async () => {
      const account = await createAccount(t);
      const name = uniqueHost();

      const response = await form(account, 'post', DOMAINS, {
        name,
        index_page: 'https://home.example/',
        not_found_page: 'https://home.example/404',
      });

      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: aDomain({
          name,
          index_page: 'https://home.example/',
          not_found_page: 'https://home.example/404',
        }),
        status: 200,
      });
      expect(Object.keys(response.body.data)).toEqual(DOMAIN_FIELDS);
      expect(response.body.data.created_at).toBe(response.body.data.updated_at);
      expect((await showDomain(account, response.body.data.id)).body).toEqual(response.body);
    });

    it('creates a domain from a JSON body, without pages', async () => {
      const account = await createAccount(t);
      const name = uniqueHost();

      const response = await json(account, 'post', DOMAINS, { name });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({ data: aDomain({ name }), status: 200 });
    });

    it('takes empty pages as none', async () => {
      const account = await createAccount(t);
      const name = uniqueHost();

      // Spaces mean null too: a tolerance beyond the document, whose null in a form is the empty value.
      const response = await offDocument(
        form(account, 'post', DOMAINS, { name, index_page: '', not_found_page: ' ' }),
      );

      expect(response.status).toBe(201);
      expect(response.body.data).toEqual(aDomain({ name }));
    });

    describe('name', () => {
      it.each<[string, (label: string) => string, (label: string) => string]>([
        ['upper case, stored in lower case', (l) => `${l.toUpperCase()}.Example`, (l) => `${l}.example`],
        ['a port', (l) => `${l}.example:8443`, (l) => `${l}.example:8443`],
        ['a port and upper case', (l) => `${l.toUpperCase()}.EXAMPLE:80`, (l) => `${l}.example:80`],
        ['an IDN, stored as punycode', (l) => `${l}.bücher.example`, (l) => `${l}.xn--bcher-kva.example`],
        ['an IDN in upper case', (l) => `${l}.BÜCHER.example`, (l) => `${l}.xn--bcher-kva.example`],
        ['punycode as sent', (l) => `${l}.xn--bcher-kva.example`, (l) => `${l}.xn--bcher-kva.example`],
        ['a trailing dot, dropped', (l) => `${l}.example.`, (l) => `${l}.example`],
        ['white space around it, trimmed', (l) => `  ${l}.example \t`, (l) => `${l}.example`],
        ['a single label', (l) => l, (l) => l],
        ['digits and hyphens', (l) => `1-${l}.2-3.example`, (l) => `1-${l}.2-3.example`],
        // As phpShort does: the scheme and a trailing slash are dropped, not refused.
        ['an http scheme, dropped', (l) => `http://${l}.example`, (l) => `${l}.example`],
        ['an https scheme in upper case', (l) => `HTTPS://${l}.Example`, (l) => `${l}.example`],
        ['a trailing slash, dropped', (l) => `${l}.example/`, (l) => `${l}.example`],
        ['a scheme, a port and a slash', (l) => `https://${l}.example:8443/`, (l) => `${l}.example:8443`],
      ])('accepts %s', async (_label, sent, stored) => {
        const account = await createAccount(t);
        const label = uniqueLabel();

        const response = await form(account, 'post', DOMAINS, { name: sent(label) });

        expect(response.status).toBe(201);
        expect(response.body.data).toEqual(aDomain({ name: stored(label), url: `http://${stored(label)}` }));
      });

      it('accepts a name of 253 characters', async () => {
        const account = await createAccount(t);
        const first = uniqueLabel().padEnd(63, 'a');
        const name = [first, 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join('.');
        expect(name).toHaveLength(253);

        const response = await form(account, 'post', DOMAINS, { name });

        expect(response.status).toBe(201);
        expect(response.body.data.name).toBe(name);
      });

      it.each<[string, string]>([
        ['another scheme', 'ftp://x.com'],
        ['a URL with a path', 'https://x.com/path'],
        ['two trailing slashes', 'x.com//'],
        ['a path', 'x.com/path'],
        ['a query', 'x.com?q=1'],
        ['a fragment', 'x.com#top'],
        ['credentials', 'user@x.com'],
        ['a leading hyphen', '-bad.com'],
        ['a trailing hyphen in a label', 'bad-.com'],
        ['an empty label', 'a..b'],
        ['a leading dot', '.example.com'],
        ['an underscore', 'a_b.example'],
        ['a wildcard', '*.example.com'],
        ['a space inside', 'ex ample.com'],
        ['a label of 64 characters', `${'a'.repeat(64)}.com`],
        ['254 characters', [...Array(3).fill('a'.repeat(63)), 'b'.repeat(62)].join('.')],
        ['300 characters', `${'a.'.repeat(149)}co`],
        ['port 0', 'x.com:0'],
        ['port 65536', 'x.com:65536'],
        ['a port that is not a number', 'x.com:http'],
        ['an empty port', 'x.com:'],
        ['an IPv6 address', '[::1]'],
        ['invalid punycode', 'xn--zz.com'],
      ])('refuses %s with 422 naming name', async (_label, name) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', DOMAINS, { name });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_INVALID);
      });

      it('refuses a name of 253 characters with a port, which no column could hold', async () => {
        const account = await createAccount(t);
        const name = [uniqueLabel().padEnd(63, 'a'), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join(
          '.',
        );

        const response = await form(account, 'post', DOMAINS, { name: `${name}:8080` });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_INVALID);
      });

      it.each<[string, Body | string]>([
        ['missing', {}],
        ['empty', { name: '' }],
        ['white space only', { name: '  \t' }],
        ['a scheme alone', { name: 'https://' }],
      ])('is required: %s is 422', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', DOMAINS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_REQUIRED);
      });

      it.each<[string, Body]>([
        ['a number', { name: 5 }],
        ['an array', { name: ['x.example'] }],
      ])('must be a string: %s in JSON is 422', async (_label, body) => {
        const account = await createAccount(t);

        const response = await json(account, 'post', DOMAINS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('name', 'The name field must be a string.'));
      });

      it.each<[string, (name: string) => string]>([
        ['the same name', (name) => name],
        ['the name in another case', (name) => name.toUpperCase()],
        ['the name with a trailing dot', (name) => `${name}.`],
      ])('refuses %s again with 422', async (_label, again) => {
        const account = await createAccount(t);
        const name = uniqueHost();
        const original = await createDomain(account, { name });

        const response = await form(account, 'post', DOMAINS, { name: again(name) });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
        const found = await list(account, `?search=${name}`);
        expect(found.body.data).toEqual([original]);
      });

      it('refuses an IDN that exists in its other form', async () => {
        const account = await createAccount(t);
        const label = uniqueLabel();
        await createDomain(account, { name: `${label}.bücher.example` });

        const response = await form(account, 'post', DOMAINS, { name: `${label}.xn--bcher-kva.example` });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
      });

      it('refuses a name another account owns, and does not reveal it', async () => {
        const owner = await createAccount(t);
        const other = await createAccount(t);
        const name = uniqueHost();
        const theirs = await createDomain(owner, { name });

        const response = await form(other, 'post', DOMAINS, { name: name.toUpperCase() });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
        expect((await showDomain(other, theirs.id)).status).toBe(404);
      });

      it('lets exactly one of two concurrent creates with the same name through', async () => {
        const first = await createAccount(t);
        const second = await createAccount(t);
        const name = uniqueHost();

        const responses = await Promise.all([
          form(first, 'post', DOMAINS, { name }),
          form(second, 'post', DOMAINS, { name: name.toUpperCase() }),
        ]);

        expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
        expect(responses.find((response) => response.status === 422)?.body).toEqual(NAME_TAKEN);
      });

      it('frees the name when the domain is deleted', async () => {
        const owner = await createAccount(t);
        const other = await createAccount(t);
        const name = uniqueHost();
        const domain = await createDomain(owner, { name });
        expect((await call(owner, 'delete', `${DOMAINS}/${domain.id}`)).status).toBe(200);

        const response = await form(other, 'post', DOMAINS, { name });

        expect(response.status).toBe(201);
      });
    });

    describe.each(['index_page', 'not_found_page'])('%s', (field) => {
      const label = field.replace(/_/g, ' ');

      it.each<[string, string, string]>([
        ['javascript:', 'javascript:x', `The ${label} field must be an http or https URL.`],
        ['data:', 'data:text/html,<b>x</b>', `The ${label} field must be an http or https URL.`],
        ['ftp:', 'ftp://files.example/', `The ${label} field must be an http or https URL.`],
        ['a relative URL', '/home', `The ${label} field must be a valid URL.`],
        ['a bare host', 'example.com', `The ${label} field must be a valid URL.`],
        ['a URL with a space', 'https://a.example/x y', `The ${label} field must be a valid URL.`],
        [
          'a URL of 2049 characters',
          `https://a.example/${'p'.repeat(2049 - 18)}`,
          `The ${label} field must not be greater than 2048 characters.`,
        ],
      ])('refuses %s with 422 and creates nothing', async (_label, value, reason) => {
        const account = await createAccount(t);
        const name = uniqueHost();

        const response = await form(account, 'post', DOMAINS, { name, [field]: value });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid(field, reason));
        expect((await list(account, `?search=${name}`)).body.meta.total).toBe(0);
      });

      it.each([
        'http://a.example/',
        'https://a.example/path?q=1#f',
        `https://a.example/${'p'.repeat(2048 - 18)}`,
      ])('accepts %s', async (value) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', DOMAINS, { name: uniqueHost(), [field]: value });

        expect(response.status).toBe(201);
        expect(response.body.data[field]).toBe(value);
      });
    });

    it('ignores unknown and read-only fields', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const name = uniqueHost();

      const response = await form(account, 'post', DOMAINS, {
        name,
        id: String(system.id),
        account_id: String(other.id),
        url: 'https://elsewhere.example',
        created_at: '2000-01-01T00:00:00.000000Z',
        unknown: 'value',
      });

      expect(response.status).toBe(201);
      expect(response.body.data).toEqual(aDomain({ name }));
      expect(response.body.data.id).not.toBe(system.id);
      expect((await showDomain(other, response.body.data.id)).status).toBe(404);
    });
  });

  describe('GET /domains/:id (show)', () => {
    it('returns the domain in the data envelope', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost(), index_page: 'https://i.example/' });

      const response = await showDomain(account, domain.id);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual({ data: domain, status: 200 });
      expect(Object.keys(response.body.data)).toEqual(DOMAIN_FIELDS);
    });

    it.each(['0', '-1', 'abc', '1.5', String(UNKNOWN_ID), '99999999999'])(
      'is 404 for the id %s',
      async (id) => {
        const account = await createAccount(t);

        const response = await showDomain(account, id);

        expect(response.status).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      },
    );
  });

  describe('another account’s domain', () => {
    it.each<[Verb, Body]>([
      ['get', {}],
      ['put', { index_page: 'https://hijack.example/' }],
      ['patch', { not_found_page: 'https://hijack.example/' }],
      ['delete', {}],
    ])('%s is 404, exactly as an unknown id, and changes nothing', async (verb, body) => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const domain = await createDomain(owner, { name: uniqueHost() });

      const response = await call(intruder, verb, `${DOMAINS}/${domain.id}`).type('form').send(body);
      const unknown = await call(intruder, verb, `${DOMAINS}/${UNKNOWN_ID}`).type('form').send(body);

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(unknown.body).toEqual(response.body);
      expect((await showDomain(owner, domain.id)).body.data).toEqual(domain);
    });

    it('is never listed or found by search', async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const name = uniqueHost('secret');
      await createDomain(owner, { name });

      const response = await list(intruder, `?search=${name}`);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta.total).toBe(0);
    });

    it('cannot carry the caller’s links', async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const domain = await createDomain(owner, { name: uniqueHost() });

      const response = await createLink(intruder, { domain_id: String(domain.id) });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('domain_id', 'The selected domain id is invalid.'));
    });
  });

  describe.each(['put', 'patch'] as const)('%s /domains/:id (update)', (verb) => {
    async function update(account: TestAccount, id: number, body: Body) {
      return form(account, verb, `${DOMAINS}/${id}`, body);
    }

    it('changes both pages and answers with the data envelope', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });

      const response = await update(account, domain.id, {
        index_page: 'https://new.example/',
        not_found_page: 'https://new.example/missing',
      });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: aDomain({
          id: domain.id,
          name: domain.name,
          index_page: 'https://new.example/',
          not_found_page: 'https://new.example/missing',
          created_at: domain.created_at,
        }),
        status: 200,
      });
      expect(Object.keys(response.body.data)).toEqual(DOMAIN_FIELDS);
      expect((await showDomain(account, domain.id)).body.data).toEqual(response.body.data);
    });

    it('accepts a JSON body', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });

      const response = await json(account, verb, `${DOMAINS}/${domain.id}`, {
        index_page: 'https://j.example/',
      });

      expect(response.status).toBe(200);
      expect(response.body.data.index_page).toBe('https://j.example/');
    });

    it('ignores a name in the body: only the pages change', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });
      const other = uniqueHost();

      const response = await update(account, domain.id, { name: other, index_page: 'https://i.example/' });

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(
        aDomain({ id: domain.id, name: domain.name, index_page: 'https://i.example/' }),
      );
      // The name sent was not taken by the update either.
      expect((await form(account, 'post', DOMAINS, { name: other })).status).toBe(201);
    });

    it.each<[string, Body, Partial<DomainData>]>([
      ['an empty index_page clears it', { index_page: '' }, { index_page: null }],
      ['an empty not_found_page clears it', { not_found_page: '' }, { not_found_page: null }],
      [
        'both empty clear both',
        { index_page: '', not_found_page: '' },
        { index_page: null, not_found_page: null },
      ],
      [
        'an absent field keeps its value',
        { index_page: 'https://x.example/' },
        { index_page: 'https://x.example/' },
      ],
      ['an empty body keeps both', {}, {}],
      ['unknown fields are ignored', { url: 'https://u.example', foo: 'bar' }, {}],
    ])('a partial update: %s', async (_label, body, changes) => {
      const account = await createAccount(t);
      const domain = await createDomain(account, {
        name: uniqueHost(),
        index_page: 'https://old.example/',
        not_found_page: 'https://old.example/404',
      });

      const response = await update(account, domain.id, body);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(
        aDomain({
          id: domain.id,
          name: domain.name,
          index_page: 'https://old.example/',
          not_found_page: 'https://old.example/404',
          created_at: domain.created_at,
          ...changes,
        }),
      );
      expect((await showDomain(account, domain.id)).body.data).toEqual(response.body.data);
    });

    it.each<[string, Body, object]>([
      [
        'a javascript: index_page',
        { index_page: 'javascript:x' },
        invalid('index_page', 'The index page field must be an http or https URL.'),
      ],
      [
        'a javascript: not_found_page',
        { not_found_page: 'javascript:alert(1)' },
        invalid('not_found_page', 'The not found page field must be an http or https URL.'),
      ],
      [
        'a page that is not a URL',
        { not_found_page: 'not a url' },
        invalid('not_found_page', 'The not found page field must be a valid URL.'),
      ],
      [
        'one good page and one bad',
        { index_page: 'https://good.example/', not_found_page: 'vbscript:x' },
        invalid('not_found_page', 'The not found page field must be an http or https URL.'),
      ],
    ])('refuses %s with 422 and changes nothing', async (_label, body, expected) => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost(), index_page: 'https://kept.example/' });

      const response = await update(account, domain.id, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
      expect((await showDomain(account, domain.id)).body.data).toEqual(domain);
    });

    it('is 404 for an unknown id', async () => {
      const account = await createAccount(t);

      const response = await update(account, UNKNOWN_ID, { index_page: 'https://x.example/' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });
  });

  describe('DELETE /domains/:id', () => {
    it('deletes the domain and answers with the deleted envelope', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });

      const response = await call(account, 'delete', `${DOMAINS}/${domain.id}`);

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['id', 'object', 'deleted', 'status']);
      expect(response.body).toEqual({ id: domain.id, object: 'domain', deleted: true, status: 200 });
      expect((await showDomain(account, domain.id)).status).toBe(404);
      expect((await list(account, `?search=${domain.name}`)).body.meta.total).toBe(0);
    });

    it('is 404 the second time', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });
      expect((await call(account, 'delete', `${DOMAINS}/${domain.id}`)).status).toBe(200);

      const response = await call(account, 'delete', `${DOMAINS}/${domain.id}`);

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('refuses with 409 while the domain has links, then deletes once they are gone', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });
      const first = await createLink(account, { domain_id: String(domain.id) });
      const second = await createLink(account, { domain_id: String(domain.id) });
      expect([first.status, second.status]).toEqual([201, 201]);

      const refused = await call(account, 'delete', `${DOMAINS}/${domain.id}`);

      expect(refused.status).toBe(409);
      expect(refused.body).toEqual(HAS_LINKS);
      expect((await showDomain(account, domain.id)).body.data).toEqual(domain);

      expect((await call(account, 'delete', `${LINKS}/${first.body.data.id}`)).status).toBe(200);
      const stillRefused = await call(account, 'delete', `${DOMAINS}/${domain.id}`);
      expect(stillRefused.status).toBe(409);
      expect(stillRefused.body).toEqual(HAS_LINKS);

      expect((await call(account, 'delete', `${LINKS}/${second.body.data.id}`)).status).toBe(200);
      const response = await call(account, 'delete', `${DOMAINS}/${domain.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: domain.id, object: 'domain', deleted: true, status: 200 });
      expect((await showDomain(account, domain.id)).status).toBe(404);
    });

    it('refuses with the same 409 when a link is made between the check and the delete', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });
      // The race, made certain: the delete itself first puts a link on the domain, as a concurrent create would.
      await t.dataSource.query(`
        CREATE FUNCTION test_link_before_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO links (account_id, domain_id, alias, url)
          VALUES (OLD.account_id, OLD.id, 'raced-' || OLD.id, 'https://example.com/');
          RETURN OLD;
        END
        $$`);
      await t.dataSource.query(`
        CREATE TRIGGER test_link_before_delete BEFORE DELETE ON domains FOR EACH ROW
        WHEN (OLD.id = ${domain.id}) EXECUTE FUNCTION test_link_before_delete()`);
      try {
        const refused = await call(account, 'delete', `${DOMAINS}/${domain.id}`);

        expect(refused.status).toBe(409);
        expect(refused.body).toEqual(HAS_LINKS);
        expect((await showDomain(account, domain.id)).body.data).toEqual(domain);
      } finally {
        await t.dataSource.query('DROP TRIGGER test_link_before_delete ON domains');
        await t.dataSource.query('DROP FUNCTION test_link_before_delete()');
      }
    });

    it('counts only links on that domain', async () => {
      const account = await createAccount(t);
      const busy = await createDomain(account, { name: uniqueHost() });
      const idle = await createDomain(account, { name: uniqueHost() });
      expect((await createLink(account, { domain_id: String(busy.id) })).status).toBe(201);
      expect((await createLink(account, {})).status).toBe(201);

      const response = await call(account, 'delete', `${DOMAINS}/${idle.id}`);

      expect(response.status).toBe(200);
    });
  });

  describe('links on a custom domain', () => {
    it('have the domain’s short URL and summary', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });

      const response = await createLink(account, { domain_id: String(domain.id), alias: 'promo' });

      expect(response.status).toBe(201);
      expect(response.body.data.short_url).toBe(`http://${domain.name}/promo`);
      expect(response.body.data.domain).toEqual({
        id: domain.id,
        name: domain.name,
        url: `http://${domain.name}`,
      });
      expect(Object.keys(response.body.data.domain)).toEqual(['id', 'name', 'url']);
      const shown = await call(account, 'get', `${LINKS}/${response.body.data.id}`);
      expect(shown.body.data.short_url).toBe(`http://${domain.name}/promo`);
      expect(shown.body.data.domain).toEqual(response.body.data.domain);
    });

    it('keep the port and punycode of the domain name', async () => {
      const account = await createAccount(t);
      const label = uniqueLabel();
      const domain = await createDomain(account, { name: `${label}.Bücher.example:8080` });
      expect(domain.name).toBe(`${label}.xn--bcher-kva.example:8080`);

      const response = await createLink(account, { domain: String(domain.id), alias: 'x1' });

      expect(response.status).toBe(201);
      expect(response.body.data.short_url).toBe(`http://${label}.xn--bcher-kva.example:8080/x1`);
      expect(response.body.data.domain).toEqual({ id: domain.id, name: domain.name, url: domain.url });
    });

    it('are listed by domain_id', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { name: uniqueHost() });
      const onDomain = await createLink(account, { domain_id: String(domain.id) });
      expect((await createLink(account, {})).status).toBe(201);

      const response = await call(account, 'get', `${LINKS}?domain_id=${domain.id}`);

      expect(response.status).toBe(200);
      expect((response.body.data as { id: number }[]).map((link) => link.id)).toEqual([
        onDomain.body.data.id,
      ]);
    });
  });

  describe('GET /domains (list)', () => {
    /** Domains for `account` named `<token>-<suffix>.example`, created in the given order. */
    async function createMany(
      account: TestAccount,
      token: string,
      suffixes: string[],
    ): Promise<DomainData[]> {
      const created: DomainData[] = [];
      for (const suffix of suffixes)
        created.push(await createDomain(account, { name: `${token}-${suffix}.example` }));
      return created;
    }

    it('answers the list envelope, newest first', async () => {
      const account = await createAccount(t);
      const token = uniqueLabel('lst');
      const [first, second] = await createMany(account, token, ['a', 'b']);

      const response = await list(account, `?search=${token}`);

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
      const path = listPath(response);
      expect(response.body).toEqual({
        data: [second, first],
        links: {
          first: `${path}?search=${token}&page=1`,
          last: `${path}?search=${token}&page=1`,
          prev: null,
          next: null,
        },
        meta: {
          current_page: 1,
          from: 1,
          last_page: 1,
          links: metaLinks(path, 1, 1, `search=${token}&`),
          path,
          per_page: 10,
          to: 2,
          total: 2,
        },
        status: 200,
      });
    });

    it('finds a case-insensitive substring of the name, the system domain too', async () => {
      const account = await createAccount(t);
      const token = uniqueLabel('srch');
      await createMany(account, token, ['alpha', 'beta', 'alphabet']);

      const response = await list(account, `?search=${token.toUpperCase()}-ALPHA&search_by=name&sort=asc`);

      expect(response.status).toBe(200);
      expect(names(response)).toEqual([`${token}-alpha.example`, `${token}-alphabet.example`]);
      const systemFound = await list(account, '?search=LOCALHOST%3A3000');
      expect(systemFound.body.data).toEqual([system]);
    });

    it.each(['%', '_', '\\'])('takes %j literally', async (term) => {
      const account = await createAccount(t);
      await createMany(account, uniqueLabel('lit'), ['a']);

      const response = await list(account, `?search=${encodeURIComponent(term)}`);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
    });

    it.each([
      ['?sort=asc', ['c', 'a', 'b']],
      ['?sort=desc', ['b', 'a', 'c']],
      ['?sort_by=id&sort=asc', ['c', 'a', 'b']],
      ['?sort_by=name&sort=asc', ['a', 'b', 'c']],
      ['?sort_by=name&sort=desc', ['c', 'b', 'a']],
      ['?sort_by=name', ['c', 'b', 'a']],
    ])('orders %j', async (query, expected) => {
      const account = await createAccount(t);
      const token = uniqueLabel('srt');
      await createMany(account, token, ['c', 'a', 'b']);

      const response = await list(account, `${query}&search=${token}`);

      expect(response.status).toBe(200);
      expect(names(response)).toEqual(expected.map((suffix) => `${token}-${suffix}.example`));
    });

    it('pages with per_page and page', async () => {
      const account = await createAccount(t);
      const token = uniqueLabel('pg');
      const created = await createMany(
        account,
        token,
        Array.from({ length: 12 }, (_, i) => `n${String(i).padStart(2, '0')}`),
      );

      const first = await list(account, `?search=${token}&sort=asc`);
      const second = await list(account, `?search=${token}&sort=asc&page=2`);
      const wide = await list(account, `?search=${token}&sort=asc&per_page=25`);

      expect(first.body.data).toEqual(created.slice(0, 10));
      expect(first.body.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 2, total: 12 });
      expect(second.body.data).toEqual(created.slice(10));
      expect(second.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12, last_page: 2, total: 12 });
      expect(second.body.links.next).toBeNull();
      expect(wide.body.data).toEqual(created);
      expect(wide.body.meta).toMatchObject({ per_page: 25, last_page: 1, total: 12 });
    });

    it('answers a page beyond the last with empty data and null from/to', async () => {
      const account = await createAccount(t);
      const token = uniqueLabel('far');
      await createMany(account, token, ['a']);

      const response = await list(account, `?search=${token}&page=3`);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta).toMatchObject({
        current_page: 3,
        from: null,
        to: null,
        total: 1,
        last_page: 1,
      });
    });

    it('treats empty query values as the defaults', async () => {
      const account = await createAccount(t);

      const response = await list(account, '?per_page=&page=&sort=&sort_by=&search=&search_by=');

      expect(response.status).toBe(200);
      expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 10 });
      expect(response.body.data).toContainEqual(system);
    });

    it.each([
      ['sort=up', invalid('sort', 'The selected sort is invalid.')],
      ['sort_by=created_at', invalid('sort_by', 'The selected sort by is invalid.')],
      ['sort_by=url', invalid('sort_by', 'The selected sort by is invalid.')],
      ['search=a&search_by=url', invalid('search_by', 'The selected search by is invalid.')],
      ['per_page=5', invalid('per_page', 'The selected per page is invalid.')],
      ['per_page=abc', invalid('per_page', 'The selected per page is invalid.')],
      ['page=0', invalid('page', 'The page field must be at least 1.')],
      ['page=x', invalid('page', 'The page field must be an integer.')],
      [
        `search=${'s'.repeat(256)}`,
        invalid('search', 'The search field must not be greater than 255 characters.'),
      ],
    ])('refuses %s with 422', async (query, expected) => {
      const account = await createAccount(t);

      const response = await list(account, `?${query}`);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
    });
  });
});
