import crypto, { randomBytes } from 'node:crypto';
import { RESERVED_ALIASES } from '../../src/links/reserved-aliases';
import { createAccount, createTestApp, type TestApp } from '../support/app';
import { apiClient, ISO_DATE, RESOURCE_ROUTES, type Body } from '../support/api';
import { invalid, UNAUTHENTICATED } from '../support/contract';
import {
  LINKS,
  NO_VISIT_FIELDS,
  UNCHECKED,
  RANDOM_ALIAS,
  DEFAULT_DOMAIN,
  ALIAS_TAKEN,
  ALIAS_CHARSET,
  expectLinkFields,
  linkFixtures,
  type LinkData,
} from '../support/links';
import { offDocument } from '../support/openapi-responses';
import { unique } from '../support/visitors';

/** A link made: the envelope and defaults, its secrets, url and alias, and who may make one. */
describe('Links API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  const {
    createLink,
    showLink,
    createSpace,
    showSpace,
    createPixel,
    createDomain,
    hashes,
    list,
    createFullLink,
    defaultDomainId: systemDomainId,
  } = linkFixtures(() => t);
  let defaultDomainId: number;

  beforeAll(async () => {
    t = await createTestApp();
    defaultDomainId = await systemDomainId();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('authentication', () => {
    it.each(RESOURCE_ROUTES)('%s /links%s without a key is 401 and changes nothing', async (verb, suffix) => {
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
        tags: [],
        ...NO_VISIT_FIELDS,
        archived: 0,
        health: UNCHECKED,
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
        tags: [],
        ...NO_VISIT_FIELDS,
        archived: 0,
        health: UNCHECKED,
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

        // Spaces mean null too: a tolerance beyond the document, whose null in a form is the empty value.
        const response = await offDocument(
          form(account, 'post', LINKS, { url: 'https://example.com/', alias }),
          alias !== '',
        );

        expect(response.status).toBe(201);
        expect(response.body.data.alias).toMatch(RANDOM_ALIAS);
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

        // Trimmed: a tolerance beyond the document's pattern.
        const response = await offDocument(
          form(account, 'post', LINKS, { url: 'https://example.com/', alias: `  ${alias}  ` }),
        );

        expect(response.status).toBe(201);
        expect(response.body.data.alias).toBe(alias);
      });
    });
  });
});
