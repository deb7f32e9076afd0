import type { Response } from 'supertest';
import { AccountsService } from '../src/auth/accounts.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  apiClient,
  resourceClient,
  expectEmptyList,
  ISO_DATE,
  RESOURCE_ROUTES,
  UNKNOWN_ID,
  listPath,
  metaLinks,
  type Body,
} from './support/api';
import { invalid, NOT_FOUND, UNAUTHENTICATED } from './support/contract';
import { offDocument } from './support/openapi-responses';
import { sleep } from './support/sleep';

const SPACES = '/api/v1/spaces';
const SPACE_FIELDS = ['id', 'name', 'color', 'links_count', 'created_at', 'updated_at'];

const NAME_REQUIRED = invalid('name', 'The name field is required.');
const NAME_TOO_LONG = invalid('name', 'The name field must not be greater than 255 characters.');
const NAME_NOT_STRING = invalid('name', 'The name field must be a string.');
const NAME_TAKEN = invalid('name', 'The name has already been taken.');
const COLOR_INVALID = invalid('color', 'The selected color is invalid.');

interface SpaceData {
  id: number;
  name: string;
  color: number;
  links_count: number;
  created_at: string;
  updated_at: string;
}

/** What a space in a response must look like: every field, dates in the contract's format. */
function aSpace(expected: Partial<SpaceData>) {
  return {
    id: expect.any(Number),
    links_count: 0,
    created_at: expect.stringMatching(ISO_DATE),
    updated_at: expect.stringMatching(ISO_DATE),
    ...expected,
  };
}

function expectSpaceFields(space: unknown): void {
  expect(Object.keys(space as object)).toEqual(SPACE_FIELDS);
}

