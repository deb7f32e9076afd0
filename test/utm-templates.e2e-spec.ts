import type { Response } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  apiClient,
  expectEmptyList,
  ISO_DATE,
  listPath,
  metaLinks,
  RESOURCE_ROUTES,
  resourceClient,
  UNKNOWN_ID,
  type Body,
} from './support/api';
import { invalid, NOT_FOUND, UNAUTHENTICATED } from './support/contract';
import { offDocument } from './support/openapi-responses';
import { unique } from './support/visitors';

const TEMPLATES = '/api/v1/utm-templates';
const TEMPLATE_FIELDS = [
  'id',
  'name',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'created_at',
  'updated_at',
];
const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };
const NAME_REQUIRED = invalid('name', 'The name field is required.');
const NAME_TOO_LONG = invalid('name', 'The name field must not be greater than 100 characters.');
const NAME_TAKEN = invalid('name', 'The name has already been taken.');
const NOTHING_SET = invalid(
  'utm_source',
  'The utm source field is required when none of utm medium / utm campaign / utm term / utm content are present.',
);

interface TemplateData {
  id: number;
  name: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  created_at: string;
  updated_at: string;
}

/** What a template in a response must look like: every field, unset UTM fields null, dates in the contract's form. */
function aTemplate(expected: Partial<TemplateData>) {
  return {
    id: expect.any(Number),
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    created_at: expect.stringMatching(ISO_DATE),
    updated_at: expect.stringMatching(ISO_DATE),
    ...expected,
  };
}

function ids(response: Response): number[] {
  return (response.body.data as TemplateData[]).map((template) => template.id);
}

