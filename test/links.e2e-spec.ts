import crypto, { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { RESERVED_ALIASES } from '../src/links/reserved-aliases';
import { TITLE_FETCH_OPTIONS, type TitleFetchOptions } from '../src/links/title-fetcher';
import {
  BROWSERS,
  CONTINENTS,
  DEVICES,
  OPERATING_SYSTEMS,
  TargetsType,
} from '../src/targeting/allowed-values';
import {
  OFFLINE_TITLE_FETCH,
  createAccount,
  createTestApp,
  type TestAccount,
  type TestApp,
} from './support/app';
import { apiClient, ISO_DATE, metaLinks, type Body, type Verb } from './support/api';
import { invalid, NOT_FOUND, UNAUTHENTICATED } from './support/contract';

const LINKS = '/api/v1/links';
const RANDOM_ALIAS = /^[0-9a-z]{5}$/;
const LINK_FIELDS = [
  'id',
  'alias',
  'url',
  'short_url',
  'title',
  'targets_type',
  'targets',
  'last_rotation',
  'sensitive_content',
  'privacy',
  'password',
  'redirect_password',
  'active_period_start_at',
  'active_period_end_at',
  'clicks_limit',
  'expiration_url',
  'clicks',
  'disabled',
  'space',
  'domain',
  'pixels',
  'expires_at',
  'created_at',
  'updated_at',
];
const META_FIELDS = ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'];
/** The host of APP_URL (unset in tests): the system domain every account may use. */
const DEFAULT_DOMAIN = { name: 'localhost:3000', url: 'http://localhost:3000' };
/** An id no test will ever reach: the largest a PostgreSQL integer holds. */
const UNKNOWN_ID = 2_147_483_647;

const ALIAS_TAKEN = invalid('alias', 'The alias has already been taken.');
const ALIAS_CHARSET = 'The alias field must only contain letters, numbers, dashes and underscores.';
const DATE_FORMAT = (field: string) =>
  `The ${field.replace(/_/g, ' ')} field must be a valid date in the format Y-m-d H:i.`;
const START_REQUIRED = invalid(
  'active_period_start_at',
  'The active period start at field is required when active period end at is present.',
);
const END_REQUIRED = invalid(
  'active_period_end_at',
  'The active period end at field is required when active period start at is present.',
);
const END_AFTER_START = invalid(
  'active_period_end_at',
  'The active period end at must be a date after active period start at.',
);
const PASSWORD_REQUIRED = invalid('password', 'The password field is required when privacy is 2.');

interface DomainSummary {
  id: number;
  name: string;
  url: string;
}

interface LinkData {
  id: number;
  alias: string;
  url: string;
  short_url: string;
  title: string | null;
  targets_type: string | null;
  targets: { key: string | null; value: string }[] | null;
  last_rotation: number | null;
  sensitive_content: 0 | 1;
  privacy: number;
  password: boolean;
  redirect_password: boolean;
  active_period_start_at: string | null;
  active_period_end_at: string | null;
  clicks_limit: number | null;
  expiration_url: string | null;
  clicks: number;
  disabled: 0 | 1;
  space: Record<string, unknown> | null;
  domain: DomainSummary;
  pixels: Record<string, unknown>[];
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

interface Pixel {
  id: number;
  name: string;
}

interface Space {
  id: number;
  name: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A string no other test (or test file sharing the database) will come up with. */
function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** A form body as the spec writes it: bracket keys kept literally, values encoded. */
function formBody(fields: [string, string | number][]): string {
  return fields.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&');
}

/** `targets[i][key]` / `targets[i][value]` pairs; a null key sends no key at all. */
function targetFields(targets: [string | null, string][]): [string, string][] {
  return targets.flatMap(([key, value], index): [string, string][] => [
    ...(key === null ? [] : [[`targets[${index}][key]`, key] as [string, string]]),
    [`targets[${index}][value]`, value],
  ]);
}

function expectLinkFields(link: unknown): void {
  expect(Object.keys(link as object)).toEqual(LINK_FIELDS);
  expect(Object.keys((link as LinkData).domain)).toEqual(['id', 'name', 'url']);
}

/**
 * Title fetches stay offline; hosts under `slow.example` wait on their DNS answer until the test releases it, so
 * a test can see that a create does not wait for the title.
 */
const titleLookups: string[] = [];
let releaseSlowLookups: () => void = () => undefined;
const slowLookups = new Promise<string[]>((_resolve, reject) => {
  releaseSlowLookups = () => reject(new Error('no DNS in tests'));
});
void slowLookups.catch(() => undefined);
const TITLE_FETCH: TitleFetchOptions = {
  ...OFFLINE_TITLE_FETCH,
  resolve: (host) => {
    titleLookups.push(host);
    return host.endsWith('.slow.example') ? slowLookups : OFFLINE_TITLE_FETCH.resolve(host);
  },
};

describe('Links API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  let defaultDomainId: number;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      { override: (builder) => builder.overrideProvider(TITLE_FETCH_OPTIONS).useValue(TITLE_FETCH) },
    );
    const rows: { id: number }[] = await t.dataSource.query('SELECT id FROM domains WHERE name = $1', [
      DEFAULT_DOMAIN.name,
    ]);
    defaultDomainId = rows[0].id;
  });

  afterAll(async () => {
    releaseSlowLookups();
    await t.close();
  });

  async function createLink(account: TestAccount, body: Body | string): Promise<LinkData> {
    const response = await form(account, 'post', LINKS, body);
    expect(response.body).toEqual({ data: expect.any(Object), status: 200 });
    expect(response.status).toBe(201);
    return response.body.data as LinkData;
  }

  async function showLink(account: TestAccount, id: number): Promise<Response> {
    return call(account, 'get', `${LINKS}/${id}`);
  }

  async function createSpace(account: TestAccount, name = 'Space'): Promise<Space> {
    const response = await form(account, 'post', '/api/v1/spaces', { name });
    expect(response.status).toBe(201);
    return response.body.data as Space;
  }

  /** The space as the spaces API shows it now (with its current links_count). */
  async function showSpace(account: TestAccount, id: number): Promise<Record<string, unknown>> {
    const response = await call(account, 'get', `/api/v1/spaces/${id}`);
    expect(response.status).toBe(200);
    return response.body.data as Record<string, unknown>;
  }

  async function createPixel(account: TestAccount, name = 'Pixel'): Promise<Pixel> {
    const response = await form(account, 'post', '/api/v1/pixels', {
      name,
      type: 'facebook',
      value: '123456789012345',
    });
    expect(response.status).toBe(201);
    return response.body.data as Pixel;
  }

  async function createDomain(account: TestAccount): Promise<DomainSummary> {
    const response = await form(account, 'post', '/api/v1/domains', { name: `${unique('d')}.example` });
    expect(response.status).toBe(201);
    const { id, name, url } = response.body.data as DomainSummary;
    return { id, name, url };
  }

  async function setClicks(linkId: number, clicks: number): Promise<void> {
    await t.dataSource.query('UPDATE link_counters SET clicks = $1 WHERE link_id = $2', [clicks, linkId]);
  }

  async function hashes(
    linkId: number,
  ): Promise<{ password_hash: string | null; redirect_password_hash: string | null }> {
    const rows: { password_hash: string | null; redirect_password_hash: string | null }[] =
      await t.dataSource.query('SELECT password_hash, redirect_password_hash FROM links WHERE id = $1', [
        linkId,
      ]);
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  interface Row {
    title?: string | null;
    alias?: string;
    url?: string;
    clicks?: number;
  }

  /** Many links at once, straight into the table, in the given order (so ids ascend with it). */
  async function insertLinks(account: TestAccount, rows: Row[]): Promise<number[]> {
    const ids: number[] = [];
    for (const row of rows) {
      const inserted: { id: number }[] = await t.dataSource.query(
        `INSERT INTO links (account_id, domain_id, alias, url, title) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [
          account.id,
          defaultDomainId,
          row.alias ?? unique('sql'),
          row.url ?? 'https://example.com/',
          row.title ?? null,
        ],
      );
      // The trigger made the link's counter row.
      await t.dataSource.query('UPDATE link_counters SET clicks = $1 WHERE link_id = $2', [
        row.clicks ?? 0,
        inserted[0].id,
      ]);
      ids.push(inserted[0].id);
    }
    return ids;
  }

  async function list(account: TestAccount, query = ''): Promise<Response> {
    return call(account, 'get', `${LINKS}${query}`);
  }

  function ids(response: Response): number[] {
    return (response.body.data as LinkData[]).map((link) => link.id);
  }

  function listPath(response: Response): string {
    const url = new URL(response.request.url);
    return `${url.origin}${url.pathname}`;
  }

  /** A link with every field set, on its own domain, in a space, with two pixels. */
  async function createFullLink(account: TestAccount) {
    const space = await createSpace(account, 'Full');
    const pixels = [await createPixel(account, 'First'), await createPixel(account, 'Second')];
    const domain = await createDomain(account);
    const alias = unique('full');
    const link = await createLink(
      account,
      formBody([
        ['url', 'https://example.com/landing?utm_source=test&x=1'],
        ['domain_id', domain.id],
        ['alias', alias],
        ['title', 'Landing page'],
        ['space_id', space.id],
        ['pixel_ids[]', pixels[0].id],
        ['pixel_ids[]', pixels[1].id],
        ['redirect_password', 'visitor-secret-1'],
        ['sensitive_content', '1'],
        ['privacy', '1'],
        ['password', 'stats-secret-1'],
        ['active_period_start_at', '2020-01-01 10:00'],
        ['active_period_end_at', '2099-12-31 23:59'],
        ['clicks_limit', '50'],
        ['expiration_url', 'https://example.com/expired'],
        ['targets_type', 'countries'],
        ...targetFields([
          ['US', 'https://us.example.com/'],
          ['de', 'https://de.example.com/'],
        ]),
      ]),
    );
    return { link, space, pixels, domain, alias };
  }

  describe('authentication', () => {
    it.each<[Verb, string]>([
      ['get', ''],
      ['post', ''],
      ['get', '/:id'],
      ['put', '/:id'],
      ['patch', '/:id'],
      ['delete', '/:id'],
    ])('%s /links%s without a key is 401 and changes nothing', async (verb, suffix) => {
      const owner = await createAccount(t);
      const link = await createLink(owner, { url: 'https://example.com/kept', title: 'Kept' });

      const response = await call(null, verb, `${LINKS}${suffix.replace(':id', String(link.id))}`)
        .type('form')
        .send({ url: 'https://example.com/changed', title: 'Changed' });

      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
      expect((await list(owner)).body.data).toEqual([link]);
    });
  });

  describe('POST /links (store)', () => {
    it('creates a link from a form body with the spec field names: 201, data envelope, every field in order', async () => {
      const account = await createAccount(t);

      const { link, space, pixels, domain, alias } = await createFullLink(account);

      expectLinkFields(link);
      expect(link).toEqual({
        id: expect.any(Number),
        alias,
        url: 'https://example.com/landing?utm_source=test&x=1',
        short_url: `${domain.url}/${alias}`,
        title: 'Landing page',
        targets_type: 'countries',
        targets: [
          { key: 'US', value: 'https://us.example.com/' },
          { key: 'DE', value: 'https://de.example.com/' },
        ],
        last_rotation: null,
        sensitive_content: 1,
        privacy: 1,
        password: true,
        redirect_password: true,
        active_period_start_at: '2020-01-01T10:00:00.000000Z',
        active_period_end_at: '2099-12-31T23:59:00.000000Z',
        clicks_limit: 50,
        expiration_url: 'https://example.com/expired',
        clicks: 0,
        disabled: 0,
        space: await showSpace(account, space.id),
        domain,
        pixels: [
          (await call(account, 'get', `/api/v1/pixels/${pixels[0].id}`)).body.data,
          (await call(account, 'get', `/api/v1/pixels/${pixels[1].id}`)).body.data,
        ],
        expires_at: '2099-12-31T23:59:00.000000Z',
        created_at: expect.stringMatching(ISO_DATE),
        updated_at: expect.stringMatching(ISO_DATE),
      });
      expect(link.space).toMatchObject({ id: space.id, name: 'Full', links_count: 1 });
      expect(domain.url).toBe(`http://${domain.name}`);

      const shown = await showLink(account, link.id);
      expect(shown.status).toBe(200);
      expect(shown.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(shown.body)).toEqual(['data', 'status']);
      expect(shown.body).toEqual({ data: link, status: 200 });
    });

    it('answers with the content type and envelope of the contract', async () => {
      const account = await createAccount(t);

      const response = await form(account, 'post', LINKS, { url: 'https://example.com/' });

      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body.status).toBe(200);
    });

    it('fills the defaults for a link given only its url, on the default domain', async () => {
      const account = await createAccount(t);

      const link = await createLink(account, { url: 'https://example.com/only-url' });

      expectLinkFields(link);
      expect(link.alias).toMatch(RANDOM_ALIAS);
      expect(link).toEqual({
        id: expect.any(Number),
        alias: link.alias,
        url: 'https://example.com/only-url',
        short_url: `http://localhost:3000/${link.alias}`,
        title: null,
        targets_type: null,
        targets: null,
        last_rotation: null,
        sensitive_content: 0,
        privacy: 0,
        password: false,
        redirect_password: false,
        active_period_start_at: null,
        active_period_end_at: null,
        clicks_limit: null,
        expiration_url: null,
        clicks: 0,
        disabled: 0,
        space: null,
        domain: { id: defaultDomainId, ...DEFAULT_DOMAIN },
        pixels: [],
        expires_at: null,
        created_at: expect.stringMatching(ISO_DATE),
        updated_at: link.created_at,
      });
      expect(await hashes(link.id)).toEqual({ password_hash: null, redirect_password_hash: null });
    });

    it('creates a link from a JSON body', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account);
      const pixel = await createPixel(account);
      const domain = await createDomain(account);
      const alias = unique('json');

      const response = await json(account, 'post', LINKS, {
        url: 'https://example.com/json',
        domain_id: domain.id,
        alias,
        title: 'From JSON',
        space_id: space.id,
        pixel_ids: [pixel.id],
        redirect_password: 'json-visitor-secret',
        sensitive_content: true,
        privacy: 2,
        password: 'json-stats-secret',
        active_period_start_at: '2026-01-01T10:00:00+02:00',
        active_period_end_at: '2099-01-01 00:00',
        clicks_limit: 7,
        expiration_url: 'https://example.com/gone',
        targets_type: 'rotations',
        targets: [{ value: 'https://one.example/' }, { value: 'https://two.example/' }],
        disabled: false,
      });

      expect(response.status).toBe(201);
      const link = response.body.data as LinkData;
      expectLinkFields(link);
      expect(link).toMatchObject({
        alias,
        url: 'https://example.com/json',
        short_url: `${domain.url}/${alias}`,
        title: 'From JSON',
        targets_type: 'rotations',
        targets: [{ value: 'https://one.example/' }, { value: 'https://two.example/' }],
        sensitive_content: 1,
        privacy: 2,
        password: true,
        redirect_password: true,
        active_period_start_at: '2026-01-01T08:00:00.000000Z',
        active_period_end_at: '2099-01-01T00:00:00.000000Z',
        expires_at: '2099-01-01T00:00:00.000000Z',
        clicks_limit: 7,
        expiration_url: 'https://example.com/gone',
        disabled: 0,
        space: { id: space.id },
        domain,
        pixels: [{ id: pixel.id, name: 'Pixel' }],
      });
    });

    it.each<[string, 'form' | 'json']>([
      ['a form body', 'form'],
      ['a JSON body', 'json'],
    ])('accepts `domain` as the same field as domain_id in %s', async (_label, type) => {
      const account = await createAccount(t);
      const domain = await createDomain(account);
      const alias = unique('syn');

      const response = await (type === 'form' ? form : json)(account, 'post', LINKS, {
        url: 'https://example.com/',
        domain: type === 'form' ? String(domain.id) : domain.id,
        alias,
      });

      expect(response.status).toBe(201);
      expect(response.body.data.domain).toEqual(domain);
      expect(response.body.data.short_url).toBe(`${domain.url}/${alias}`);
    });

    it('accepts the system domain given explicitly', async () => {
      const account = await createAccount(t);

      const link = await createLink(account, {
        url: 'https://example.com/',
        domain_id: String(defaultDomainId),
      });

      expect(link.domain).toEqual({ id: defaultDomainId, ...DEFAULT_DOMAIN });
    });

    it('ignores unknown and read-only fields', async () => {
      const account = await createAccount(t);

      const link = await createLink(account, {
        url: 'https://example.com/',
        id: '5',
        clicks: '99',
        last_rotation: '3',
        account_id: '1',
        short_url: 'https://evil.example/x',
        created_at: '2000-01-01 00:00',
        unknown: 'x',
      });

      expect(link.clicks).toBe(0);
      expect(link.last_rotation).toBeNull();
      expect(link.short_url).toBe(`http://localhost:3000/${link.alias}`);
      expect(link.created_at.startsWith('2000')).toBe(false);
      expect((await showLink(account, link.id)).status).toBe(200);
    });

    describe('secrets', () => {
      it('reports passwords as booleans, stores scrypt hashes and never shows a secret or a hash', async () => {
        const account = await createAccount(t);
        const visitorSecret = `visitor-${randomBytes(8).toString('hex')}`;
        const statsSecret = `stats-${randomBytes(8).toString('hex')}`;

        const created = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          redirect_password: visitorSecret,
          privacy: '2',
          password: statsSecret,
        });
        expect(created.status).toBe(201);
        const link = created.body.data as LinkData;
        expect(link.password).toBe(true);
        expect(link.redirect_password).toBe(true);

        const stored = await hashes(link.id);
        expect(stored.password_hash).toMatch(/^scrypt\$16384\$8\$5\$[\w-]+\$[\w-]+$/);
        expect(stored.redirect_password_hash).toMatch(/^scrypt\$16384\$8\$5\$[\w-]+\$[\w-]+$/);
        expect(stored.password_hash).not.toContain(statsSecret);
        expect(stored.redirect_password_hash).not.toContain(visitorSecret);
        expect(stored.password_hash).not.toBe(stored.redirect_password_hash);

        const responses = [
          created,
          await showLink(account, link.id),
          await list(account),
          await form(account, 'patch', `${LINKS}/${link.id}`, { title: 'Still secret' }),
          await form(account, 'put', `${LINKS}/${link.id}`, { privacy: '7', password: statsSecret }),
          await form(account, 'post', LINKS, { url: 'bad', password: statsSecret }),
        ];
        expect(responses.map((response) => response.status)).toEqual([201, 200, 200, 200, 422, 422]);
        for (const response of responses) {
          expect(response.text).not.toContain(visitorSecret);
          expect(response.text).not.toContain(statsSecret);
          expect(response.text).not.toContain('scrypt');
          expect(response.text).not.toContain(stored.password_hash!.split('$')[5]);
          expect(response.text).not.toContain('hash');
        }
      });

      it('hashes the same secret differently each time (salted)', async () => {
        const account = await createAccount(t);

        const first = await createLink(account, { url: 'https://example.com/', redirect_password: 'same' });
        const second = await createLink(account, { url: 'https://example.com/', redirect_password: 'same' });

        const [a, b] = [await hashes(first.id), await hashes(second.id)];
        expect(a.redirect_password_hash).toMatch(/^scrypt\$/);
        expect(a.redirect_password_hash).not.toBe(b.redirect_password_hash);
      });

      it.each([
        ['redirect_password', 'The redirect password field must not be greater than 128 characters.'],
        ['password', 'The password field must not be greater than 128 characters.'],
      ])('accepts a %s of 128 characters and refuses 129', async (field, reason) => {
        const account = await createAccount(t);

        const ok = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          [field]: 'p'.repeat(128),
        });
        const tooLong = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          [field]: 'p'.repeat(129),
        });

        expect(ok.status).toBe(201);
        expect(ok.body.data[field]).toBe(true);
        expect(tooLong.status).toBe(422);
        expect(tooLong.body).toEqual(invalid(field, reason));
        expect(tooLong.text).not.toContain('p'.repeat(129));
      });
    });

    describe('url', () => {
      it.each<[string, Body, string]>([
        ['missing', {}, 'The url field is required.'],
        ['empty', { url: '' }, 'The url field is required.'],
        ['whitespace', { url: '   ' }, 'The url field is required.'],
        ['not a URL', { url: 'not a url' }, 'The url field must be a valid URL.'],
        ['without a scheme', { url: 'example.com/page' }, 'The url field must be a valid URL.'],
        ['a scheme without a host', { url: 'https://' }, 'The url field must be a valid URL.'],
        ['javascript:', { url: 'javascript:alert(1)' }, 'The url field must be an http or https URL.'],
        [
          'JavaScript: in mixed case',
          { url: 'JavaScript:alert(1)' },
          'The url field must be an http or https URL.',
        ],
        ['data:', { url: 'data:text/html,x' }, 'The url field must be an http or https URL.'],
        ['vbscript:', { url: 'vbscript:x' }, 'The url field must be an http or https URL.'],
        ['file:', { url: 'file:///etc/passwd' }, 'The url field must be an http or https URL.'],
        ['ftp:', { url: 'ftp://x' }, 'The url field must be an http or https URL.'],
        [
          '2049 characters',
          { url: `https://example.com/${'a'.repeat(2049 - 20)}` },
          'The url field must not be greater than 2048 characters.',
        ],
      ])('refuses a url that is %s with 422 naming url', async (_label, body, reason) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('url', reason));
        expect((await list(account)).body.meta.total).toBe(0);
      });

      it('refuses a url that is not a string in JSON', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', LINKS, { url: 5 });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('url', 'The url field must be a string.'));
      });

      it.each([
        ['2048 characters', `https://example.com/${'a'.repeat(2048 - 20)}`],
        ['http', 'http://example.com'],
        ['a port, query and fragment', 'https://example.com:8443/a/b?c=d&e=f#g'],
        ['an IP address', 'http://93.184.216.34/'],
      ])('accepts a url with %s', async (_label, url) => {
        const account = await createAccount(t);
        expect(url.length).toBeLessThanOrEqual(2048);

        const link = await createLink(account, { url });

        expect(link.url).toBe(url);
      });

      it.each([
        ['no slashes after the scheme', 'https:a.example', 'https://a.example/'],
        ['backslashes after the scheme', 'https:\\\\a.example', 'https://a.example/'],
        ['three slashes after the scheme', 'https:///a.example/page', 'https://a.example/page'],
        ['an upper-case scheme and host', 'HTTPS://A.EXAMPLE/Path', 'https://a.example/Path'],
        ['a default port and dot segments', 'https://a.example:443/x/../y', 'https://a.example/y'],
        [
          'non-ASCII characters',
          'https://bücher.example/straße?q=ä',
          'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4',
        ],
      ])(
        'stores a url with %s in its WHATWG form, which browsers cannot read against the short domain',
        async (_label, url, stored) => {
          const account = await createAccount(t);

          const response = await json(account, 'post', LINKS, {
            url,
            expiration_url: url,
            targets_type: 'rotations',
            targets: [{ value: url }],
          });
          expect(response.status).toBe(201);
          const link = response.body.data as LinkData;

          expect({
            url: link.url,
            expiration_url: link.expiration_url,
            target: link.targets?.[0].value,
          }).toEqual({
            url: stored,
            expiration_url: stored,
            target: stored,
          });
        },
      );

      it('refuses a url whose WHATWG form is longer than 2048 characters', async () => {
        const account = await createAccount(t);
        // 1,000 characters that each take three when percent-encoded.
        const url = `https://example.com/${'é'.repeat(1000)}`;

        const response = await form(account, 'post', LINKS, { url });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('url', 'The url field must not be greater than 2048 characters.'),
        );
      });

      it('trims the url', async () => {
        const account = await createAccount(t);

        const link = await createLink(account, { url: '  https://example.com/trimmed  ' });

        expect(link.url).toBe('https://example.com/trimmed');
      });

      it.each([
        ['javascript:alert(1)', 'The expiration url field must be an http or https URL.'],
        ['nope', 'The expiration url field must be a valid URL.'],
        [
          `https://example.com/${'e'.repeat(2049 - 20)}`,
          'The expiration url field must not be greater than 2048 characters.',
        ],
      ])('refuses expiration_url %j with 422', async (value, reason) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          expiration_url: value,
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('expiration_url', reason));
      });
    });

    describe('alias', () => {
      it.each([
        ['a b', ALIAS_CHARSET],
        ['a/b', ALIAS_CHARSET],
        ['ä', ALIAS_CHARSET],
        ['a.b', ALIAS_CHARSET],
        ['a%b', ALIAS_CHARSET],
        ['a?b', ALIAS_CHARSET],
        ['a'.repeat(256), 'The alias field must not be greater than 255 characters.'],
      ])('refuses %j with 422 naming alias', async (alias, reason) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, { url: 'https://example.com/', alias });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('alias', reason));
      });

      it.each([...RESERVED_ALIASES, 'API', 'Docs', 'HEALTH'])(
        'refuses the reserved word %j',
        async (alias) => {
          const account = await createAccount(t);

          const response = await form(account, 'post', LINKS, { url: 'https://example.com/', alias });

          expect(response.status).toBe(422);
          expect(response.body).toEqual(invalid('alias', 'The alias is reserved.'));
        },
      );

      it('accepts letters, digits, dashes and underscores up to 255 characters, keeping their case', async () => {
        const account = await createAccount(t);
        const alias = `${unique('Az09')}_-`;
        const long = `${unique('L')}${'x'.repeat(255)}`.slice(0, 255);

        const first = await createLink(account, { url: 'https://example.com/', alias });
        const second = await createLink(account, { url: 'https://example.com/', alias: long });

        expect(first.alias).toBe(alias);
        expect(first.short_url).toBe(`http://localhost:3000/${alias}`);
        expect(second.alias).toBe(long);
        expect(second.alias).toHaveLength(255);
      });

      it('accepts an alias that merely contains a reserved word', async () => {
        const account = await createAccount(t);
        const alias = unique('api');

        const link = await createLink(account, { url: 'https://example.com/', alias });

        expect(link.alias).toBe(alias);
      });

      it.each([
        ['the same alias', (alias: string) => alias],
        ['the alias in another case', (alias: string) => alias.toUpperCase()],
      ])('refuses %s on the same domain with 422', async (_label, variant) => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const alias = unique('taken');
        const original = await createLink(account, { url: 'https://example.com/', alias });

        const mine = await form(account, 'post', LINKS, {
          url: 'https://example.com/2',
          alias: variant(alias),
        });
        const theirs = await form(other, 'post', LINKS, {
          url: 'https://example.com/3',
          alias: variant(alias),
        });

        expect(mine.status).toBe(422);
        expect(mine.body).toEqual(ALIAS_TAKEN);
        expect(theirs.status).toBe(422);
        expect(theirs.body).toEqual(ALIAS_TAKEN);
        expect((await list(account)).body.data).toEqual([original]);
        expect((await list(other)).body.meta.total).toBe(0);
      });

      it('allows the same alias on another domain', async () => {
        const account = await createAccount(t);
        const domain = await createDomain(account);
        const alias = unique('twice');
        const onDefault = await createLink(account, { url: 'https://example.com/1', alias });

        const onOwn = await createLink(account, {
          url: 'https://example.com/2',
          alias,
          domain_id: String(domain.id),
        });

        expect(onOwn.alias).toBe(alias);
        expect(onOwn.short_url).toBe(`${domain.url}/${alias}`);
        expect(onDefault.short_url).toBe(`http://localhost:3000/${alias}`);
        expect(onOwn.id).not.toBe(onDefault.id);
      });

      it.each(['', '   '])('makes a random alias of 5 characters when it is %j', async (alias) => {
        const account = await createAccount(t);

        const link = await createLink(account, { url: 'https://example.com/', alias });

        expect(link.alias).toMatch(RANDOM_ALIAS);
      });

      it('makes a different random alias for each link', async () => {
        const account = await createAccount(t);

        const aliases: string[] = [];
        for (let i = 0; i < 10; i += 1)
          aliases.push((await createLink(account, { url: 'https://example.com/' })).alias);

        for (const alias of aliases) expect(alias).toMatch(RANDOM_ALIAS);
        expect(new Set(aliases).size).toBe(10);
      });

      it('grows a random alias by one character after each collision', async () => {
        const account = await createAccount(t);
        const domain = await createDomain(account);
        // Every random draw is "0": each new alias collides with the one before it.
        const draws = jest.spyOn(crypto, 'randomInt').mockImplementation(() => 0);
        const aliases: string[] = [];
        try {
          for (let i = 0; i < 3; i += 1) {
            const link = await createLink(account, {
              url: 'https://example.com/',
              domain_id: String(domain.id),
            });
            aliases.push(link.alias);
          }
        } finally {
          draws.mockRestore();
        }

        expect(aliases).toEqual(['00000', '000000', '0000000']);
      });

      it('lets exactly one of two concurrent creates with the same alias through', async () => {
        const account = await createAccount(t);
        const alias = unique('race');

        const responses = await Promise.all([
          form(account, 'post', LINKS, { url: 'https://example.com/1', alias }),
          form(account, 'post', LINKS, { url: 'https://example.com/2', alias: alias.toUpperCase() }),
        ]);

        expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
        expect(responses.find((response) => response.status === 422)?.body).toEqual(ALIAS_TAKEN);
        expect((await list(account)).body.meta.total).toBe(1);
      });

      it('trims the alias', async () => {
        const account = await createAccount(t);
        const alias = unique('trim');

        const link = await createLink(account, { url: 'https://example.com/', alias: `  ${alias}  ` });

        expect(link.alias).toBe(alias);
      });
    });

    describe('space_id, pixel_ids and domain_id', () => {
      it("refuses another account's space with 422 naming space_id", async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const theirs = await createSpace(other);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          space_id: String(theirs.id),
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('space_id', 'The selected space id is invalid.'));
        expect((await showSpace(other, theirs.id)).links_count).toBe(0);
      });

      it.each([
        [String(UNKNOWN_ID), 'The selected space id is invalid.'],
        ['abc', 'The space id field must be an integer.'],
        ['-1', 'The space id field must be at least 0.'],
      ])('refuses space_id %j with 422', async (value, reason) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, { url: 'https://example.com/', space_id: value });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('space_id', reason));
      });

      it.each(['', '0'])('takes space_id %j as no space', async (value) => {
        const account = await createAccount(t);

        const link = await createLink(account, { url: 'https://example.com/', space_id: value });

        expect(link.space).toBeNull();
      });

      it("names each of another account's pixels by its position", async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const mine = await createPixel(account);
        const theirs = await createPixel(other);

        const second = await form(
          account,
          'post',
          LINKS,
          `url=https://example.com/&pixel_ids[]=${mine.id}&pixel_ids[]=${theirs.id}`,
        );
        const first = await form(
          account,
          'post',
          LINKS,
          `url=https://example.com/&pixel_ids[]=${theirs.id}&pixel_ids[]=${mine.id}`,
        );
        const both = await form(
          account,
          'post',
          LINKS,
          `url=https://example.com/&pixel_ids[]=${theirs.id}&pixel_ids[]=${UNKNOWN_ID}`,
        );

        expect(second.status).toBe(422);
        expect(second.body).toEqual(invalid('pixel_ids.1', 'The selected pixel is invalid.'));
        expect(first.status).toBe(422);
        expect(first.body).toEqual(invalid('pixel_ids.0', 'The selected pixel is invalid.'));
        expect(both.status).toBe(422);
        expect(both.body).toEqual({
          message: {
            'pixel_ids.0': ['The selected pixel is invalid.'],
            'pixel_ids.1': ['The selected pixel is invalid.'],
          },
          status: 422,
        });
        expect((await list(account)).body.meta.total).toBe(0);
      });

      it('refuses a pixel id that is not a number', async () => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, 'url=https://example.com/&pixel_ids[]=abc');

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('pixel_ids', 'The selected id is invalid.'));
      });

      it.each(['2147483648', '99999999999', '0x1', '1e3', '-1', '0', '1.5'])(
        'refuses pixel id %j, which no row can have, with 422 naming pixel_ids',
        async (id) => {
          const account = await createAccount(t);

          const created = await form(account, 'post', LINKS, `url=https://example.com/&pixel_ids[]=${id}`);
          const listed = await call(account, 'get', `${LINKS}?pixel_id=${id}`);

          expect(created.status).toBe(422);
          expect(created.body).toEqual(invalid('pixel_ids', 'The selected id is invalid.'));
          expect(listed.status).toBe(422);
          expect(Object.keys(listed.body.message as object)).toEqual(['pixel_id']);
        },
      );

      it.each(['space_id', 'domain_id', 'domain'])(
        'refuses %s beyond the integer range, in a body and as a list filter, with 422 naming it',
        async (field) => {
          const account = await createAccount(t);

          const created = await form(account, 'post', LINKS, {
            url: 'https://example.com/',
            [field]: '2147483648',
          });
          const listed = await call(account, 'get', `${LINKS}?${field}=2147483648`);

          expect(created.status).toBe(422);
          expect(Object.keys(created.body.message as object)).toEqual([field]);
          if (field !== 'domain') {
            expect(listed.status).toBe(422);
            expect(Object.keys(listed.body.message as object)).toEqual([field]);
          }
        },
      );

      it('keeps the pixels once each, ordered by id, from a repeated or JSON list', async () => {
        const account = await createAccount(t);
        const a = await createPixel(account, 'A');
        const b = await createPixel(account, 'B');

        const fromForm = await createLink(
          account,
          `url=https://example.com/&pixel_ids[]=${b.id}&pixel_ids[]=${a.id}&pixel_ids[]=${b.id}`,
        );
        const fromJson = await json(account, 'post', LINKS, {
          url: 'https://example.com/',
          pixel_ids: [b.id],
        });

        expect(fromForm.pixels.map((pixel) => pixel.id)).toEqual([a.id, b.id]);
        expect(fromJson.status).toBe(201);
        expect(fromJson.body.data.pixels).toEqual([expect.objectContaining({ id: b.id, name: 'B' })]);
      });

      it.each<[string, 'domain_id' | 'domain']>([
        ['domain_id', 'domain_id'],
        ['domain', 'domain'],
      ])("refuses another account's domain sent as %s with 422 naming it", async (_label, field) => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const theirs = await createDomain(other);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          [field]: String(theirs.id),
        });
        const unknown = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          [field]: String(UNKNOWN_ID),
        });

        const reason = `The selected ${field.replace('_', ' ')} is invalid.`;
        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid(field, reason));
        expect(unknown.status).toBe(422);
        expect(unknown.body).toEqual(invalid(field, reason));
        expect((await list(account)).body.meta.total).toBe(0);
      });

      it('refuses a domain_id that is not a number', async () => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, { url: 'https://example.com/', domain_id: 'x' });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('domain_id', 'The domain id field must be an integer.'));
      });

      it('reports every invalid field at once', async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const [space, pixel, domain] = [
          await createSpace(other),
          await createPixel(other),
          await createDomain(other),
        ];

        const response = await form(
          account,
          'post',
          LINKS,
          `url=https://example.com/&space_id=${space.id}&pixel_ids[]=${pixel.id}&domain_id=${domain.id}`,
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          message: {
            domain_id: ['The selected domain id is invalid.'],
            space_id: ['The selected space id is invalid.'],
            'pixel_ids.0': ['The selected pixel is invalid.'],
          },
          status: 422,
        });
      });
    });

    describe('active period', () => {
      it.each([
        ['2026-02-30 10:00', 'February 30'],
        ['2026-13-01 10:00', 'month 13'],
        ['2026-04-31 10:00', 'April 31'],
        ['2026-01-01 24:00', 'hour 24'],
        ['2026-01-01 10:60', 'minute 60'],
        ['2026/01/01', 'slashes'],
        ['2026-01-01', 'no time'],
        ['2026-01-01 10:00:00', 'seconds in the plain format'],
        ['01-01-2026 10:00', 'day first'],
        ['2026-01-01T10:00:00', 'ISO without a zone'],
        ['tomorrow', 'words'],
        ['10000-01-01 00:00', 'a five-digit year'],
        ['9999-12-31T23:00-14:00', 'a zone that moves it past year 9999'],
        ['0000-01-01 00:00', 'year zero'],
      ])('refuses %j (%s) in either field with 422 naming it', async (value) => {
        const account = await createAccount(t);

        const start = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          active_period_start_at: value,
          active_period_end_at: '2099-01-01 00:00',
        });
        const end = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          active_period_start_at: '2026-01-01 00:00',
          active_period_end_at: value,
        });

        expect(start.status).toBe(422);
        expect(start.body).toEqual(invalid('active_period_start_at', DATE_FORMAT('active_period_start_at')));
        expect(end.status).toBe(422);
        expect(end.body).toEqual(invalid('active_period_end_at', DATE_FORMAT('active_period_end_at')));
      });

      it.each([
        ['2026-01-01T10:00:00+02:00', '2026-01-01T08:00:00.000000Z'],
        ['2026-01-01T10:00:00Z', '2026-01-01T10:00:00.000000Z'],
        ['2026-01-01T10:00-05:00', '2026-01-01T15:00:00.000000Z'],
        ['2026-01-01T10:00:30.5+0100', '2026-01-01T09:00:30.500000Z'],
        ['2028-02-29 12:34', '2028-02-29T12:34:00.000000Z'],
        ['  2026-01-01 10:00  ', '2026-01-01T10:00:00.000000Z'],
      ])('accepts %j, stored as %s', async (value, stored) => {
        const account = await createAccount(t);

        const link = await createLink(account, {
          url: 'https://example.com/',
          active_period_start_at: value,
          active_period_end_at: '2099-12-31 00:00',
        });

        expect(link.active_period_start_at).toBe(stored);
        expect(link.active_period_end_at).toBe('2099-12-31T00:00:00.000000Z');
        expect(link.expires_at).toBe(link.active_period_end_at);
      });

      it('refuses a start without an end, naming the end', async () => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          active_period_start_at: '2026-01-01 00:00',
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(END_REQUIRED);
      });

      it('refuses an end without a start, naming the start', async () => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          active_period_start_at: '',
          active_period_end_at: '2026-01-01 00:00',
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(START_REQUIRED);
      });

      it.each([
        ['equal', '2026-05-01 10:00', '2026-05-01 10:00'],
        ['the end one minute before', '2026-05-01 10:00', '2026-05-01 09:59'],
        ['the same instant in two zones', '2026-05-01T10:00:00+02:00', '2026-05-01 08:00'],
      ])('refuses a start and end that are %s', async (_label, start, end) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          active_period_start_at: start,
          active_period_end_at: end,
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(END_AFTER_START);
      });
    });

    describe('clicks_limit', () => {
      it.each([
        ['-1', 'The clicks limit field must be at least 0.'],
        ['1000000000', 'The clicks limit field must not be greater than 999999999.'],
        ['abc', 'The clicks limit field must be an integer.'],
        ['1.5', 'The clicks limit field must be an integer.'],
        ['1e3', 'The clicks limit field must be an integer.'],
      ])('refuses %j with 422 naming clicks_limit', async (value, reason) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          clicks_limit: value,
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('clicks_limit', reason));
      });

      it.each<[string, string | number, number | null]>([
        ['0 as no limit', '0', null],
        ['an empty value as no limit', '', null],
        ['1', '1', 1],
        ['999999999', '999999999', 999_999_999],
        ['a JSON number', 25, 25],
      ])('takes %s', async (_label, value, expected) => {
        const account = await createAccount(t);

        const response =
          typeof value === 'number'
            ? await json(account, 'post', LINKS, { url: 'https://example.com/', clicks_limit: value })
            : await form(account, 'post', LINKS, { url: 'https://example.com/', clicks_limit: value });

        expect(response.status).toBe(201);
        expect(response.body.data.clicks_limit).toBe(expected);
      });
    });

    describe('privacy', () => {
      it.each([
        ['3', 'The selected privacy is invalid.'],
        ['-1', 'The selected privacy is invalid.'],
        ['public', 'The selected privacy is invalid.'],
        ['', 'The privacy field is required.'],
      ])('refuses privacy %j with 422', async (value, reason) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, { url: 'https://example.com/', privacy: value });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('privacy', reason));
      });

      it.each([
        ['no password', {}],
        ['an empty password', { password: '' }],
      ])('refuses privacy 2 with %s, naming password', async (_label, extra) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          privacy: '2',
          ...extra,
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(PASSWORD_REQUIRED);
      });

      it.each([
        ['0', 0, false],
        ['1', 1, false],
        ['2', 2, true],
      ])('accepts privacy %s', async (value, expected, withPassword) => {
        const account = await createAccount(t);

        const link = await createLink(account, {
          url: 'https://example.com/',
          privacy: value,
          ...(withPassword ? { password: 'pw' } : {}),
        });

        expect(link.privacy).toBe(expected);
        expect(link.password).toBe(withPassword);
      });
    });

    describe.each(['sensitive_content', 'disabled'])('%s', (field) => {
      it.each<[string | boolean | number, 0 | 1]>([
        ['1', 1],
        ['true', 1],
        ['0', 0],
        ['false', 0],
      ])('accepts the form value %j', async (value, expected) => {
        const account = await createAccount(t);

        const link = await createLink(account, { url: 'https://example.com/', [field]: value });

        expect((link as unknown as Record<string, unknown>)[field]).toBe(expected);
      });

      it.each<[boolean | number, 0 | 1]>([
        [true, 1],
        [false, 0],
        [1, 1],
        [0, 0],
      ])('accepts the JSON value %j', async (value, expected) => {
        const account = await createAccount(t);

        const response = await json(account, 'post', LINKS, { url: 'https://example.com/', [field]: value });

        expect(response.status).toBe(201);
        expect(response.body.data[field]).toBe(expected);
      });

      it.each<[string, 'form' | 'json', unknown]>([
        ['2', 'form', '2'],
        ['yes', 'form', 'yes'],
        ['on', 'form', 'on'],
        ['-1', 'form', '-1'],
        ['JSON 2', 'json', 2],
        ['JSON "yes"', 'json', 'yes'],
      ])('refuses %s with 422', async (_label, type, value) => {
        const account = await createAccount(t);

        const response = await (type === 'form' ? form : json)(account, 'post', LINKS, {
          url: 'https://example.com/',
          [field]: value,
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid(field, `The ${field.replace('_', ' ')} field must be true or false.`),
        );
      });

      it('refuses an empty value: the field is not nullable', async () => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, { url: 'https://example.com/', [field]: '' });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid(field, `The ${field.replace('_', ' ')} field is required.`));
      });
    });

    describe('targeting', () => {
      const VALID: [TargetsType, string[], string[]][] = [
        [TargetsType.Continents, [...CONTINENTS, 'eu'], [...CONTINENTS, 'EU']],
        [
          TargetsType.Countries,
          ['US', 'DE', 'JP', 'BR', 'ZA', 'AQ', 'us', 'gb'],
          ['US', 'DE', 'JP', 'BR', 'ZA', 'AQ', 'US', 'GB'],
        ],
        [TargetsType.OperatingSystems, [...OPERATING_SYSTEMS], [...OPERATING_SYSTEMS]],
        [TargetsType.Browsers, [...BROWSERS], [...BROWSERS]],
        [
          TargetsType.Devices,
          [...DEVICES, ...DEVICES.map((device) => device.toLowerCase())],
          [...DEVICES, ...DEVICES],
        ],
        [TargetsType.Languages, ['en', 'de', 'fr', 'ja', 'zh', 'EN'], ['en', 'de', 'fr', 'ja', 'zh', 'en']],
      ];

      it.each(VALID)(
        'accepts every allowed key of %s, stored in canonical form',
        async (type, keys, stored) => {
          const account = await createAccount(t);
          const targets = keys.map((key, index): [string, string] => [key, `https://t${index}.example/`]);

          const link = await createLink(
            account,
            formBody([['url', 'https://example.com/'], ['targets_type', type], ...targetFields(targets)]),
          );

          expect(link.targets_type).toBe(type);
          expect(link.targets).toEqual(
            stored.map((key, index) => ({ key, value: `https://t${index}.example/` })),
          );
          expect(link.last_rotation).toBeNull();
        },
      );

      it('stores a country sent in lower case in upper case', async () => {
        const account = await createAccount(t);

        const link = await createLink(
          account,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'countries'],
            ...targetFields([['us', 'https://us.example/']]),
          ]),
        );

        expect(link.targets).toEqual([{ key: 'US', value: 'https://us.example/' }]);
      });

      it('stores a device sent in lower case as listed', async () => {
        const account = await createAccount(t);

        const link = await createLink(
          account,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'devices'],
            ...targetFields([['mobile', 'https://m.example/']]),
          ]),
        );

        expect(link.targets).toEqual([{ key: 'Mobile', value: 'https://m.example/' }]);
      });

      it.each<[TargetsType, string]>([
        [TargetsType.Countries, 'XX'],
        [TargetsType.Countries, 'USA'],
        [TargetsType.Countries, 'U1'],
        [TargetsType.Countries, 'EU'],
        [TargetsType.Countries, ''],
        [TargetsType.Continents, 'Europe'],
        [TargetsType.Continents, 'EUR'],
        [TargetsType.Continents, 'US'],
        [TargetsType.OperatingSystems, 'BeOS'],
        [TargetsType.OperatingSystems, 'windows'],
        [TargetsType.OperatingSystems, 'Chrome'],
        [TargetsType.Browsers, 'Netscape'],
        [TargetsType.Browsers, 'chrome'],
        [TargetsType.Browsers, 'Windows'],
        [TargetsType.Devices, 'Fridge'],
        [TargetsType.Devices, 'MOBILE'],
        [TargetsType.Languages, 'xx'],
        [TargetsType.Languages, 'eng'],
        [TargetsType.Languages, 'US'],
      ])('refuses the %s key %j with 422 naming its position', async (type, key) => {
        const account = await createAccount(t);
        const valid = VALID.find(([candidate]) => candidate === type)![1][0];

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', type],
            ...targetFields([
              [valid, 'https://ok.example/'],
              [key, 'https://bad.example/'],
            ]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.1.key', `The selected key is invalid for ${type}.`));
        expect((await list(account)).body.meta.total).toBe(0);
      });

      it('refuses a bad key in a JSON body too', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', LINKS, {
          url: 'https://example.com/',
          targets_type: 'countries',
          targets: [{ key: 'XX', value: 'https://x.example/' }],
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.0.key', 'The selected key is invalid for countries.'));
      });

      it('requires a key for every type but rotations', async () => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'countries'],
            ...targetFields([[null, 'https://x.example/']]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.0.key', 'The key field is required.'));
      });

      it('takes rotations without keys, ignoring a key sent anyway', async () => {
        const account = await createAccount(t);

        const link = await createLink(
          account,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'rotations'],
            ...targetFields([
              [null, 'https://a.example/'],
              ['whatever', 'https://b.example/'],
              [null, 'https://c.example/'],
            ]),
          ]),
        );

        expect(link.targets_type).toBe('rotations');
        expect(link.targets).toEqual([
          { value: 'https://a.example/' },
          { value: 'https://b.example/' },
          { value: 'https://c.example/' },
        ]);
        expect(link.last_rotation).toBeNull();
      });

      it.each([
        ['not a URL', 'nope', 'The value field must be a valid URL.'],
        ['javascript:', 'javascript:alert(1)', 'The value field must be an http or https URL.'],
        ['empty', '', 'The value field is required.'],
      ])('refuses a target value that is %s, naming targets.N.value', async (_label, value, reason) => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'countries'],
            ...targetFields([
              ['US', 'https://us.example/'],
              ['DE', value],
            ]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.1.value', reason));
      });

      it('refuses a target without a value', async () => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          'url=https://example.com/&targets_type=countries&targets[0][key]=US',
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.0.value', 'The value field is required.'));
      });

      it.each([
        [100, 201],
        [101, 422],
      ])('takes %i targets with %i', async (count, status) => {
        const account = await createAccount(t);
        const targets = Array.from({ length: count }, (_, index): [null, string] => [
          null,
          `https://r${index}.example/`,
        ]);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'rotations'],
            ...targetFields(targets),
          ]),
        );

        expect(response.status).toBe(status);
        if (status === 201) {
          expect(response.body.data.targets).toHaveLength(100);
          expect(response.body.data.targets[99]).toEqual({ value: 'https://r99.example/' });
        } else {
          expect(response.body).toEqual(
            invalid('targets', 'The targets field must not have more than 100 items.'),
          );
        }
      });

      it('refuses targets without targets_type, naming targets_type', async () => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([['url', 'https://example.com/'], ...targetFields([['US', 'https://us.example/']])]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('targets_type', 'The targets type field is required when targets is present.'),
        );
      });

      it.each([
        ['absent', 'url=https://example.com/&targets_type=countries'],
        ['empty', 'url=https://example.com/&targets_type=countries&targets='],
      ])('refuses targets_type with targets %s, naming targets', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('targets', 'The targets field is required when targets type is present.'),
        );
      });

      it.each(['planets', 'country', 'Countries'])('refuses targets_type %j with 422', async (type) => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', type],
            ...targetFields([['US', 'https://us.example/']]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets_type', 'The selected targets type is invalid.'));
      });

      it.each<[string, 'form' | 'json', Body | string]>([
        ['a string', 'form', 'url=https://example.com/&targets_type=countries&targets=US'],
        [
          'a list of strings',
          'json',
          { url: 'https://example.com/', targets_type: 'countries', targets: ['US'] },
        ],
      ])('refuses targets given as %s', async (_label, type, body) => {
        const account = await createAccount(t);

        const response = await (type === 'form' ? form : json)(account, 'post', LINKS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets', 'Each target must have a key and a value.'));
      });

      it('takes an empty targets_type with no targets as no targeting', async () => {
        const account = await createAccount(t);

        const link = await createLink(account, { url: 'https://example.com/', targets_type: '' });

        expect(link.targets_type).toBeNull();
        expect(link.targets).toBeNull();
      });
    });

    describe('title', () => {
      it('sets the title from the body, trimmed, and fetches nothing', async () => {
        const account = await createAccount(t);
        const host = `${unique('titled')}.slow.example`;

        const link = await createLink(account, { url: `https://${host}/`, title: '  My   page  ' });

        expect(link.title).toBe('My   page');
        await sleep(50);
        expect(titleLookups).not.toContain(host);
        expect((await showLink(account, link.id)).body.data.title).toBe('My   page');
      });

      it('accepts 255 characters and refuses 256', async () => {
        const account = await createAccount(t);

        const ok = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          title: 't'.repeat(255),
        });
        const tooLong = await form(account, 'post', LINKS, {
          url: 'https://example.com/',
          title: 't'.repeat(256),
        });

        expect(ok.status).toBe(201);
        expect(ok.body.data.title).toBe('t'.repeat(255));
        expect(tooLong.status).toBe(422);
        expect(tooLong.body).toEqual(
          invalid('title', 'The title field must not be greater than 255 characters.'),
        );
      });

      it('answers without waiting for the page title, which stays null while offline', async () => {
        const account = await createAccount(t);
        const host = `${unique('page')}.slow.example`;

        // The lookup of this host never answers until released: a create that waited would time out.
        const response = await form(account, 'post', LINKS, { url: `https://${host}/article` }).timeout(5000);

        expect(response.status).toBe(201);
        expect(response.body.data.title).toBeNull();
        expect(titleLookups).toContain(host);
        releaseSlowLookups();
        await sleep(50);
        const shown = await showLink(account, response.body.data.id);
        expect(shown.body.data.title).toBeNull();
      });

      it('leaves the title null when the page cannot be reached', async () => {
        const account = await createAccount(t);
        const host = `${unique('offline')}.example`;

        const link = await createLink(account, { url: `https://${host}/` });
        await sleep(50);

        expect(link.title).toBeNull();
        expect(titleLookups).toContain(host);
        expect((await showLink(account, link.id)).body.data.title).toBeNull();
      });
    });
  });

  describe('GET /links/:id (show)', () => {
    it('answers with the link in the data envelope', async () => {
      const account = await createAccount(t);
      const link = await createLink(account, { url: 'https://example.com/show', title: 'Shown' });

      const response = await showLink(account, link.id);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({ data: link, status: 200 });
      expectLinkFields(response.body.data);
    });

    it('shows the clicks counted so far', async () => {
      const account = await createAccount(t);
      const link = await createLink(account, { url: 'https://example.com/' });
      await setClicks(link.id, 42);

      const response = await showLink(account, link.id);

      expect(response.body.data).toEqual({ ...link, clicks: 42 });
    });
  });

  describe.each(['put', 'patch'] as const)('%s /links/:id (update)', (verb) => {
    async function update(account: TestAccount, id: number, body: Body | string) {
      return form(account, verb, `${LINKS}/${id}`, body);
    }

    it('changes what is sent and keeps everything else', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      await sleep(15);

      const response = await update(account, link.id, { title: 'New title', url: 'https://example.org/new' });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expectLinkFields(response.body.data);
      const updated = response.body.data as LinkData;
      expect(updated).toEqual({
        ...link,
        title: 'New title',
        url: 'https://example.org/new',
        updated_at: expect.stringMatching(ISO_DATE),
      });
      expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(link.updated_at));
      expect((await showLink(account, link.id)).body).toEqual({ data: updated, status: 200 });
    });

    it('keeps everything with an empty body, and keeps the secrets', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const before = await hashes(link.id);

      const response = await update(account, link.id, {});

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...link, updated_at: expect.stringMatching(ISO_DATE) });
      expect(await hashes(link.id)).toEqual(before);
    });

    it('changes every field from a JSON body', async () => {
      const account = await createAccount(t);
      const { link, pixels } = await createFullLink(account);
      const space = await createSpace(account, 'Other');
      const alias = unique('upd');

      const response = await json(account, verb, `${LINKS}/${link.id}`, {
        url: 'https://example.net/',
        alias,
        title: 'JSON title',
        space_id: space.id,
        pixel_ids: [pixels[1].id],
        sensitive_content: false,
        privacy: 0,
        active_period_start_at: '2030-01-01 00:00',
        active_period_end_at: '2031-01-01T00:00:00Z',
        clicks_limit: 0,
        expiration_url: 'https://example.net/expired',
        targets_type: 'devices',
        targets: [{ key: 'tablet', value: 'https://tablet.example/' }],
        disabled: true,
      });

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...link,
        url: 'https://example.net/',
        alias,
        short_url: `${link.domain.url}/${alias}`,
        title: 'JSON title',
        space: await showSpace(account, space.id),
        pixels: [expect.objectContaining({ id: pixels[1].id })],
        sensitive_content: 0,
        privacy: 0,
        active_period_start_at: '2030-01-01T00:00:00.000000Z',
        active_period_end_at: '2031-01-01T00:00:00.000000Z',
        expires_at: '2031-01-01T00:00:00.000000Z',
        clicks_limit: null,
        expiration_url: 'https://example.net/expired',
        targets_type: 'devices',
        targets: [{ key: 'Tablet', value: 'https://tablet.example/' }],
        disabled: 1,
        updated_at: expect.stringMatching(ISO_DATE),
      });
    });

    it.each<[string, string, Partial<LinkData>]>([
      ['expiration_url', 'expiration_url=', { expiration_url: null }],
      ['redirect_password', 'redirect_password=', { redirect_password: false }],
      ['password', 'password=', { password: false }],
      ['space_id', 'space_id=', { space: null }],
      ['space_id as 0', 'space_id=0', { space: null }],
      ['title', 'title=', { title: null }],
      ['clicks_limit', 'clicks_limit=', { clicks_limit: null }],
      ['clicks_limit as 0', 'clicks_limit=0', { clicks_limit: null }],
      [
        'the active period',
        'active_period_start_at=&active_period_end_at=',
        { active_period_start_at: null, active_period_end_at: null, expires_at: null },
      ],
      ['targets_type', 'targets_type=', { targets_type: null, targets: null }],
      ['pixel_ids[]', 'pixel_ids[]=', { pixels: [] }],
      ['pixel_ids', 'pixel_ids=', { pixels: [] }],
    ])('an empty %s clears it', async (_label, body, expected) => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);

      const response = await update(account, link.id, body);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...link,
        ...expected,
        updated_at: expect.stringMatching(ISO_DATE),
      });
      expect((await showLink(account, link.id)).body.data).toEqual(response.body.data);
    });

    it('clears the stored hashes with empty passwords', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);

      const response = await update(account, link.id, 'password=&redirect_password=');

      expect(response.status).toBe(200);
      expect(await hashes(link.id)).toEqual({ password_hash: null, redirect_password_hash: null });
    });

    it('replaces a password with a new hash', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const before = await hashes(link.id);

      const response = await update(account, link.id, { redirect_password: 'another-secret' });

      expect(response.status).toBe(200);
      expect(response.body.data.redirect_password).toBe(true);
      expect(response.text).not.toContain('another-secret');
      const after = await hashes(link.id);
      expect(after.redirect_password_hash).toMatch(/^scrypt\$/);
      expect(after.redirect_password_hash).not.toBe(before.redirect_password_hash);
      expect(after.password_hash).toBe(before.password_hash);
    });

    it.each<[string, Body | string, object]>([
      ['an empty url', { url: '' }, invalid('url', 'The url field is required.')],
      [
        'a javascript: url',
        { url: 'javascript:alert(1)' },
        invalid('url', 'The url field must be an http or https URL.'),
      ],
      [
        'an empty sensitive_content',
        { sensitive_content: '' },
        invalid('sensitive_content', 'The sensitive content field is required.'),
      ],
      ['an empty disabled', { disabled: '' }, invalid('disabled', 'The disabled field is required.')],
      ['an empty privacy', { privacy: '' }, invalid('privacy', 'The privacy field is required.')],
      ['a reserved alias', { alias: 'docs' }, invalid('alias', 'The alias is reserved.')],
      ['a bad alias', { alias: 'a b' }, invalid('alias', ALIAS_CHARSET)],
      ['an end before the start', { active_period_end_at: '2019-01-01 00:00' }, END_AFTER_START],
      ['an end cleared alone', { active_period_end_at: '' }, END_REQUIRED],
      ['a start cleared alone', { active_period_start_at: '' }, START_REQUIRED],
      [
        'an impossible date',
        { active_period_end_at: '2099-02-30 00:00' },
        invalid('active_period_end_at', DATE_FORMAT('active_period_end_at')),
      ],
      [
        'a bad key for the kept targets_type',
        'targets[0][key]=Chrome&targets[0][value]=https://c.example/',
        invalid('targets.0.key', 'The selected key is invalid for countries.'),
      ],
      [
        'a new targets_type without targets',
        { targets_type: 'devices' },
        invalid('targets', 'The targets field is required when targets type is present.'),
      ],
      [
        'targets cleared while targets_type stays',
        { targets: '' },
        invalid('targets', 'The targets field is required when targets type is present.'),
      ],
      ['privacy 2 while clearing the password', { privacy: '2', password: '' }, PASSWORD_REQUIRED],
      [
        'clicks_limit -1',
        { clicks_limit: '-1' },
        invalid('clicks_limit', 'The clicks limit field must be at least 0.'),
      ],
      [
        'a pixel of nobody',
        `pixel_ids[]=${UNKNOWN_ID}`,
        invalid('pixel_ids.0', 'The selected pixel is invalid.'),
      ],
      [
        'a space of nobody',
        { space_id: String(UNKNOWN_ID) },
        invalid('space_id', 'The selected space id is invalid.'),
      ],
    ])('refuses %s with 422 and changes nothing', async (_label, body, expected) => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const before = await hashes(link.id);

      const response = await update(account, link.id, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
      expect((await showLink(account, link.id)).body.data).toEqual(link);
      expect(await hashes(link.id)).toEqual(before);
    });

    it('requires a password for privacy 2 only when the link has none', async () => {
      const account = await createAccount(t);
      const bare = await createLink(account, { url: 'https://example.com/' });
      const { link: withPassword } = await createFullLink(account);

      const refused = await update(account, bare.id, { privacy: '2' });
      const kept = await update(account, withPassword.id, { privacy: '2' });
      const given = await update(account, bare.id, { privacy: '2', password: 'new' });

      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(PASSWORD_REQUIRED);
      expect(kept.status).toBe(200);
      expect(kept.body.data).toMatchObject({ privacy: 2, password: true });
      expect(given.status).toBe(200);
      expect(given.body.data).toMatchObject({ privacy: 2, password: true });
    });

    it('refuses clearing the password of a link whose privacy is 2', async () => {
      const account = await createAccount(t);
      const link = await createLink(account, { url: 'https://example.com/', privacy: '2', password: 'pw' });

      const cleared = await update(account, link.id, { password: '' });
      const madePublic = await update(account, link.id, { password: '', privacy: '0' });

      expect(cleared.status).toBe(422);
      expect(cleared.body).toEqual(PASSWORD_REQUIRED);
      expect(madePublic.status).toBe(200);
      expect(madePublic.body.data).toMatchObject({ privacy: 0, password: false });
    });

    it("ignores domain_id and domain: a link's domain never changes", async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const other = await createDomain(account);

      const response = await update(account, link.id, {
        domain_id: String(other.id),
        domain: String(other.id),
        title: 'Moved?',
      });

      expect(response.status).toBe(200);
      expect(response.body.data.domain).toEqual(link.domain);
      expect(response.body.data.short_url).toBe(link.short_url);
      expect(response.body.data.title).toBe('Moved?');
    });

    it('replaces the whole set of pixels', async () => {
      const account = await createAccount(t);
      const { link, pixels } = await createFullLink(account);
      const third = await createPixel(account, 'Third');

      const response = await update(account, link.id, `pixel_ids[]=${third.id}&pixel_ids[]=${pixels[0].id}`);

      expect(response.status).toBe(200);
      expect((response.body.data as LinkData).pixels.map((pixel) => pixel.id)).toEqual([
        pixels[0].id,
        third.id,
      ]);
      const rows: { pixel_id: number }[] = await t.dataSource.query(
        'SELECT pixel_id FROM link_pixels WHERE link_id = $1 ORDER BY pixel_id',
        [link.id],
      );
      expect(rows.map((row) => row.pixel_id)).toEqual([pixels[0].id, third.id]);
    });

    it("refuses another account's pixel and keeps the pixels", async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const { link, pixels } = await createFullLink(account);
      const theirs = await createPixel(other);

      const response = await update(account, link.id, `pixel_ids[]=${pixels[0].id}&pixel_ids[]=${theirs.id}`);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('pixel_ids.1', 'The selected pixel is invalid.'));
      expect((await showLink(account, link.id)).body.data.pixels).toEqual(link.pixels);
    });

    it("refuses another account's space", async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const { link } = await createFullLink(account);
      const theirs = await createSpace(other);

      const response = await update(account, link.id, { space_id: String(theirs.id) });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('space_id', 'The selected space id is invalid.'));
    });

    it.each<[string, string, ({ key: string; value: string } | { value: string })[], string]>([
      [
        'new targets for the same type',
        'targets[0][key]=fr&targets[0][value]=https://fr.example/',
        [{ key: 'FR', value: 'https://fr.example/' }],
        'countries',
      ],
      [
        'a new type with its targets',
        'targets_type=browsers&targets[0][key]=Firefox&targets[0][value]=https://ff.example/',
        [{ key: 'Firefox', value: 'https://ff.example/' }],
        'browsers',
      ],
      [
        'rotations',
        'targets_type=rotations&targets[0][value]=https://1.example/&targets[1][value]=https://2.example/',
        [{ value: 'https://1.example/' }, { value: 'https://2.example/' }],
        'rotations',
      ],
    ])('replaces the whole targeting with %s', async (_label, body, targets, type) => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);

      const response = await update(account, link.id, body);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ targets_type: type, targets, last_rotation: null });
    });

    it('starts the rotation afresh when the targeting changes', async () => {
      const account = await createAccount(t);
      const link = await createLink(
        account,
        'url=https://example.com/&targets_type=rotations&targets[0][value]=https://1.example/&targets[1][value]=https://2.example/',
      );
      await t.dataSource.query('UPDATE link_counters SET last_rotation = 1 WHERE link_id = $1', [link.id]);

      const untouched = await update(account, link.id, { title: 'Same targets' });
      const replaced = await update(account, link.id, 'targets[0][value]=https://3.example/');

      expect(untouched.body.data.last_rotation).toBe(1);
      expect(replaced.status).toBe(200);
      expect(replaced.body.data).toMatchObject({
        last_rotation: null,
        targets_type: 'rotations',
        targets: [{ value: 'https://3.example/' }],
      });
    });

    describe('alias', () => {
      it('changes the alias and the short url', async () => {
        const account = await createAccount(t);
        const link = await createLink(account, { url: 'https://example.com/' });
        const alias = unique('Renamed');

        const response = await update(account, link.id, { alias });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(alias);
        expect(response.body.data.short_url).toBe(`http://localhost:3000/${alias}`);
      });

      it.each([
        ['the same alias', (alias: string) => alias],
        ['the alias in another case', (alias: string) => alias.toUpperCase()],
      ])("refuses another link's alias as %s", async (_label, variant) => {
        const account = await createAccount(t);
        const alias = unique('held');
        await createLink(account, { url: 'https://example.com/1', alias });
        const link = await createLink(account, { url: 'https://example.com/2' });

        const response = await update(account, link.id, { alias: variant(alias) });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(ALIAS_TAKEN);
        expect((await showLink(account, link.id)).body.data).toEqual(link);
      });

      it('allows an alias that is taken on another domain only', async () => {
        const account = await createAccount(t);
        const domain = await createDomain(account);
        const alias = unique('elsewhere');
        await createLink(account, { url: 'https://example.com/1', alias, domain_id: String(domain.id) });
        const link = await createLink(account, { url: 'https://example.com/2' });

        const response = await update(account, link.id, { alias });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(alias);
      });

      it('allows the link its own alias in another case', async () => {
        const account = await createAccount(t);
        const alias = unique('own');
        const link = await createLink(account, { url: 'https://example.com/', alias });

        const response = await update(account, link.id, { alias: alias.toUpperCase() });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(alias.toUpperCase());
      });

      it('keeps the alias when it is sent empty', async () => {
        const account = await createAccount(t);
        const link = await createLink(account, { url: 'https://example.com/' });

        const response = await update(account, link.id, { alias: '' });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(link.alias);
      });
    });
  });

  describe('DELETE /links/:id', () => {
    it('deletes the link and answers with the deleted envelope', async () => {
      const account = await createAccount(t);
      const kept = await createLink(account, { url: 'https://example.com/kept' });
      const { link } = await createFullLink(account);

      const response = await call(account, 'delete', `${LINKS}/${link.id}`);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['id', 'object', 'deleted', 'status']);
      expect(response.body).toEqual({ id: link.id, object: 'link', deleted: true, status: 200 });
      const shown = await showLink(account, link.id);
      expect(shown.status).toBe(404);
      expect(shown.body).toEqual(NOT_FOUND);
      expect(ids(await list(account))).toEqual([kept.id]);
      const pixelRows: unknown[] = await t.dataSource.query('SELECT 1 FROM link_pixels WHERE link_id = $1', [
        link.id,
      ]);
      expect(pixelRows).toEqual([]);
    });

    it('answers 404 the second time, and on update', async () => {
      const account = await createAccount(t);
      const link = await createLink(account, { url: 'https://example.com/' });
      expect((await call(account, 'delete', `${LINKS}/${link.id}`)).status).toBe(200);

      const again = await call(account, 'delete', `${LINKS}/${link.id}`);
      const updated = await form(account, 'patch', `${LINKS}/${link.id}`, { title: 'Back?' });

      expect(again.status).toBe(404);
      expect(again.body).toEqual(NOT_FOUND);
      expect(updated.status).toBe(404);
      expect(updated.body).toEqual(NOT_FOUND);
    });

    it('frees the alias', async () => {
      const account = await createAccount(t);
      const alias = unique('freed');
      const link = await createLink(account, { url: 'https://example.com/', alias });
      expect((await call(account, 'delete', `${LINKS}/${link.id}`)).status).toBe(200);

      const again = await createLink(account, { url: 'https://example.com/again', alias });

      expect(again.alias).toBe(alias);
    });
  });

  describe('unknown, malformed and foreign ids', () => {
    const verbs = ['get', 'put', 'patch', 'delete'] as const;
    const badIds = ['abc', '0', '-1', '1.5', String(UNKNOWN_ID), '2147483648', '99999999999'];

    it.each(verbs.flatMap((verb) => badIds.map((id) => [verb, id] as const)))(
      '%s /links/%s is 404',
      async (verb, id) => {
        const account = await createAccount(t);

        const response = await call(account, verb, `${LINKS}/${id}`).type('form').send({ title: 'x' });

        expect(response.status).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      },
    );

    it.each(verbs)("%s of another account's link is 404 and leaves it as it was", async (verb) => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const { link } = await createFullLink(owner);

      const response = await call(intruder, verb, `${LINKS}/${link.id}`)
        .type('form')
        .send({ title: 'Taken over', url: 'https://evil.example/', disabled: '1' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
      const shown = await showLink(owner, link.id);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toEqual(link);
    });

    it("gives an update of another account's link 404 even where it would be refused", async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const alias = unique('held');
      await createLink(intruder, { url: 'https://example.com/', alias });
      const link = await createLink(owner, { url: 'https://example.com/' });

      const response = await form(intruder, 'put', `${LINKS}/${link.id}`, { alias, privacy: '2' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect((await showLink(owner, link.id)).body.data).toEqual(link);
    });

    it("answers a malformed update of another account's link exactly as for an unknown id", async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const link = await createLink(owner, { url: 'https://example.com/' });
      const body = { url: 'javascript:alert(1)' };

      const foreign = await form(intruder, 'put', `${LINKS}/${link.id}`, body);
      const unknown = await form(intruder, 'put', `${LINKS}/${UNKNOWN_ID}`, body);

      // The body is checked before the id is looked up: a 422 either way, which tells nothing of the link.
      expect(foreign.status).toBe(unknown.status);
      expect(foreign.body).toEqual(unknown.body);
      expect(foreign.body).toEqual(invalid('url', 'The url field must be an http or https URL.'));
      expect((await showLink(owner, link.id)).body.data).toEqual(link);
    });
  });

  describe('status', () => {
    /** One link in each state; the list filter must return exactly the right ones. */
    async function linksInEveryState(account: TestAccount) {
      const url = 'https://example.com/';
      const active = await createLink(account, { url, title: 'active' });
      const inPeriod = await createLink(account, {
        url,
        title: 'inside its period',
        active_period_start_at: '2020-01-01 00:00',
        active_period_end_at: '2099-01-01 00:00',
      });
      const underLimit = await createLink(account, { url, title: 'under its limit', clicks_limit: '5' });
      await setClicks(underLimit.id, 4);
      const zeroLimit = await createLink(account, { url, title: 'no limit', clicks_limit: '0' });
      await setClicks(zeroLimit.id, 1000);
      const ended = await createLink(account, {
        url,
        title: 'ended',
        active_period_start_at: '2020-01-01 00:00',
        active_period_end_at: '2020-06-01 00:00',
      });
      const notYet = await createLink(account, {
        url,
        title: 'not yet active',
        active_period_start_at: '2098-01-01 00:00',
        active_period_end_at: '2099-01-01 00:00',
      });
      const limitReached = await createLink(account, { url, title: 'limit reached', clicks_limit: '5' });
      await setClicks(limitReached.id, 5);
      const overLimit = await createLink(account, { url, title: 'over its limit', clicks_limit: '1' });
      await setClicks(overLimit.id, 3);
      const disabled = await createLink(account, { url, title: 'disabled', disabled: '1' });
      const disabledAndExpired = await createLink(account, {
        url,
        title: 'disabled and expired',
        disabled: 'true',
        active_period_start_at: '2020-01-01 00:00',
        active_period_end_at: '2020-06-01 00:00',
      });
      return {
        active: [active, inPeriod, underLimit, zeroLimit].map((link) => link.id),
        expired: [ended, notYet, limitReached, overLimit].map((link) => link.id),
        disabled: [disabled, disabledAndExpired].map((link) => link.id),
      };
    }

    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

    it('filters by status 0, 1, 2 and 3, each returning exactly its links', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      await createLink(other, { url: 'https://example.com/', disabled: '1' });
      const states = await linksInEveryState(account);
      const all = [...states.active, ...states.expired, ...states.disabled];

      const responses = await Promise.all(
        ['', '?status=0', '?status=1', '?status=2', '?status=3'].map((query) =>
          list(account, `${query}${query === '' ? '?' : '&'}per_page=25&sort=asc`),
        ),
      );

      for (const response of responses) expect(response.status).toBe(200);
      const [none, zero, active, expired, disabled] = responses.map(ids);
      expect(none).toEqual(sorted(all));
      expect(zero).toEqual(sorted(all));
      expect(active).toEqual(sorted(states.active));
      expect(expired).toEqual(sorted(states.expired));
      expect(disabled).toEqual(sorted(states.disabled));
      expect(responses[3].body.meta.total).toBe(4);
    });

    it('moves a link between states as it is updated', async () => {
      const account = await createAccount(t);
      const link = await createLink(account, { url: 'https://example.com/', clicks_limit: '2' });
      const statusOf = async () => {
        for (const status of [1, 2, 3]) {
          if (ids(await list(account, `?status=${status}`)).includes(link.id)) return status;
        }
        return null;
      };

      expect(await statusOf()).toBe(1);
      await setClicks(link.id, 2);
      expect(await statusOf()).toBe(2);
      await form(account, 'patch', `${LINKS}/${link.id}`, { clicks_limit: '3' });
      expect(await statusOf()).toBe(1);
      await form(account, 'patch', `${LINKS}/${link.id}`, { disabled: '1' });
      expect(await statusOf()).toBe(3);
      await form(account, 'patch', `${LINKS}/${link.id}`, { disabled: '0', clicks_limit: '' });
      expect(await statusOf()).toBe(1);
    });

    it.each(['4', '-1', 'active', '1.0'])('refuses status=%s with 422 naming status', async (value) => {
      const account = await createAccount(t);

      const response = await list(account, `?status=${value}`);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('status', 'The selected status is invalid.'));
    });
  });

  describe('GET /links (list)', () => {
    it('answers an empty account with the full list envelope', async () => {
      const account = await createAccount(t);

      const response = await list(account);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const path = listPath(response);
      expect(path).toMatch(/^http:\/\/[^/?]+\/api\/v1\/links$/);
      expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
      expect(Object.keys(response.body.links)).toEqual(['first', 'last', 'prev', 'next']);
      expect(Object.keys(response.body.meta)).toEqual(META_FIELDS);
      expect(response.body).toEqual({
        data: [],
        links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
        meta: {
          current_page: 1,
          from: null,
          last_page: 1,
          links: metaLinks(path, 1, 1),
          path,
          per_page: 10,
          to: null,
          total: 0,
        },
        status: 200,
      });
    });

    it('lists only the caller’s links, newest first, each as show gives it', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      await createLink(other, { url: 'https://example.com/theirs' });
      const { link: full } = await createFullLink(account);
      const plain = await createLink(account, { url: 'https://example.com/plain' });

      const response = await list(account);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([plain, full]);
      for (const link of response.body.data as LinkData[]) expectLinkFields(link);
      expect(response.body.meta).toMatchObject({ total: 2, from: 1, to: 2, last_page: 1 });
    });

    it('pages through the links with absolute links that keep the other parameters', async () => {
      const account = await createAccount(t);
      const inserted = await insertLinks(
        account,
        Array.from({ length: 12 }, (_, i) => ({ title: `Page ${i}` })),
      );
      const newestFirst = [...inserted].reverse();

      const first = await list(account, '?search=page');
      const second = await list(account, '?search=page&page=2');

      expect(first.status).toBe(200);
      expect(ids(first)).toEqual(newestFirst.slice(0, 10));
      const path = listPath(first);
      expect(first.body.links).toEqual({
        first: `${path}?search=page&page=1`,
        last: `${path}?search=page&page=2`,
        prev: null,
        next: `${path}?search=page&page=2`,
      });
      expect(first.body.meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 2,
        links: metaLinks(path, 1, 2, 'search=page&'),
        path,
        per_page: 10,
        to: 10,
        total: 12,
      });
      expect(second.status).toBe(200);
      expect(ids(second)).toEqual(newestFirst.slice(10));
      expect(second.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12, total: 12 });
      expect(second.body.links.prev).toBe(`${listPath(second)}?search=page&page=1`);
      expect(second.body.links.next).toBeNull();
    });

    it('answers a page beyond the last with empty data and null from/to', async () => {
      const account = await createAccount(t);
      await insertLinks(account, [{}, {}]);

      const response = await list(account, '?page=3');

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta).toMatchObject({
        current_page: 3,
        from: null,
        to: null,
        total: 2,
        last_page: 1,
      });
    });

    describe('per_page', () => {
      it.each([
        [10, 10],
        [25, 25],
        [50, 27],
        [100, 27],
      ])('accepts %i', async (perPage, shown) => {
        const account = await createAccount(t);
        await insertLinks(
          account,
          Array.from({ length: 27 }, () => ({})),
        );

        const response = await list(account, `?per_page=${perPage}`);

        expect(response.status).toBe(200);
        expect(response.body.data).toHaveLength(shown);
        expect(response.body.meta).toMatchObject({
          per_page: perPage,
          from: 1,
          to: shown,
          total: 27,
          last_page: Math.ceil(27 / perPage),
        });
      });

      it.each(['5', '11', '20', 'abc', '1000', '0', '-10', '10.5'])(
        'refuses %j with 422 naming per_page',
        async (value) => {
          const account = await createAccount(t);

          const response = await list(account, `?per_page=${value}`);

          expect(response.status).toBe(422);
          expect(response.body).toEqual(invalid('per_page', 'The selected per page is invalid.'));
        },
      );
    });

    describe('search and search_by', () => {
      async function searchable(account: TestAccount) {
        const tag = randomBytes(4).toString('hex');
        const make = (title: string, alias: string, url: string) =>
          createLink(account, { title, alias: `${alias}-${tag}`, url });
        return {
          tag,
          guide: await make('The Rust Guide', 'Rusty', 'https://docs.example/Guide/Intro'),
          news: await make('Weekly news', 'news', 'https://news.example/rust'),
          shop: await make('Shop', 'GUIDE-shop', 'https://shop.example/'),
        };
      }

      it.each<[string, (links: Awaited<ReturnType<typeof searchable>>) => number[]]>([
        ['?search=RUST', (l) => [l.guide.id]],
        ['?search=guide', (l) => [l.guide.id]],
        ['?search=guide&search_by=title', (l) => [l.guide.id]],
        ['?search=guide&search_by=alias', (l) => [l.shop.id]],
        ['?search=guide&search_by=url', (l) => [l.guide.id]],
        ['?search=RUST&search_by=alias', (l) => [l.guide.id]],
        ['?search=rust&search_by=url', (l) => [l.news.id]],
        ['?search=EXAMPLE&search_by=url', (l) => [l.shop.id, l.news.id, l.guide.id]],
        ['?search=%20weekly%20', (l) => [l.news.id]],
        ['?search=nothing-like-this', () => []],
      ])('%s finds a case-insensitive substring', async (query, expected) => {
        const account = await createAccount(t);
        const links = await searchable(account);

        const response = await list(account, query);

        expect(response.status).toBe(200);
        expect(ids(response)).toEqual(expected(links));
        expect(response.body.meta.total).toBe(expected(links).length);
      });

      it('searches the alias by the tag every alias shares', async () => {
        const account = await createAccount(t);
        const links = await searchable(account);

        const response = await list(account, `?search=${links.tag}&search_by=alias`);

        expect(ids(response)).toEqual([links.shop.id, links.news.id, links.guide.id]);
      });

      it.each([
        ['%', ['100% sure']],
        ['_', ['a_b']],
        ['a_b', ['a_b']],
        ['0%', ['100% sure']],
        ['\\', ['c\\d']],
      ])('takes %j literally', async (term, expected) => {
        const account = await createAccount(t);
        await insertLinks(
          account,
          ['100% sure', '1000 ways', 'a_b', 'ab', 'axb', 'c\\d', 'cd'].map((title) => ({ title })),
        );

        const response = await list(account, `?search=${encodeURIComponent(term)}`);

        expect(response.status).toBe(200);
        expect((response.body.data as LinkData[]).map((link) => link.title)).toEqual(expected);
      });

      it('takes % and _ literally in aliases and urls too', async () => {
        const account = await createAccount(t);
        const tag = randomBytes(4).toString('hex');
        const [underscore] = await insertLinks(account, [
          { alias: `x_y-${tag}`, url: 'https://example.com/100%25' },
          { alias: `xzy-${tag}`, url: 'https://example.com/1000' },
        ]);

        const byAlias = await list(account, `?search=${encodeURIComponent('x_y')}&search_by=alias`);
        const byUrl = await list(account, `?search=${encodeURIComponent('0%')}&search_by=url`);

        expect(ids(byAlias)).toEqual([underscore]);
        expect(ids(byUrl)).toEqual([underscore]);
      });

      it('never finds another account’s links', async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        await insertLinks(other, [{ title: 'Secret plan' }]);
        const [mine] = await insertLinks(account, [{ title: 'Public plan' }]);

        const response = await list(account, '?search=plan');

        expect(ids(response)).toEqual([mine]);
      });

      it.each([
        ['search_by', 'search=a&search_by=name', 'The selected search by is invalid.'],
        ['search_by', 'search=a&search_by=id', 'The selected search by is invalid.'],
        ['search', `search=${'s'.repeat(256)}`, 'The search field must not be greater than 255 characters.'],
        ['search', 'search=a%00b', 'The search field must not contain null characters.'],
      ])('refuses a bad %s with 422 naming it', async (parameter, query, reason) => {
        const account = await createAccount(t);

        const response = await list(account, `?${query}`);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid(parameter, reason));
      });
    });

    describe('filters', () => {
      it('filters by space_id, with 0 for links without a space', async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        const [work, home] = [await createSpace(account, 'Work'), await createSpace(account, 'Home')];
        const theirs = await createSpace(other, 'Theirs');
        await createLink(other, { url: 'https://example.com/', space_id: String(theirs.id) });
        await createLink(other, { url: 'https://example.com/' });
        const inWork = await createLink(account, { url: 'https://example.com/w', space_id: String(work.id) });
        const inHome = await createLink(account, { url: 'https://example.com/h', space_id: String(home.id) });
        const none = await createLink(account, { url: 'https://example.com/n' });
        const inWork2 = await createLink(account, {
          url: 'https://example.com/w2',
          space_id: String(work.id),
        });

        expect(ids(await list(account, `?space_id=${work.id}`))).toEqual([inWork2.id, inWork.id]);
        expect(ids(await list(account, `?space_id=${home.id}`))).toEqual([inHome.id]);
        expect(ids(await list(account, '?space_id=0'))).toEqual([none.id]);
        expect(ids(await list(account, `?space_id=${theirs.id}`))).toEqual([]);
        expect(ids(await list(account, '?space_id='))).toEqual([inWork2.id, none.id, inHome.id, inWork.id]);
      });

      it('filters by domain_id', async () => {
        const account = await createAccount(t);
        const domain = await createDomain(account);
        const onDefault = await createLink(account, { url: 'https://example.com/' });
        const onOwn = await createLink(account, {
          url: 'https://example.com/',
          domain_id: String(domain.id),
        });

        expect(ids(await list(account, `?domain_id=${domain.id}`))).toEqual([onOwn.id]);
        expect(ids(await list(account, `?domain_id=${defaultDomainId}`))).toEqual([onDefault.id]);
        expect(ids(await list(account, `?domain_id=${UNKNOWN_ID}`))).toEqual([]);
      });

      it('filters by pixel_id', async () => {
        const account = await createAccount(t);
        const [a, b] = [await createPixel(account, 'A'), await createPixel(account, 'B')];
        const withA = await createLink(account, `url=https://example.com/&pixel_ids[]=${a.id}`);
        const withBoth = await createLink(
          account,
          `url=https://example.com/&pixel_ids[]=${a.id}&pixel_ids[]=${b.id}`,
        );
        await createLink(account, { url: 'https://example.com/' });

        expect(ids(await list(account, `?pixel_id=${a.id}`))).toEqual([withBoth.id, withA.id]);
        expect(ids(await list(account, `?pixel_id=${b.id}`))).toEqual([withBoth.id]);
        const shown = await list(account, `?pixel_id=${b.id}`);
        expect((shown.body.data as LinkData[])[0].pixels.map((pixel) => pixel.id)).toEqual([a.id, b.id]);
        const theirs = await createPixel(await createAccount(t), 'Theirs');
        expect(ids(await list(account, `?pixel_id=${theirs.id}`))).toEqual([]);
      });

      it('combines status, space_id and search', async () => {
        const account = await createAccount(t);
        const space = await createSpace(account, 'Campaign');
        const inSpace = { url: 'https://example.com/', space_id: String(space.id) };
        const match = await createLink(account, { ...inSpace, title: 'Spring sale' });
        await createLink(account, { ...inSpace, title: 'Spring sale (off)', disabled: '1' });
        await createLink(account, { ...inSpace, title: 'Autumn sale' });
        await createLink(account, { url: 'https://example.com/', title: 'Spring sale elsewhere' });
        const expired = await createLink(account, {
          ...inSpace,
          title: 'Spring sale 2020',
          active_period_start_at: '2020-01-01 00:00',
          active_period_end_at: '2020-02-01 00:00',
        });

        const active = await list(account, `?status=1&space_id=${space.id}&search=spring`);
        const ended = await list(account, `?status=2&space_id=${space.id}&search=SPRING&search_by=title`);
        const noSpace = await list(account, '?status=1&space_id=0&search=spring');

        expect(ids(active)).toEqual([match.id]);
        expect(ids(ended)).toEqual([expired.id]);
        expect(ids(noSpace)).toHaveLength(1);
        expect((noSpace.body.data as LinkData[])[0].title).toBe('Spring sale elsewhere');
      });

      it.each([
        ['space_id', 'abc', 'The space id field must be an integer.'],
        ['space_id', '-1', 'The space id field must be at least 0.'],
        ['domain_id', '0', 'The domain id field must be at least 1.'],
        ['domain_id', 'x', 'The domain id field must be an integer.'],
        ['pixel_id', '0', 'The pixel id field must be at least 1.'],
        ['pixel_id', '1.5', 'The pixel id field must be an integer.'],
        ['page', '0', 'The page field must be at least 1.'],
        ['page', 'x', 'The page field must be an integer.'],
        ['sort', 'up', 'The selected sort is invalid.'],
        ['sort_by', 'created_at', 'The selected sort by is invalid.'],
        ['sort_by', 'name', 'The selected sort by is invalid.'],
      ])('refuses %s=%s with 422 naming it', async (parameter, value, reason) => {
        const account = await createAccount(t);

        const response = await list(account, `?${parameter}=${value}`);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid(parameter, reason));
      });

      it('treats empty parameters as the defaults', async () => {
        const account = await createAccount(t);
        const inserted = await insertLinks(
          account,
          Array.from({ length: 11 }, () => ({})),
        );

        const response = await list(
          account,
          '?search=&search_by=&status=&space_id=&domain_id=&pixel_id=&sort_by=&sort=&per_page=&page=',
        );

        expect(response.status).toBe(200);
        expect(ids(response)).toEqual([...inserted].reverse().slice(0, 10));
        expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 10, total: 11 });
      });
    });

    describe('sort and sort_by', () => {
      async function sortable(account: TestAccount) {
        const tag = randomBytes(4).toString('hex');
        const rows: Row[] = [
          { title: 'Banana', alias: `${tag}-b`, url: 'https://b.example/', clicks: 20 },
          { title: 'Apple', alias: `${tag}-c`, url: 'https://c.example/', clicks: 30 },
          { title: 'Cherry', alias: `${tag}-a`, url: 'https://a.example/', clicks: 10 },
        ];
        const [banana, apple, cherry] = await insertLinks(account, rows);
        return { banana, apple, cherry };
      }

      it.each<[string, (l: { banana: number; apple: number; cherry: number }) => number[]]>([
        ['', (l) => [l.cherry, l.apple, l.banana]],
        ['?sort=asc', (l) => [l.banana, l.apple, l.cherry]],
        ['?sort_by=id', (l) => [l.cherry, l.apple, l.banana]],
        ['?sort_by=id&sort=asc', (l) => [l.banana, l.apple, l.cherry]],
        ['?sort_by=clicks', (l) => [l.apple, l.banana, l.cherry]],
        ['?sort_by=clicks&sort=asc', (l) => [l.cherry, l.banana, l.apple]],
        ['?sort_by=title', (l) => [l.cherry, l.banana, l.apple]],
        ['?sort_by=title&sort=asc', (l) => [l.apple, l.banana, l.cherry]],
        ['?sort_by=alias&sort=desc', (l) => [l.apple, l.banana, l.cherry]],
        ['?sort_by=alias&sort=asc', (l) => [l.cherry, l.banana, l.apple]],
        ['?sort_by=url', (l) => [l.apple, l.banana, l.cherry]],
        ['?sort_by=url&sort=asc', (l) => [l.cherry, l.banana, l.apple]],
      ])('%j orders the links', async (query, expected) => {
        const account = await createAccount(t);
        const links = await sortable(account);

        const response = await list(account, query);

        expect(response.status).toBe(200);
        expect(ids(response)).toEqual(expected(links));
      });

      it('breaks ties by id in the same direction', async () => {
        const account = await createAccount(t);
        const [a, b, c] = await insertLinks(account, [{ clicks: 5 }, { clicks: 5 }, { clicks: 1 }]);

        expect(ids(await list(account, '?sort_by=clicks'))).toEqual([b, a, c]);
        expect(ids(await list(account, '?sort_by=clicks&sort=asc'))).toEqual([c, a, b]);
      });

      it('orders titles regardless of case, as spaces and pixels order names', async () => {
        const account = await createAccount(t);
        const [cherry, apple, date, banana] = await insertLinks(
          account,
          ['cherry', 'apple', 'Date', 'Banana'].map((title) => ({ title })),
        );

        const response = await list(account, '?sort_by=title&sort=asc');

        expect(ids(response)).toEqual([apple, banana, cherry, date]);
      });
    });
  });
});