describe('Spaces API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  const { create: createSpace, show: showSpace, list, names } = resourceClient<SpaceData>(() => t, SPACES);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  /** Many spaces at once, straight into the table, in the given order (so ids ascend with it). */
  async function insertSpaces(account: TestAccount, names: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      const rows: { id: number }[] = await t.dataSource.query(
        'INSERT INTO spaces (account_id, name) VALUES ($1, $2) RETURNING id',
        [account.id, name],
      );
      ids.push(rows[0].id);
    }
    return ids;
  }

  /** A link through the links API, in the given space (or none). */
  async function insertLink(account: TestAccount, spaceId: number | null): Promise<number> {
    const body: Record<string, string> = { url: 'https://example.com/', title: 'A link' };
    if (spaceId !== null) body.space_id = String(spaceId);
    const response = await form(account, 'post', '/api/v1/links', body);
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  async function linkSpaceIds(ids: number[]): Promise<(number | null)[]> {
    const rows: { id: number; space_id: number | null }[] = await t.dataSource.query(
      'SELECT id, space_id FROM links WHERE id = ANY($1) ORDER BY id',
      [ids],
    );
    expect(rows.map((row) => row.id)).toEqual([...ids].sort((a, b) => a - b));
    return rows.map((row) => row.space_id);
  }

  function ids(response: Response): number[] {
    return (response.body.data as SpaceData[]).map((space) => space.id);
  }

  describe('authentication', () => {
    it.each(RESOURCE_ROUTES)(
      '%s /spaces%s without a key is 401 and changes nothing',
      async (verb, suffix) => {
        const owner = await createAccount(t);
        const space = await createSpace(owner, { name: 'Kept', color: '2' });

        const path = `${SPACES}${suffix.replace(':id', String(space.id))}`;
        const response = await call(null, verb, path).type('form').send({ name: 'Changed', color: '3' });

        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHENTICATED);
        const after = await list(owner);
        expect(after.body.data).toEqual([space]);
      },
    );

    it.each([
      ['an unknown key', 'Bearer not-a-key'],
      ['an empty bearer', 'Bearer '],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
    ])('refuses %s with 401', async (_label, header) => {
      const response = await t.http().get(SPACES).set('Authorization', header);

      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    });

    it('refuses a key sent without the Bearer scheme', async () => {
      const account = await createAccount(t);

      const response = await t.http().get(SPACES).set('Authorization', account.apiKey);

      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    });

    it('refuses a revoked key', async () => {
      const account = await createAccount(t);
      expect((await list(account)).status).toBe(200);

      await t.app.get(AccountsService).revokeKey(account.apiKey);
      const response = await list(account);

      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    });

    it('answers 401 before 404 for an unknown id', async () => {
      const response = await call(null, 'get', `${SPACES}/${UNKNOWN_ID}`);

      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    });
  });

  describe('POST /spaces (store)', () => {
    it('creates a space from a form body: 201 with the data envelope and status 200 in the body', async () => {
      const account = await createAccount(t);

      const response = await form(account, 'post', SPACES, { name: 'Work', color: '3' });

      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({ data: aSpace({ name: 'Work', color: 3 }), status: 200 });
      expectSpaceFields(response.body.data);
      expect(response.body.data.created_at).toBe(response.body.data.updated_at);

      const shown = await showSpace(account, response.body.data.id);
      expect(shown.body.data).toEqual(response.body.data);
    });

    it('creates a space from a JSON body', async () => {
      const account = await createAccount(t);

      const response = await json(account, 'post', SPACES, { name: 'From JSON', color: 4 });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({ data: aSpace({ name: 'From JSON', color: 4 }), status: 200 });
    });

    it('gives each new space its own id', async () => {
      const account = await createAccount(t);

      const first = await createSpace(account, { name: 'One' });
      const second = await createSpace(account, { name: 'Two' });

      expect(second.id).toBeGreaterThan(first.id);
    });

    describe('name', () => {
      it.each<[string, Body | string]>([
        ['missing', { color: '2' }],
        ['an empty body', {}],
        ['an empty string', { name: '' }],
        ['whitespace only', { name: '   ' }],
        ['tabs and newlines only', { name: '\t\n ' }],
      ])('is required: %s is 422', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', SPACES, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_REQUIRED);
        expect((await list(account)).body.meta.total).toBe(0);
      });

      it('is required in a JSON body too: null is 422', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', SPACES, { name: null, color: 1 });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_REQUIRED);
      });

      it.each<[string, 'form' | 'json', Body | string]>([
        ['a form array', 'form', 'name[]=a&name[]=b'],
        ['a form object', 'form', 'name[a]=b'],
        ['a JSON number', 'json', { name: 5 }],
        ['a JSON boolean', 'json', { name: true }],
        ['a JSON array', 'json', { name: ['a'] }],
      ])('must be a string: %s is 422', async (_label, type, body) => {
        const account = await createAccount(t);

        const response = await (type === 'form' ? form : json)(account, 'post', SPACES, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_NOT_STRING);
      });

      it('is trimmed', async () => {
        const account = await createAccount(t);

        const space = await createSpace(account, { name: '  Trimmed name \t' });

        expect(space.name).toBe('Trimmed name');
      });

      it.each([
        ['255 ASCII characters', 'a'.repeat(255)],
        ['255 characters with spaces around them', `  ${'b'.repeat(255)}  `],
        ['255 astral characters (emoji)', '\u{1F600}'.repeat(255)],
        ['255 code points with variation selectors', `${'\u2764\uFE0F'.repeat(127)}c`],
      ])('accepts %s', async (_label, name) => {
        const account = await createAccount(t);

        // Spaces around the name are trimmed: a tolerance the document's maxLength, which counts them, does not promise.
        const response = await offDocument(form(account, 'post', SPACES, { name }), name !== name.trim());

        expect(response.status).toBe(201);
        expect(response.body.data.name).toBe(name.trim());
      });

      it.each([
        ['256 ASCII characters', 'a'.repeat(256)],
        ['256 astral characters (emoji)', '\u{1F600}'.repeat(256)],
        // Each heart is two code points (U+2764 U+FE0F), as PostgreSQL counts them for varchar(255).
        ['256 code points with variation selectors', '\u2764\uFE0F'.repeat(128)],
      ])('refuses %s with 422', async (_label, name) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', SPACES, { name });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TOO_LONG);
      });

      it('refuses a null character with 422 (PostgreSQL text cannot hold one)', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', SPACES, { name: 'a\u0000b' });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('name', 'The name field must not contain null characters.'));
      });

      it('keeps non-ASCII text and characters that mean something elsewhere as they are', async () => {
        const account = await createAccount(t);
        const name = `Café <b>"x"</b> 'y' & 100% a_b \\ 日本`;

        const space = await createSpace(account, { name });

        expect(space.name).toBe(name);
        expect((await showSpace(account, space.id)).body.data.name).toBe(name);
      });
    });

    describe('color', () => {
      it('defaults to 1 when absent', async () => {
        const account = await createAccount(t);

        expect((await createSpace(account, { name: 'No colour' })).color).toBe(1);
      });

      it.each([
        ['an empty form value', 'form', { name: 'Empty', color: '' }],
        ['a whitespace form value', 'form', { name: 'Blank', color: '  ' }],
        ['a JSON null', 'json', { name: 'Null', color: null }],
      ] as const)('defaults to 1 for %s (empty means null)', async (_label, type, body) => {
        const account = await createAccount(t);

        // Only an empty form value is null in the document; spaces are a tolerance.
        const blank = typeof body.color === 'string' && body.color !== '';
        const response = await offDocument(
          (type === 'form' ? form : json)(account, 'post', SPACES, body),
          blank,
        );

        expect(response.status).toBe(201);
        expect(response.body.data.color).toBe(1);
      });

      it.each([1, 2, 3, 4, 5, 6])('accepts %i as a form value', async (color) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', SPACES, { name: 'C', color: String(color) });

        expect(response.status).toBe(201);
        expect(response.body.data.color).toBe(color);
      });

      it.each([
        ['a JSON number', 6],
        ['a JSON digit string', '5'],
      ])('accepts %s', async (_label, color) => {
        const account = await createAccount(t);

        // A digit string in JSON is read as a form's would be: a tolerance, the document's JSON integer is a number.
        const response = await offDocument(
          json(account, 'post', SPACES, { name: 'C', color }),
          typeof color === 'string',
        );

        expect(response.status).toBe(201);
        expect(response.body.data.color).toBe(Number(color));
      });

      it.each(['0', '7', '-1', 'abc', '1.5', '1e0', '0x1', '99999999999999999999'])(
        'refuses the form value %j with 422',
        async (color) => {
          const account = await createAccount(t);

          const response = await form(account, 'post', SPACES, { name: 'C', color });

          expect(response.status).toBe(422);
          expect(response.body).toEqual(COLOR_INVALID);
          expect((await list(account)).body.meta.total).toBe(0);
        },
      );

      it.each<[string, 'form' | 'json', Body | string]>([
        ['a form array', 'form', 'name=C&color[]=2'],
        ['a JSON fraction', 'json', { name: 'C', color: 1.5 }],
        ['a JSON zero', 'json', { name: 'C', color: 0 }],
        ['a JSON boolean', 'json', { name: 'C', color: true }],
        ['a JSON array', 'json', { name: 'C', color: [2] }],
      ])('refuses %s with 422', async (_label, type, body) => {
        const account = await createAccount(t);

        const response = await (type === 'form' ? form : json)(account, 'post', SPACES, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(COLOR_INVALID);
      });
    });

    describe('unique name', () => {
      it.each(['Work', 'work', 'WORK', '  wOrK  '])(
        'refuses %j when the account has "Work" already',
        async (duplicate) => {
          const account = await createAccount(t);
          const original = await createSpace(account, { name: 'Work', color: '2' });

          const response = await form(account, 'post', SPACES, { name: duplicate, color: '5' });

          expect(response.status).toBe(422);
          expect(response.body).toEqual(NAME_TAKEN);
          const after = await list(account);
          expect(after.body.data).toEqual([original]);
        },
      );

      it('allows a name that another account uses', async () => {
        const first = await createAccount(t);
        const second = await createAccount(t);
        await createSpace(first, { name: 'Shared name' });

        const response = await form(second, 'post', SPACES, { name: 'shared NAME' });

        expect(response.status).toBe(201);
        expect(response.body.data.name).toBe('shared NAME');
      });

      it('lets exactly one of two concurrent creates with the same name through', async () => {
        const account = await createAccount(t);

        const responses = await Promise.all([
          form(account, 'post', SPACES, { name: 'Race' }),
          form(account, 'post', SPACES, { name: 'race' }),
        ]);

        expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
        expect(responses.find((response) => response.status === 422)?.body).toEqual(NAME_TAKEN);
        expect((await list(account)).body.meta.total).toBe(1);
      });

      it('frees the name when the space is deleted', async () => {
        const account = await createAccount(t);
        const space = await createSpace(account, { name: 'Reused' });
        expect((await call(account, 'delete', `${SPACES}/${space.id}`)).status).toBe(200);

        const response = await form(account, 'post', SPACES, { name: 'reused' });

        expect(response.status).toBe(201);
      });
    });

    it('ignores unknown and read-only fields, including another account id', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const existing = await createSpace(account, { name: 'Existing' });

      const response = await form(account, 'post', SPACES, {
        name: 'Extra',
        color: '2',
        id: String(existing.id),
        account_id: String(other.id),
        links_count: '7',
        created_at: '2000-01-01T00:00:00.000000Z',
        updated_at: '2000-01-01T00:00:00.000000Z',
        unknown: 'value',
      });

      expect(response.status).toBe(201);
      const created = response.body.data as SpaceData;
      expectSpaceFields(created);
      expect(created).toEqual(aSpace({ name: 'Extra', color: 2, links_count: 0 }));
      expect(created.id).not.toBe(existing.id);
      expect(created.created_at.startsWith('2000')).toBe(false);
      expect((await showSpace(account, created.id)).status).toBe(200);
      expect((await showSpace(other, created.id)).status).toBe(404);
      expect((await showSpace(account, existing.id)).body.data).toEqual(existing);
    });

    it('answers a malformed JSON body with 400', async () => {
      const account = await createAccount(t);

      const response = await call(account, 'post', SPACES)
        .set('Content-Type', 'application/json')
        .send('{"name":');

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'Bad request.', status: 400 });
    });
  });

  describe('GET /spaces/:id (show)', () => {
    it('returns the space in the data envelope', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Shown', color: '6' });

      const response = await showSpace(account, space.id);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: {
          id: space.id,
          name: 'Shown',
          color: 6,
          links_count: 0,
          created_at: space.created_at,
          updated_at: space.updated_at,
        },
        status: 200,
      });
      expectSpaceFields(response.body.data);
      expect(response.body.data.created_at).toMatch(ISO_DATE);
    });

    it('counts the links of that space only', async () => {
      const account = await createAccount(t);
      const counted = await createSpace(account, { name: 'Counted' });
      const other = await createSpace(account, { name: 'Other' });
      for (let i = 0; i < 3; i += 1) await insertLink(account, counted.id);
      await insertLink(account, other.id);
      await insertLink(account, null);

      const response = await showSpace(account, counted.id);

      expect(response.status).toBe(200);
      expect(response.body.data.links_count).toBe(3);
      expect((await showSpace(account, other.id)).body.data.links_count).toBe(1);
    });

    it('counts disabled links too, and follows links moved out, disabled and deleted', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Moving' });
      const other = await createSpace(account, { name: 'Elsewhere' });
      const [moved, disabled, deleted] = [
        await insertLink(account, space.id),
        await insertLink(account, space.id),
        await insertLink(account, space.id),
      ];
      await insertLink(account, space.id);
      expect((await showSpace(account, space.id)).body.data.links_count).toBe(4);

      expect((await form(account, 'put', `/api/v1/links/${disabled}`, { disabled: '1' })).status).toBe(200);
      expect((await showSpace(account, space.id)).body.data.links_count).toBe(4);
      expect(
        (await form(account, 'put', `/api/v1/links/${moved}`, { space_id: String(other.id) })).status,
      ).toBe(200);
      expect((await call(account, 'delete', `/api/v1/links/${deleted}`)).status).toBe(200);

      const listed = await call(account, 'get', '/api/v1/spaces');
      const counts = Object.fromEntries(
        (listed.body.data as { name: string; links_count: number }[]).map((row) => [
          row.name,
          row.links_count,
        ]),
      );
      expect(counts).toEqual({ Moving: 2, Elsewhere: 1 });
    });
  });

  describe.each(['put', 'patch'] as const)('%s /spaces/:id (update)', (verb) => {
    async function update(account: TestAccount, id: number, body: Body | string) {
      return form(account, verb, `${SPACES}/${id}`, body);
    }

    it('updates name and color and answers with the data envelope', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Before', color: '1' });

      const response = await update(account, space.id, { name: 'After', color: '4' });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: aSpace({ id: space.id, name: 'After', color: 4, created_at: space.created_at }),
        status: 200,
      });
      expectSpaceFields(response.body.data);
      expect((await showSpace(account, space.id)).body.data).toEqual(response.body.data);
    });

    it('accepts a JSON body', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Before' });

      const response = await json(account, verb, `${SPACES}/${space.id}`, { name: 'Json', color: 2 });

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(aSpace({ id: space.id, name: 'Json', color: 2 }));
    });

    it.each<[string, Body, Partial<SpaceData>]>([
      ['only color keeps the name', { color: '5' }, { name: 'Keep', color: 5 }],
      ['only name keeps the color', { name: 'Renamed' }, { name: 'Renamed', color: 3 }],
      ['an empty body keeps both', {}, { name: 'Keep', color: 3 }],
      ['unknown fields are ignored', { links_count: '9', foo: 'bar' }, { name: 'Keep', color: 3 }],
    ])('a partial update: %s', async (_label, body, expected) => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Keep', color: '3' });

      const response = await update(account, space.id, body);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(aSpace({ id: space.id, ...expected }));
      expect((await showSpace(account, space.id)).body.data).toEqual(response.body.data);
    });

    it('trims the name', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Before' });

      const response = await update(account, space.id, { name: '  After  ' });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('After');
    });

    it.each<[string, Body, object]>([
      ['an empty name', { name: '' }, NAME_REQUIRED],
      ['a whitespace name', { name: '   ' }, NAME_REQUIRED],
      ['a name of 256 characters', { name: 'n'.repeat(256) }, NAME_TOO_LONG],
      ['color 0', { color: '0' }, COLOR_INVALID],
      ['color 7', { color: '7' }, COLOR_INVALID],
      ['color abc', { color: 'abc' }, COLOR_INVALID],
      ['color 1.5', { color: '1.5' }, COLOR_INVALID],
      ['an empty color', { color: '' }, invalid('color', 'The color field is required.')],
    ])('refuses %s with 422 and changes nothing', async (_label, body, expected) => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Unchanged', color: '2' });

      const response = await update(account, space.id, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
      expect((await showSpace(account, space.id)).body.data).toEqual(space);
    });

    it('accepts a name of exactly 255 characters', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Short' });

      const response = await update(account, space.id, { name: 'x'.repeat(255) });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('x'.repeat(255));
    });

    it.each(['Home', 'home', ' HOME '])(
      'refuses renaming to %j when another space is "Home"',
      async (name) => {
        const account = await createAccount(t);
        await createSpace(account, { name: 'Home' });
        const space = await createSpace(account, { name: 'Work' });

        const response = await update(account, space.id, { name });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
        expect((await showSpace(account, space.id)).body.data).toEqual(space);
      },
    );

    it.each(['Work', 'WORK', 'work'])(
      'allows renaming a space "Work" to its own name as %j',
      async (name) => {
        const account = await createAccount(t);
        const space = await createSpace(account, { name: 'Work', color: '2' });

        const response = await update(account, space.id, { name, color: '3' });

        expect(response.status).toBe(200);
        expect(response.body.data).toEqual(aSpace({ id: space.id, name, color: 3 }));
      },
    );

    it("allows renaming to a name another account's space has", async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      await createSpace(other, { name: 'Theirs' });
      const space = await createSpace(account, { name: 'Mine' });

      const response = await update(account, space.id, { name: 'Theirs' });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('Theirs');
    });

    it('moves updated_at forward and keeps created_at', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Timed' });
      await sleep(15);

      const response = await update(account, space.id, { color: '6' });

      expect(response.status).toBe(200);
      const updated = response.body.data as SpaceData;
      expect(updated.created_at).toBe(space.created_at);
      expect(updated.updated_at).toMatch(ISO_DATE);
      expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(space.updated_at));
    });

    it('keeps links_count in the answer', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'With links' });
      await insertLink(account, space.id);
      await insertLink(account, space.id);

      const response = await update(account, space.id, { name: 'Still with links' });

      expect(response.status).toBe(200);
      expect(response.body.data.links_count).toBe(2);
    });
  });

  describe('DELETE /spaces/:id', () => {
    it('deletes the space and answers with the deleted envelope', async () => {
      const account = await createAccount(t);
      const kept = await createSpace(account, { name: 'Kept' });
      const space = await createSpace(account, { name: 'Doomed' });

      const response = await call(account, 'delete', `${SPACES}/${space.id}`);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['id', 'object', 'deleted', 'status']);
      expect(response.body).toEqual({ id: space.id, object: 'space', deleted: true, status: 200 });
      const shown = await showSpace(account, space.id);
      expect(shown.status).toBe(404);
      expect(shown.body).toEqual(NOT_FOUND);
      expect((await list(account)).body.data).toEqual([kept]);
    });

    it('answers 404 the second time', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Once' });
      expect((await call(account, 'delete', `${SPACES}/${space.id}`)).status).toBe(200);

      const response = await call(account, 'delete', `${SPACES}/${space.id}`);

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('keeps the links of the space and leaves them without a space', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, { name: 'Emptied' });
      const other = await createSpace(account, { name: 'Untouched' });
      const links = [await insertLink(account, space.id), await insertLink(account, space.id)];
      const otherLink = await insertLink(account, other.id);

      const response = await call(account, 'delete', `${SPACES}/${space.id}`);

      expect(response.status).toBe(200);
      expect(await linkSpaceIds(links)).toEqual([null, null]);
      expect(await linkSpaceIds([otherLink])).toEqual([other.id]);
      expect((await showSpace(account, other.id)).body.data.links_count).toBe(1);
    });
  });

  describe('unknown, malformed and foreign ids', () => {
    const verbs = ['get', 'put', 'patch', 'delete'] as const;
    const badIds = ['abc', '0', '-1', '99999999999', String(UNKNOWN_ID), '2147483648', '1.5', '1e3', '%20'];
    const cases = verbs.flatMap((verb) => badIds.map((id) => [verb, id] as const));

    it.each(cases)('%s /spaces/%s is 404', async (verb, id) => {
      const account = await createAccount(t);

      const response = await call(account, verb, `${SPACES}/${id}`).type('form').send({ name: 'Valid' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it.each(verbs)("%s of another account's space is 404 and leaves it as it was", async (verb) => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const space = await createSpace(owner, { name: 'Private', color: '4' });
      await insertLink(owner, space.id);

      const response = await call(intruder, verb, `${SPACES}/${space.id}`)
        .type('form')
        .send({ name: 'Taken over', color: '1' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
      const shown = await showSpace(owner, space.id);
      expect(shown.status).toBe(200);
      expect(shown.body.data).toEqual({ ...space, links_count: 1 });
    });

    it("gives an invalid update of another account's space 404, not 422", async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const space = await createSpace(owner, { name: 'Private' });
      await createSpace(intruder, { name: 'Mine' });

      const response = await form(intruder, 'patch', `${SPACES}/${space.id}`, { name: 'Mine' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });
  });

  describe('GET /spaces (list)', () => {
    it('answers an empty account with the full list envelope', async () => {
      const account = await createAccount(t);

      expectEmptyList(await list(account), '/api/v1/spaces');
    });

    it('lists spaces with their fields, newest first, 10 per page by default', async () => {
      const account = await createAccount(t);
      const created = await createSpace(account, { name: 'Via API', color: '5' });
      const inserted = await insertSpaces(
        account,
        Array.from({ length: 11 }, (_, i) => `Space ${i}`),
      );
      const allIds = [created.id, ...inserted].sort((a, b) => b - a);

      const response = await list(account);

      expect(response.status).toBe(200);
      expect(ids(response)).toEqual(allIds.slice(0, 10));
      for (const space of response.body.data) expectSpaceFields(space);
      expect(response.body.data).toEqual(
        Array.from({ length: 10 }, (_, i) =>
          aSpace({ id: inserted[10 - i], name: `Space ${10 - i}`, color: 1 }),
        ),
      );
      const path = listPath(response);
      expect(response.body.links).toEqual({
        first: `${path}?page=1`,
        last: `${path}?page=2`,
        prev: null,
        next: `${path}?page=2`,
      });
      expect(response.body.meta).toEqual({
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
      expect(second.status).toBe(200);
      expect(ids(second)).toEqual(allIds.slice(10));
      expect(second.body.data[1]).toEqual(created);
      // supertest binds a fresh port per request, so each answer has its own origin.
      const secondPath = listPath(second);
      expect(second.body.links).toEqual({
        first: `${secondPath}?page=1`,
        last: `${secondPath}?page=2`,
        prev: `${secondPath}?page=1`,
        next: null,
      });
      expect(second.body.meta).toEqual({
        current_page: 2,
        from: 11,
        last_page: 2,
        links: metaLinks(secondPath, 2, 2),
        path: secondPath,
        per_page: 10,
        to: 12,
        total: 12,
      });
    });

    it('shows only the caller’s spaces', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      await insertSpaces(other, ['Theirs 1', 'Theirs 2']);
      const mine = await createSpace(account, { name: 'Mine' });

      const response = await list(account);

      expect(response.body.data).toEqual([mine]);
      expect(response.body.meta.total).toBe(1);
    });

    it('shows links_count for each space', async () => {
      const account = await createAccount(t);
      const [none, two] = await insertSpaces(account, ['None', 'Two']);
      await insertLink(account, two);
      await insertLink(account, two);
      await insertLink(account, null);

      const response = await list(account);

      expect(response.body.data).toEqual([
        aSpace({ id: two, name: 'Two', links_count: 2, color: 1 }),
        aSpace({ id: none, name: 'None', links_count: 0, color: 1 }),
      ]);
    });

    describe('per_page', () => {
      it.each([
        [10, 10],
        [25, 25],
        [50, 27],
        [100, 27],
      ])('accepts %i', async (perPage, shown) => {
        const account = await createAccount(t);
        await insertSpaces(
          account,
          Array.from({ length: 27 }, (_, i) => `S${i}`),
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

      it.each(['5', '11', 'abc', '1000', '0', '-10', '10.5', '1e1', 'per_page=10&per_page=25'])(
        'refuses %j with 422 naming per_page',
        async (value) => {
          const account = await createAccount(t);
          const query = value.includes('=') ? `?${value}` : `?per_page=${encodeURIComponent(value)}`;

          const response = await list(account, query);

          expect(response.status).toBe(422);
          expect(response.body).toEqual(invalid('per_page', 'The selected per page is invalid.'));
        },
      );
    });

    describe('page', () => {
      it.each([
        ['0', 'The page field must be at least 1.'],
        ['-1', 'The page field must be at least 1.'],
        ['x', 'The page field must be an integer.'],
        ['1.5', 'The page field must be an integer.'],
        ['99999999999', 'The page field must not be greater than 2147483647.'],
      ])('refuses %j with 422 naming page', async (value, reason) => {
        const account = await createAccount(t);

        const response = await list(account, `?page=${value}`);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('page', reason));
      });

      it('answers a page beyond the last with empty data, null from/to and the right total', async () => {
        const account = await createAccount(t);
        await insertSpaces(account, ['A', 'B', 'C']);

        const response = await list(account, '?page=5');

        expect(response.status).toBe(200);
        const path = listPath(response);
        expect(response.body).toEqual({
          data: [],
          links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: `${path}?page=4`, next: null },
          meta: {
            current_page: 5,
            from: null,
            last_page: 1,
            links: [
              { url: `${path}?page=4`, label: '&laquo; Previous', active: false },
              { url: `${path}?page=1`, label: '1', active: false },
              { url: null, label: 'Next &raquo;', active: false },
            ],
            path,
            per_page: 10,
            to: null,
            total: 3,
          },
          status: 200,
        });
      });

      it('answers the largest page number without failing', async () => {
        const account = await createAccount(t);
        await insertSpaces(account, ['A']);

        const response = await list(account, `?page=${UNKNOWN_ID}`);

        expect(response.status).toBe(200);
        expect(response.body.data).toEqual([]);
        expect(response.body.meta).toMatchObject({
          current_page: UNKNOWN_ID,
          from: null,
          to: null,
          total: 1,
        });
      });
    });

    describe('sort and sort_by', () => {
      it.each([
        ['', 'desc'],
        ['?sort=desc', 'desc'],
        ['?sort=asc', 'asc'],
        ['?sort_by=id&sort=asc', 'asc'],
        ['?sort_by=id', 'desc'],
      ])('%j orders by id %s', async (query, direction) => {
        const account = await createAccount(t);
        const inserted = await insertSpaces(account, ['b', 'C', 'a']);

        const response = await list(account, query);

        expect(response.status).toBe(200);
        expect(ids(response)).toEqual(direction === 'asc' ? inserted : [...inserted].reverse());
      });

      it.each([
        ['?sort_by=name&sort=asc', ['apple', 'Banana', 'cherry', 'Date']],
        ['?sort_by=name&sort=desc', ['Date', 'cherry', 'Banana', 'apple']],
        ['?sort_by=name', ['Date', 'cherry', 'Banana', 'apple']],
      ])('%j orders by name regardless of case', async (query, expected) => {
        const account = await createAccount(t);
        await insertSpaces(account, ['cherry', 'apple', 'Date', 'Banana']);

        const response = await list(account, query);

        expect(response.status).toBe(200);
        expect(names(response)).toEqual(expected);
      });

      it.each(['up', 'random', '1', 'ascending'])('refuses sort=%s with 422 naming sort', async (value) => {
        const account = await createAccount(t);

        const response = await list(account, `?sort=${value}`);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('sort', 'The selected sort is invalid.'));
      });

      it.each(['color', 'created_at', 'title', 'links_count'])(
        'refuses sort_by=%s with 422 naming sort_by',
        async (value) => {
          const account = await createAccount(t);

          const response = await list(account, `?sort_by=${value}`);

          expect(response.status).toBe(422);
          expect(response.body).toEqual(invalid('sort_by', 'The selected sort by is invalid.'));
        },
      );
    });

    describe('search and search_by', () => {
      it.each(['?search=WORK', '?search=work&search_by=name', '?search=%20Work%20'])(
        '%j matches a case-insensitive substring of the name',
        async (query) => {
          const account = await createAccount(t);
          await insertSpaces(account, ['Work projects', 'Personal', 'Homework', 'Wor k']);

          const response = await list(account, query);

          expect(response.status).toBe(200);
          expect(names(response)).toEqual(['Homework', 'Work projects']);
          expect(response.body.meta).toMatchObject({ total: 2, from: 1, to: 2, last_page: 1 });
        },
      );

      it.each([
        ['%', ['100%']],
        ['_', ['a_b']],
        ['a_b', ['a_b']],
        ['0%', ['100%']],
        ['\\', ['c\\d']],
        ['.*', []],
      ])('takes %j literally', async (term, expected) => {
        const account = await createAccount(t);
        await insertSpaces(account, ['100%', '1000', 'a_b', 'ab', 'axb', 'c\\d', 'cd']);

        const response = await list(account, `?search=${encodeURIComponent(term)}`);

        expect(response.status).toBe(200);
        expect(names(response)).toEqual(expected);
        expect(response.body.meta.total).toBe(expected.length);
      });

      it('answers no match with an empty page whose last_page is 1', async () => {
        const account = await createAccount(t);
        await insertSpaces(account, ['Alpha']);

        const response = await list(account, '?search=zzz');

        expect(response.status).toBe(200);
        expect(response.body.data).toEqual([]);
        expect(response.body.meta).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
        expect(response.body.links.next).toBeNull();
      });

      it('never finds another account’s spaces', async () => {
        const account = await createAccount(t);
        const other = await createAccount(t);
        await insertSpaces(other, ['Secret plan']);
        await insertSpaces(account, ['Public plan']);

        const response = await list(account, '?search=plan');

        expect(names(response)).toEqual(['Public plan']);
      });

      it.each(['color', 'title', 'id'])('refuses search_by=%s with 422 naming search_by', async (value) => {
        const account = await createAccount(t);

        const response = await list(account, `?search=a&search_by=${value}`);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('search_by', 'The selected search by is invalid.'));
      });

      it('refuses a search longer than 255 characters', async () => {
        const account = await createAccount(t);

        const response = await list(account, `?search=${'s'.repeat(256)}`);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('search', 'The search field must not be greater than 255 characters.'),
        );
      });

      it('refuses a null character in the search with 422', async () => {
        const account = await createAccount(t);

        const response = await list(account, '?search=a%00b');

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('search', 'The search field must not contain null characters.'),
        );
      });
    });

    describe('pagination links', () => {
      it('are absolute and keep the other query parameters', async () => {
        const account = await createAccount(t);
        await insertSpaces(account, [
          ...Array.from({ length: 30 }, (_, i) => `x-${i}`),
          ...Array.from({ length: 5 }, (_, i) => `other-${i}`),
        ]);

        const response = await list(account, '?per_page=25&search=x');

        expect(response.status).toBe(200);
        const path = listPath(response);
        expect(response.body.meta).toEqual({
          current_page: 1,
          from: 1,
          last_page: 2,
          links: metaLinks(path, 1, 2, 'per_page=25&search=x&'),
          path,
          per_page: 25,
          to: 25,
          total: 30,
        });
        expect(response.body.links.prev).toBeNull();
        for (const [link, page] of [
          [response.body.links.first, '1'],
          [response.body.links.last, '2'],
          [response.body.links.next, '2'],
        ] as [string, string][]) {
          const url = new URL(link);
          expect(`${url.origin}${url.pathname}`).toBe(path);
          expect(Object.fromEntries(url.searchParams)).toEqual({ per_page: '25', search: 'x', page });
        }

        // Following `next` as given reaches the last page.
        const next = new URL(response.body.links.next as string);
        const second = await list(account, next.search);
        expect(second.status).toBe(200);
        expect(second.body.data).toHaveLength(5);
        expect(second.body.meta).toMatchObject({
          current_page: 2,
          from: 26,
          to: 30,
          total: 30,
          last_page: 2,
        });
        expect(second.body.links.next).toBeNull();
        const prev = new URL(second.body.links.prev as string);
        expect(Object.fromEntries(prev.searchParams)).toEqual({ per_page: '25', search: 'x', page: '1' });
      });

      it('replace the page parameter rather than repeat it', async () => {
        const account = await createAccount(t);
        await insertSpaces(
          account,
          Array.from({ length: 25 }, (_, i) => `p${i}`),
        );

        const response = await list(account, '?page=2&sort=asc');

        expect(response.status).toBe(200);
        for (const link of [response.body.links.prev, response.body.links.next] as string[]) {
          const url = new URL(link);
          expect(url.searchParams.getAll('page')).toHaveLength(1);
          expect(url.searchParams.get('sort')).toBe('asc');
        }
        expect(new URL(response.body.links.prev as string).searchParams.get('page')).toBe('1');
        expect(new URL(response.body.links.next as string).searchParams.get('page')).toBe('3');
      });

      it('keep meta.path free of the query string', async () => {
        const account = await createAccount(t);

        const response = await list(account, '?search=abc&sort=asc');

        expect(response.status).toBe(200);
        expect(response.body.meta.path).toBe(listPath(response));
        expect(response.body.meta.path).not.toContain('?');
        expect(response.body.meta.last_page).toBe(1);
      });

      it("are built on the request's own host", async () => {
        const account = await createAccount(t);
        await insertSpaces(
          account,
          Array.from({ length: 11 }, (_, i) => `h${i}`),
        );

        const response = await call(account, 'get', `${SPACES}?sort=asc`).set('Host', 'links.example:8443');

        expect(response.status).toBe(200);
        expect(response.body.meta.path).toBe('http://links.example:8443/api/v1/spaces');
        expect(response.body.links).toEqual({
          first: 'http://links.example:8443/api/v1/spaces?sort=asc&page=1',
          last: 'http://links.example:8443/api/v1/spaces?sort=asc&page=2',
          prev: null,
          next: 'http://links.example:8443/api/v1/spaces?sort=asc&page=2',
        });
      });
    });

    it('treats empty query values as the defaults', async () => {
      const account = await createAccount(t);
      const inserted = await insertSpaces(
        account,
        Array.from({ length: 12 }, (_, i) => `e${i}`),
      );

      const response = await list(account, '?per_page=&page=&sort=&sort_by=&search=&search_by=');

      expect(response.status).toBe(200);
      expect(ids(response)).toEqual([...inserted].reverse().slice(0, 10));
      expect(response.body.meta).toMatchObject({ current_page: 1, per_page: 10, total: 12, last_page: 2 });
    });
  });
});