describe('UTM templates API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  const { create, show, list, names } = resourceClient<TemplateData>(() => t, TEMPLATES);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Templates straight into the table, in the given order (so ids ascend with it). */
  async function insertTemplates(account: TestAccount, templateNames: string[]): Promise<number[]> {
    const inserted: number[] = [];
    for (const name of templateNames) {
      const rows: { id: number }[] = await t.dataSource.query(
        `INSERT INTO utm_templates (account_id, name, utm_source) VALUES ($1, $2, 'seed') RETURNING id`,
        [account.id, name],
      );
      inserted.push(rows[0].id);
    }
    return inserted;
  }

  /** A key of the account's, made through the API with these scopes (and spaces, if given). */
  async function keyOf(account: TestAccount, scopes: string[], spaceIds?: number[]): Promise<TestAccount> {
    const response = await json(account, 'post', '/api/v1/keys', {
      name: unique('Key'),
      scopes,
      ...(spaceIds === undefined ? {} : { space_ids: spaceIds }),
    });
    expect(response.status).toBe(201);
    const key = (response.body.data as { key: string }).key;
    return { ...account, apiKey: key, auth: `Bearer ${key}` };
  }

  async function count(account: TestAccount): Promise<number> {
    const rows: { total: number }[] = await t.dataSource.query(
      'SELECT count(*)::int AS total FROM utm_templates WHERE account_id = $1',
      [account.id],
    );
    return rows[0].total;
  }

  describe('authentication', () => {
    it.each(RESOURCE_ROUTES)(
      '%s /utm-templates%s without a key is 401 and changes nothing',
      async (verb, suffix) => {
        const owner = await createAccount(t);
        const template = await create(owner, { name: 'Kept', utm_source: 'kept' });

        const path = `${TEMPLATES}${suffix.replace(':id', String(template.id))}`;
        const response = await call(null, verb, path).type('form').send({ name: 'Changed', utm_source: 'x' });

        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHENTICATED);
        expect((await list(owner)).body.data).toEqual([template]);
      },
    );
  });

  describe('POST /utm-templates (store)', () => {
    it('creates a template from a form body: 201, the data envelope, the fields in order', async () => {
      const account = await createAccount(t);

      const response = await form(account, 'post', TEMPLATES, {
        name: 'Newsletter',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring-sale',
        utm_term: 'shoes',
        utm_content: 'header',
      });

      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(Object.keys(response.body.data as object)).toEqual(TEMPLATE_FIELDS);
      expect(response.body).toEqual({
        data: aTemplate({
          name: 'Newsletter',
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'spring-sale',
          utm_term: 'shoes',
          utm_content: 'header',
        }),
        status: 200,
      });
      expect(response.body.data.created_at).toBe(response.body.data.updated_at);
      expect((await show(account, response.body.data.id)).body).toEqual(response.body);
    });

    it('creates a template from a JSON body, the fields not given null', async () => {
      const account = await createAccount(t);

      const response = await json(account, 'post', TEMPLATES, {
        name: 'Ads',
        utm_medium: 'cpc',
        utm_term: null,
      });

      expect(response.status).toBe(201);
      expect(Object.keys(response.body.data as object)).toEqual(TEMPLATE_FIELDS);
      expect(response.body).toEqual({ data: aTemplate({ name: 'Ads', utm_medium: 'cpc' }), status: 200 });
    });

    it('trims the name and the UTM values, and keeps what is not ASCII', async () => {
      const account = await createAccount(t);

      const response = await offDocument(
        form(account, 'post', TEMPLATES, { name: '  Été \t', utm_source: ' café ', utm_content: '' }),
      );

      expect(response.status).toBe(201);
      expect(response.body.data).toEqual(aTemplate({ name: 'Été', utm_source: 'café' }));
    });

    describe('name', () => {
      it.each<[string, Body]>([
        ['missing', { utm_source: 'a' }],
        ['an empty string', { name: '', utm_source: 'a' }],
        ['whitespace only', { name: ' \t ', utm_source: 'a' }],
      ])('is required: %s is 422', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', TEMPLATES, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_REQUIRED);
        expect(await count(account)).toBe(0);
      });

      it('is at most 100 characters', async () => {
        const account = await createAccount(t);

        const refused = await form(account, 'post', TEMPLATES, { name: 'n'.repeat(101), utm_source: 'a' });
        expect(refused.status).toBe(422);
        expect(refused.body).toEqual(NAME_TOO_LONG);
        expect(await count(account)).toBe(0);

        const longest = await create(account, { name: '\u{1F600}'.repeat(100), utm_source: 'a' });
        expect(longest.name).toBe('\u{1F600}'.repeat(100));
      });

      it.each(['Newsletter', 'newsletter', 'NEWSLETTER', '  nEwSlEtTeR  '])(
        'is unique in the account regardless of case: %j is 422 when "Newsletter" exists',
        async (name) => {
          const account = await createAccount(t);
          await create(account, { name: 'Newsletter', utm_source: 'a' });

          const response = await offDocument(form(account, 'post', TEMPLATES, { name, utm_source: 'b' }));

          expect(response.status).toBe(422);
          expect(response.body).toEqual(NAME_TAKEN);
          expect(await count(account)).toBe(1);
        },
      );

      it('may be what another account names a template', async () => {
        const first = await createAccount(t);
        const second = await createAccount(t);
        await create(first, { name: 'Shared', utm_source: 'a' });

        expect((await create(second, { name: 'Shared', utm_source: 'b' })).name).toBe('Shared');
      });
    });

    describe('UTM fields', () => {
      it.each(UTM_FIELDS)('refuses %s of 256 characters with 422 naming it', async (field) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', TEMPLATES, { name: 'Long', [field]: 'v'.repeat(256) });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid(field, `The ${field.replace('_', ' ')} field must not be greater than 255 characters.`),
        );
        expect(await count(account)).toBe(0);
      });

      it.each(UTM_FIELDS)('accepts %s of 255 characters', async (field) => {
        const account = await createAccount(t);

        const template = await create(account, { name: 'Longest', [field]: 'v'.repeat(255) });

        expect(template).toEqual(aTemplate({ name: 'Longest', [field]: 'v'.repeat(255) }));
      });

      it('refuses a value that is not a string', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', TEMPLATES, { name: 'Typed', utm_medium: 5 });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('utm_medium', 'The utm medium field must be a string.'));
      });

      it.each<[string, 'form' | 'json', Body]>([
        ['no UTM field', 'form', { name: 'Empty' }],
        [
          'every UTM field empty',
          'form',
          { name: 'Empty', ...Object.fromEntries(UTM_FIELDS.map((f) => [f, ''])) },
        ],
        [
          'every UTM field null',
          'json',
          { name: 'Empty', ...Object.fromEntries(UTM_FIELDS.map((f) => [f, null])) },
        ],
        ['whitespace only', 'form', { name: 'Empty', utm_campaign: '   ' }],
      ])('refuses a template of nothing (%s) with 422 on utm_source', async (_label, type, body) => {
        const account = await createAccount(t);

        const response = await (type === 'form' ? form : json)(account, 'post', TEMPLATES, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NOTHING_SET);
        expect(await count(account)).toBe(0);
      });
    });

    it('ignores unknown and read-only fields, another account id among them', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);

      const response = await offDocument(
        json(account, 'post', TEMPLATES, {
          name: 'Mine',
          utm_source: 'a',
          id: 999,
          account_id: other.id,
          created_at: '2000-01-01T00:00:00Z',
        }),
      );

      expect(response.status).toBe(201);
      expect(response.body.data.id).not.toBe(999);
      expect(await count(account)).toBe(1);
      expect(await count(other)).toBe(0);
    });
  });

  describe('GET /utm-templates/:id (show)', () => {
    it('answers the template in the data envelope', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'Shown', utm_campaign: 'launch' });

      const response = await show(account, template.id);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: aTemplate({ id: template.id, name: 'Shown', utm_campaign: 'launch' }),
        status: 200,
      });
      expect(Object.keys(response.body.data as object)).toEqual(TEMPLATE_FIELDS);
    });

    it.each(['abc', '0', '-1', '01', '0x1', '1.0', '1e1', '2147483648', String(UNKNOWN_ID)])(
      'answers %j with 404, as every resource does',
      async (id) => {
        const account = await createAccount(t);

        for (const verb of ['get', 'put', 'patch', 'delete'] as const) {
          const response = await call(account, verb, `${TEMPLATES}/${id}`).type('form').send({ name: 'x' });
          expect(`${verb} ${response.status} ${JSON.stringify(response.body)}`).toBe(
            `${verb} 404 ${JSON.stringify(NOT_FOUND)}`,
          );
        }
      },
    );
  });

  describe.each(['put', 'patch'] as const)('%s /utm-templates/:id (update)', (verb) => {
    const FULL = {
      name: 'Full',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: 'shoes',
      utm_content: 'header',
    };

    it('changes what is given, keeps what is absent, and answers the data envelope', async () => {
      const account = await createAccount(t);
      const template = await create(account, FULL);

      const response = await form(account, verb, `${TEMPLATES}/${template.id}`, {
        name: 'Renamed',
        utm_campaign: 'summer',
      });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(Object.keys(response.body.data as object)).toEqual(TEMPLATE_FIELDS);
      expect(response.body.data).toEqual(
        aTemplate({
          ...FULL,
          id: template.id,
          name: 'Renamed',
          utm_campaign: 'summer',
          created_at: template.created_at,
        }),
      );
      expect((await show(account, template.id)).body.data).toEqual(response.body.data);
    });

    it('keeps everything for an empty body', async () => {
      const account = await createAccount(t);
      const template = await create(account, FULL);

      const response = await json(account, verb, `${TEMPLATES}/${template.id}`, {});

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(template);
    });

    it('clears a UTM field sent as an empty string (form) or null (JSON)', async () => {
      const account = await createAccount(t);
      const template = await create(account, FULL);

      const emptied = await form(account, verb, `${TEMPLATES}/${template.id}`, { utm_term: '' });
      expect(emptied.status).toBe(200);
      expect(emptied.body.data).toEqual({ ...template, utm_term: null, updated_at: expect.any(String) });

      const nulled = await json(account, verb, `${TEMPLATES}/${template.id}`, { utm_content: null });
      expect(nulled.status).toBe(200);
      expect(nulled.body.data).toEqual({
        ...template,
        utm_term: null,
        utm_content: null,
        updated_at: expect.any(String),
      });
      expect((await show(account, template.id)).body.data).toEqual(nulled.body.data);
    });

    it('clears a UTM field sent as an empty string in JSON too', async () => {
      const account = await createAccount(t);
      const template = await create(account, FULL);

      // The document says null; an empty string is the form's null, read the same in JSON.
      const response = await offDocument(
        json(account, verb, `${TEMPLATES}/${template.id}`, { utm_medium: '' }),
      );

      expect(response.status).toBe(200);
      expect(response.body.data.utm_medium).toBeNull();
    });

    it('refuses to clear the last UTM field with 422 on utm_source, and changes nothing', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'One', utm_medium: 'email' });

      const response = await form(account, verb, `${TEMPLATES}/${template.id}`, {
        utm_medium: '',
        name: 'Two',
      });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(NOTHING_SET);
      expect((await show(account, template.id)).body.data).toEqual(template);
    });

    it('may move the value to another field in the same request', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'Moved', utm_medium: 'email' });

      const response = await form(account, verb, `${TEMPLATES}/${template.id}`, {
        utm_medium: '',
        utm_source: 'newsletter',
      });

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ utm_source: 'newsletter', utm_medium: null });
    });

    it.each<[string, Body, object]>([
      ['an empty name', { name: '' }, NAME_REQUIRED],
      ['a whitespace name', { name: '   ' }, NAME_REQUIRED],
      ['a name of 101 characters', { name: 'n'.repeat(101) }, NAME_TOO_LONG],
      [
        'a utm_term of 256 characters',
        { utm_term: 't'.repeat(256) },
        invalid('utm_term', 'The utm term field must not be greater than 255 characters.'),
      ],
    ])('refuses %s with 422 and changes nothing', async (_label, body, expected) => {
      const account = await createAccount(t);
      const template = await create(account, FULL);

      const response = await form(account, verb, `${TEMPLATES}/${template.id}`, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
      expect((await show(account, template.id)).body.data).toEqual(template);
    });

    it.each(['Taken', 'taken', ' TAKEN '])(
      "refuses renaming to another template's name (%j) with 422 on name",
      async (name) => {
        const account = await createAccount(t);
        await create(account, { name: 'Taken', utm_source: 'a' });
        const template = await create(account, { name: 'Free', utm_source: 'b' });

        const response = await form(account, verb, `${TEMPLATES}/${template.id}`, { name });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
        expect((await show(account, template.id)).body.data.name).toBe('Free');
      },
    );

    it('lets a template change the case of its own name', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'casing', utm_source: 'a' });

      const response = await form(account, verb, `${TEMPLATES}/${template.id}`, { name: 'Casing' });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('Casing');
    });
  });

  describe('DELETE /utm-templates/:id', () => {
    it('deletes the template and answers the deleted envelope, then 404', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'Gone', utm_source: 'a' });

      const response = await call(account, 'delete', `${TEMPLATES}/${template.id}`);

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['id', 'object', 'deleted', 'status']);
      expect(response.body).toEqual({ id: template.id, object: 'utm_template', deleted: true, status: 200 });
      expect((await show(account, template.id)).body).toEqual(NOT_FOUND);
      const again = await call(account, 'delete', `${TEMPLATES}/${template.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual(NOT_FOUND);
    });

    it('frees the name', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'Reused', utm_source: 'a' });
      await call(account, 'delete', `${TEMPLATES}/${template.id}`);

      expect((await create(account, { name: 'reused', utm_source: 'b' })).name).toBe('reused');
    });
  });

  describe("another account's template", () => {
    it('is 404 to show, update and delete, is absent from the list, and stays as it was', async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const template = await create(owner, { name: 'Private', utm_source: 'secret' });
      const path = `${TEMPLATES}/${template.id}`;

      expect((await show(intruder, template.id)).body).toEqual(NOT_FOUND);
      for (const verb of ['put', 'patch'] as const) {
        const response = await form(intruder, verb, path, { name: 'Stolen', utm_source: 'x' });
        expect(`${verb} ${response.status}`).toBe(`${verb} 404`);
        expect(response.body).toEqual(NOT_FOUND);
      }
      // A name the intruder's own template has is a 404 too, not a 422: the template is not theirs to rename.
      await create(intruder, { name: 'Mine', utm_source: 'a' });
      expect((await form(intruder, 'patch', path, { name: 'Mine' })).body).toEqual(NOT_FOUND);
      expect((await call(intruder, 'delete', path)).body).toEqual(NOT_FOUND);
      const listed = await list(intruder, '?search=Private');
      expect(listed.body.data).toEqual([]);

      expect((await show(owner, template.id)).body.data).toEqual(template);
    });
  });

  describe('GET /utm-templates (list)', () => {
    it('answers an empty account with the full list envelope', async () => {
      const account = await createAccount(t);

      expectEmptyList(await list(account), TEMPLATES);
    });

    it('lists the templates newest first, 10 a page, with meta and links', async () => {
      const account = await createAccount(t);
      const inserted = await insertTemplates(
        account,
        Array.from({ length: 12 }, (_, index) => `T${index}`),
      );

      const first = await list(account);
      expect(first.status).toBe(200);
      expect(ids(first)).toEqual([...inserted].reverse().slice(0, 10));
      expect(Object.keys(first.body.data[0] as object)).toEqual(TEMPLATE_FIELDS);
      const path = listPath(first);
      expect(first.body.meta).toEqual({
        current_page: 1,
        from: 1,
        last_page: 2,
        links: metaLinks(path, 1, 2),
        path,
        per_page: 10,
        to: 10,
        total: 12,
      });

      const second = await list(account, '?page=2');
      expect(ids(second)).toEqual([...inserted].reverse().slice(10));
      expect(second.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12, total: 12 });

      const wide = await list(account, '?per_page=25');
      expect(ids(wide)).toHaveLength(12);
    });

    it('shows only the caller’s templates', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const mine = await insertTemplates(account, ['Mine']);
      await insertTemplates(other, ['Theirs']);

      const response = await list(account);

      expect(ids(response)).toEqual(mine);
      expect(response.body.meta.total).toBe(1);
    });

    it.each([
      ['', 'desc'],
      ['?sort=asc', 'asc'],
      ['?sort_by=id&sort=asc', 'asc'],
      ['?sort_by=id', 'desc'],
    ])('%j orders by id %s', async (query, direction) => {
      const account = await createAccount(t);
      const inserted = await insertTemplates(account, ['b', 'C', 'a']);

      const response = await list(account, query);

      expect(ids(response)).toEqual(direction === 'asc' ? inserted : [...inserted].reverse());
    });

    it.each([
      ['?sort_by=name&sort=asc', ['apple', 'Banana', 'cherry', 'Date']],
      ['?sort_by=name&sort=desc', ['Date', 'cherry', 'Banana', 'apple']],
      ['?sort_by=name', ['Date', 'cherry', 'Banana', 'apple']],
    ])('%j orders by name regardless of case', async (query, expected) => {
      const account = await createAccount(t);
      await insertTemplates(account, ['cherry', 'apple', 'Date', 'Banana']);

      expect(names(await list(account, query))).toEqual(expected);
    });

    it.each(['?search=LETTER', '?search=letter&search_by=name', '?search=%20letter%20'])(
      '%j finds by name, regardless of case',
      async (query) => {
        const account = await createAccount(t);
        await insertTemplates(account, ['Newsletter', 'Ads', 'Letters to Ann']);

        const response = await list(account, `${query}&sort_by=name&sort=asc`);

        expect(response.status).toBe(200);
        expect(names(response)).toEqual(['Letters to Ann', 'Newsletter']);
        expect(response.body.meta.total).toBe(2);
      },
    );

    it('reads % and _ in a search as themselves', async () => {
      const account = await createAccount(t);
      await insertTemplates(account, ['50% off', '500 off', 'a_b', 'axb']);

      expect(names(await list(account, '?search=%25'))).toEqual(['50% off']);
      expect(names(await list(account, '?search=_'))).toEqual(['a_b']);
    });

    it.each<[string, string]>([
      ['?sort_by=utm_source', 'sort_by'],
      ['?sort_by=created_at', 'sort_by'],
      ['?search_by=utm_source', 'search_by'],
      ['?sort=up', 'sort'],
      ['?per_page=5', 'per_page'],
      ['?page=0', 'page'],
    ])('refuses %s with 422 naming %s', async (query, field) => {
      const account = await createAccount(t);

      const response = await list(account, query);

      expect(response.status).toBe(422);
      expect(Object.keys(response.body.message as object)).toEqual([field]);
    });
  });

  describe('scopes', () => {
    it('reads with links.read, and refuses it every change with 403, changing nothing', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'Read', utm_source: 'a' });
      const reader = await keyOf(account, ['links.read']);

      expect((await list(reader)).body.data).toEqual([template]);
      expect((await show(reader, template.id)).body.data).toEqual(template);
      const made = await form(reader, 'post', TEMPLATES, { name: 'New', utm_source: 'a' });
      expect([made.status, made.body]).toEqual([403, UNAUTHORIZED]);
      const changed = await form(reader, 'patch', `${TEMPLATES}/${template.id}`, { name: 'Changed' });
      expect([changed.status, changed.body]).toEqual([403, UNAUTHORIZED]);
      const deleted = await call(reader, 'delete', `${TEMPLATES}/${template.id}`);
      expect([deleted.status, deleted.body]).toEqual([403, UNAUTHORIZED]);
      expect((await list(account)).body.data).toEqual([template]);
    });

    it('changes with links.write, which reads too', async () => {
      const account = await createAccount(t);
      const writer = await keyOf(account, ['links.write']);

      const template = await create(writer, { name: 'Written', utm_source: 'a' });

      expect((await list(writer)).body.data).toEqual([template]);
      expect((await form(writer, 'patch', `${TEMPLATES}/${template.id}`, { utm_medium: 'b' })).status).toBe(
        200,
      );
      expect((await call(writer, 'delete', `${TEMPLATES}/${template.id}`)).status).toBe(200);
    });

    it('refuses a key without a links scope with 403, whatever else it holds', async () => {
      const account = await createAccount(t);
      const other = await keyOf(account, ['spaces.write', 'stats.read', 'account.read']);

      const listed = await list(other);
      expect([listed.status, listed.body]).toEqual([403, UNAUTHORIZED]);
      const made = await form(other, 'post', TEMPLATES, { name: 'New', utm_source: 'a' });
      expect([made.status, made.body]).toEqual([403, UNAUTHORIZED]);
      expect(await count(account)).toBe(0);
    });

    it('lets a key restricted to spaces read the templates but make, change or delete none (403)', async () => {
      const account = await createAccount(t);
      const space = await json(account, 'post', '/api/v1/spaces', { name: 'Only' });
      const template = await create(account, { name: 'Shared', utm_source: 'a' });
      const restricted = await keyOf(account, ['links.write'], [space.body.data.id as number]);

      expect((await list(restricted)).body.data).toEqual([template]);
      expect((await show(restricted, template.id)).body.data).toEqual(template);
      const made = await form(restricted, 'post', TEMPLATES, { name: 'New', utm_source: 'a' });
      expect([made.status, made.body]).toEqual([403, UNAUTHORIZED]);
      for (const verb of ['put', 'patch'] as const) {
        const changed = await form(restricted, verb, `${TEMPLATES}/${template.id}`, { name: 'Changed' });
        expect([verb, changed.status, changed.body]).toEqual([verb, 403, UNAUTHORIZED]);
      }
      const deleted = await call(restricted, 'delete', `${TEMPLATES}/${template.id}`);
      expect([deleted.status, deleted.body]).toEqual([403, UNAUTHORIZED]);
      expect((await list(account)).body.data).toEqual([template]);
    });
  });

  describe('audit log', () => {
    interface AuditRow {
      action: string;
      actor_type: string;
      target_type: string;
      target_id: number;
      changes: Record<string, [unknown, unknown]>;
    }

    /** The account's entries about templates, read from the table the trigger writes (the API's list is below). */
    async function entries(account: TestAccount): Promise<AuditRow[]> {
      return t.dataSource.query(
        `SELECT action, actor_type, target_type, target_id, changes FROM audit_log
          WHERE account_id = $1 AND target_type = 'utm_template' ORDER BY id`,
        [account.id],
      );
    }

    it('records the creation, the change and the deletion of a template, with the key as actor', async () => {
      const account = await createAccount(t);
      const template = await create(account, { name: 'Audited', utm_source: 'newsletter' });
      await form(account, 'patch', `${TEMPLATES}/${template.id}`, { utm_source: '', utm_medium: 'email' });
      await call(account, 'delete', `${TEMPLATES}/${template.id}`);

      const rows = await entries(account);

      expect(rows).toEqual([
        {
          action: 'utm_template.created',
          actor_type: 'key',
          target_type: 'utm_template',
          target_id: template.id,
          changes: expect.objectContaining({ name: [null, 'Audited'], utm_source: [null, 'newsletter'] }),
        },
        {
          action: 'utm_template.updated',
          actor_type: 'key',
          target_type: 'utm_template',
          target_id: template.id,
          changes: { utm_source: ['newsletter', null], utm_medium: [null, 'email'] },
        },
        {
          action: 'utm_template.deleted',
          actor_type: 'key',
          target_type: 'utm_template',
          target_id: template.id,
          changes: expect.objectContaining({ name: ['Audited', null] }),
        },
      ]);
    });

    it('answers the entries in the audit log, filtered by the utm_template target type', async () => {
      const account = await createAccount(t);
      await create(account, { name: 'First', utm_source: 'a' });
      // Another kind of target, which the filter leaves out.
      expect((await json(account, 'post', '/api/v1/spaces', { name: 'Not a template' })).status).toBe(201);
      const template = await create(account, { name: 'Listed', utm_source: 'a' });

      const response = await call(account, 'get', '/api/v1/audit-log?target_type=utm_template');

      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(2);
      expect(response.body.data[0]).toMatchObject({
        action: 'utm_template.created',
        actor: { type: 'key' },
        target: { type: 'utm_template', id: template.id },
        changes: { name: [null, 'Listed'] },
      });
    });
  });
});

const MAX_TEMPLATES = 2;

describe('UTM templates quota', () => {
  let t: TestApp;
  const { call, form } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_UTM_TEMPLATES_PER_ACCOUNT: String(MAX_TEMPLATES),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const refusal = (total: number) =>
    invalid('name', `The account may hold at most ${MAX_TEMPLATES} UTM templates; this would make ${total}.`);

  it('refuses a create past MAX_UTM_TEMPLATES_PER_ACCOUNT with 422 on name, and frees room on a delete', async () => {
    const account = await createAccount(t);
    const first = await form(account, 'post', TEMPLATES, { name: 'One', utm_source: 'a' });
    expect(first.status).toBe(201);
    expect((await form(account, 'post', TEMPLATES, { name: 'Two', utm_source: 'a' })).status).toBe(201);

    const over = await form(account, 'post', TEMPLATES, { name: 'Three', utm_source: 'a' });
    expect([over.status, over.body]).toEqual([422, refusal(MAX_TEMPLATES + 1)]);
    expect((await call(account, 'get', TEMPLATES)).body.meta.total).toBe(MAX_TEMPLATES);

    // Another account has a quota of its own.
    const other = await createAccount(t);
    expect((await form(other, 'post', TEMPLATES, { name: 'Three', utm_source: 'a' })).status).toBe(201);

    await call(account, 'delete', `${TEMPLATES}/${first.body.data.id}`);
    expect((await form(account, 'post', TEMPLATES, { name: 'Three', utm_source: 'a' })).status).toBe(201);
  });

  it('lets exactly as many parallel creates through as the limit allows', async () => {
    const account = await createAccount(t);

    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        form(account, 'post', TEMPLATES, { name: `Parallel ${index}`, utm_source: 'a' }),
      ),
    );

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 422, 422, 422, 422]);
    for (const response of responses.filter((each) => each.status === 422)) {
      expect(response.body).toEqual(refusal(MAX_TEMPLATES + 1));
    }
  });
});
