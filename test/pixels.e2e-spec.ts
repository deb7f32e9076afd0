import type { Response } from 'supertest';
import type { PixelType } from '../src/pixels/pixel-types';
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

const PIXELS = '/api/v1/pixels';
const LINKS = '/api/v1/links';
const PIXEL_FIELDS = ['id', 'name', 'type', 'value', 'created_at', 'updated_at'];

const NAME_REQUIRED = invalid('name', 'The name field is required.');
const NAME_TOO_LONG = invalid('name', 'The name field must not be greater than 255 characters.');
const NAME_TAKEN = invalid('name', 'The name has already been taken.');
const TYPE_INVALID = invalid('type', 'The selected type is invalid.');

const VALUE_INVALID = invalid(
  'value',
  'The value field must only contain letters, numbers, dashes, and underscores.',
);
const ADROLL_FORMAT = invalid('value', 'The value must be in ADVID-PIXID format.');

/** Each type with a value as phpShort's pages show it: AdRoll as ADVID-PIXID, Google Ads as a bare number. */
const EXAMPLES: [PixelType, string][] = [
  ['adroll', 'ABCDEFGHIJKLMNOPQRSTUV-WXYZ0123456789ABCDEF'],
  ['bing', '12345678'],
  ['facebook', '123456789012345'],
  ['google-ads', '123456789'],
  ['google-analytics', 'G-ABC123DEF4'],
  ['google-tag-manager', 'GTM-ABC1234'],
  ['linkedin', '1234567'],
  ['pinterest', '2612345678901'],
  ['quora', '0123456789abcdef0123456789abcdef'],
  ['x', 'o1a2b'],
];

/** Values that are no tracking id of any type: markup, script, spaces, control characters. */
const HOSTILE_VALUES: [string, (example: string) => string][] = [
  ['a script element', () => '<script>alert(1)</script>'],
  ['an attribute break-out', () => '"><img src=x>'],
  ['a javascript: URL', () => 'javascript:alert(1)'],
  ['the example with markup after it', (example) => `${example}<b>`],
  ['the example with a quote after it', (example) => `${example}"`],
  ['the example with a space inside', (example) => `${example.slice(0, 3)} ${example.slice(3)}`],
  ['two examples separated by a space', (example) => `${example} ${example}`],
  ['the example with a newline inside', (example) => `${example.slice(0, 3)}\n${example.slice(3)}`],
  ['the example with a tab after it inside', (example) => `${example}\tx`],
  ['the example with a slash', (example) => `${example}/x`],
  ['the example with a dot', (example) => `${example}.x`],
];

interface PixelData {
  id: number;
  name: string;
  type: string;
  value: string;
  created_at: string;
  updated_at: string;
}

/** What a pixel in a response must look like: every field, dates in the contract's format. */
function aPixel(expected: Partial<PixelData>) {
  return {
    id: expect.any(Number),
    created_at: expect.stringMatching(ISO_DATE),
    updated_at: expect.stringMatching(ISO_DATE),
    ...expected,
  };
}

describe('Pixels API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  const { create: createPixel, show: showPixel, list, names } = resourceClient<PixelData>(() => t, PIXELS);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  async function facebookPixel(account: TestAccount, name = 'Facebook'): Promise<PixelData> {
    return createPixel(account, { name, type: 'facebook', value: '123456789012345' });
  }

  async function createLink(account: TestAccount, pixelIds: number[]): Promise<Response> {
    const body = [
      'url=https%3A%2F%2Fexample.com%2F',
      'title=With+pixels',
      ...pixelIds.map((id) => `pixel_ids%5B%5D=${id}`),
    ].join('&');
    return form(account, 'post', LINKS, body);
  }

  describe('authentication', () => {
    it.each(RESOURCE_ROUTES)(
      '%s /pixels%s without a key is 401 and changes nothing',
      async (verb, suffix) => {
        const owner = await createAccount(t);
        const pixel = await facebookPixel(owner, 'Kept');

        const response = await call(null, verb, `${PIXELS}${suffix.replace(':id', String(pixel.id))}`)
          .type('form')
          .send({ name: 'Changed', type: 'bing', value: '12345678' });

        expect(response.status).toBe(401);
        expect(response.body).toEqual(UNAUTHENTICATED);
        expect((await list(owner)).body.data).toEqual([pixel]);
      },
    );
  });

  describe('POST /pixels (store)', () => {
    it('creates a pixel: 201 with the data envelope, fields in order', async () => {
      const account = await createAccount(t);

      const response = await form(account, 'post', PIXELS, {
        name: 'Main pixel',
        type: 'google-analytics',
        value: 'G-ABC123DEF4',
      });

      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: aPixel({ name: 'Main pixel', type: 'google-analytics', value: 'G-ABC123DEF4' }),
        status: 200,
      });
      expect(Object.keys(response.body.data)).toEqual(PIXEL_FIELDS);
      expect(response.body.data.created_at).toBe(response.body.data.updated_at);
      expect((await showPixel(account, response.body.data.id)).body).toEqual(response.body);
    });

    it('creates a pixel from a JSON body', async () => {
      const account = await createAccount(t);

      const response = await json(account, 'post', PIXELS, { name: 'Json', type: 'x', value: 'o1a2b' });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        data: aPixel({ name: 'Json', type: 'x', value: 'o1a2b' }),
        status: 200,
      });
    });

    describe.each(EXAMPLES)('type %s', (type, example) => {
      it(`accepts its example value ${example}`, async () => {
        const account = await createAccount(t);

        const response = await form(account, 'post', PIXELS, { name: `My ${type}`, type, value: example });

        expect(response.status).toBe(201);
        expect(response.body.data).toEqual(aPixel({ name: `My ${type}`, type, value: example }));
      });

      it.each(HOSTILE_VALUES)(
        'refuses %s with 422 naming value, and creates nothing',
        async (_label, make) => {
          const account = await createAccount(t);

          const response = await form(account, 'post', PIXELS, { name: 'Bad', type, value: make(example) });

          expect(response.status).toBe(422);
          expect(response.body).toEqual(VALUE_INVALID);
          expect((await list(account)).body.meta.total).toBe(0);
        },
      );
    });

    it.each<[PixelType, string]>([
      ['google-analytics', 'UA-12345678-1'],
      // phpShort checks no vendor's form but AdRoll's: letters, digits, - and _ pass for every type.
      ['facebook', 'GTM-ABC_123'],
      ['google-ads', 'AW-123456789'],
      ['x', 'Ünïcode-letters_1'],
      ['adroll', 'A-B-C'],
    ])('accepts the %s value %s', async (type, value) => {
      const account = await createAccount(t);

      const response = await form(account, 'post', PIXELS, { name: 'Variant', type, value });

      expect(response.status).toBe(201);
      expect(response.body.data.value).toBe(value);
    });

    it.each(['ABCDEFGHIJKLMNOPQRSTUV', '-ABCDEFGHIJKLMNOPQRSTUV', 'ABC_DEF'])(
      'refuses the AdRoll value %s, which is not ADVID-PIXID',
      async (value) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', PIXELS, { name: 'AdRoll', type: 'adroll', value });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(ADROLL_FORMAT);
      },
    );

    it('trims the value', async () => {
      const account = await createAccount(t);

      const pixel = await createPixel(account, { name: 'Trimmed', type: 'bing', value: '  12345678 \t' });

      expect(pixel.value).toBe('12345678');
    });

    it.each<[string, Body, object]>([
      ['missing', { name: 'P', type: 'bing' }, invalid('value', 'The value field is required.')],
      ['empty', { name: 'P', type: 'bing', value: '' }, invalid('value', 'The value field is required.')],
      [
        'longer than 255 characters',
        { name: 'P', type: 'bing', value: '1'.repeat(256) },
        invalid('value', 'The value field must not be greater than 255 characters.'),
      ],
    ])('refuses a value that is %s', async (_label, body, expected) => {
      const account = await createAccount(t);

      const response = await form(account, 'post', PIXELS, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
    });

    describe('type', () => {
      it.each(['tiktok', 'Facebook', 'FACEBOOK', 'google_ads', 'twitter', 'facebook '.repeat(2)])(
        'refuses %j with 422 naming type',
        async (type) => {
          const account = await createAccount(t);

          const response = await form(account, 'post', PIXELS, { name: 'P', type, value: '123456789012345' });

          expect(response.status).toBe(422);
          expect(response.body).toEqual(TYPE_INVALID);
          expect((await list(account)).body.meta.total).toBe(0);
        },
      );

      it.each<[string, Body]>([
        ['missing', { name: 'P', value: '12345678' }],
        ['empty', { name: 'P', type: '', value: '12345678' }],
      ])('is required: %s is 422', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', PIXELS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('type', 'The type field is required.'));
      });

      it('refuses an array in JSON', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', PIXELS, {
          name: 'P',
          type: ['bing'],
          value: '12345678',
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(TYPE_INVALID);
      });
    });

    describe('name', () => {
      it.each<[string, Body]>([
        ['missing', { type: 'bing', value: '12345678' }],
        ['empty', { name: '', type: 'bing', value: '12345678' }],
        ['white space only', { name: ' \t ', type: 'bing', value: '12345678' }],
      ])('is required: %s is 422', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', PIXELS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_REQUIRED);
      });

      it('is trimmed', async () => {
        const account = await createAccount(t);

        const pixel = await createPixel(account, { name: '  Spaced  ', type: 'bing', value: '12345678' });

        expect(pixel.name).toBe('Spaced');
      });

      it.each([
        ['1 character', 'a'],
        ['255 characters', 'n'.repeat(255)],
        ['255 emoji', '\u{1F600}'.repeat(255)],
      ])('accepts %s', async (_label, name) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', PIXELS, { name, type: 'bing', value: '12345678' });

        expect(response.status).toBe(201);
        expect(response.body.data.name).toBe(name);
      });

      it.each([
        ['256 characters', 'n'.repeat(256)],
        ['256 emoji', '\u{1F600}'.repeat(256)],
      ])('refuses %s with 422', async (_label, name) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', PIXELS, { name, type: 'bing', value: '12345678' });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TOO_LONG);
      });

      it('must be a string: a JSON number is 422', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', PIXELS, { name: 7, type: 'bing', value: '12345678' });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('name', 'The name field must be a string.'));
      });

      it.each(['Ads', 'ads', 'ADS', '  aDs '])('refuses %j when the account has "Ads"', async (name) => {
        const account = await createAccount(t);
        const original = await createPixel(account, { name: 'Ads', type: 'bing', value: '12345678' });

        const response = await form(account, 'post', PIXELS, { name, type: 'x', value: 'abcd' });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(NAME_TAKEN);
        expect((await list(account)).body.data).toEqual([original]);
      });

      it('allows a name that another account uses', async () => {
        const first = await createAccount(t);
        const second = await createAccount(t);
        await createPixel(first, { name: 'Shared', type: 'bing', value: '12345678' });

        const response = await form(second, 'post', PIXELS, {
          name: 'SHARED',
          type: 'bing',
          value: '12345678',
        });

        expect(response.status).toBe(201);
        expect(response.body.data.name).toBe('SHARED');
      });

      it('allows the same value under another name', async () => {
        const account = await createAccount(t);
        await createPixel(account, { name: 'One', type: 'bing', value: '12345678' });

        const response = await form(account, 'post', PIXELS, {
          name: 'Two',
          type: 'bing',
          value: '12345678',
        });

        expect(response.status).toBe(201);
      });

      it('lets exactly one of two concurrent creates with the same name through', async () => {
        const account = await createAccount(t);

        const responses = await Promise.all([
          form(account, 'post', PIXELS, { name: 'Race', type: 'bing', value: '12345678' }),
          form(account, 'post', PIXELS, { name: 'RACE', type: 'x', value: 'abcd' }),
        ]);

        expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
        expect(responses.find((response) => response.status === 422)?.body).toEqual(NAME_TAKEN);
        expect((await list(account)).body.meta.total).toBe(1);
      });

      it('is free again once the pixel is deleted', async () => {
        const account = await createAccount(t);
        const pixel = await facebookPixel(account, 'Reused');
        expect((await call(account, 'delete', `${PIXELS}/${pixel.id}`)).status).toBe(200);

        const response = await form(account, 'post', PIXELS, {
          name: 'reused',
          type: 'bing',
          value: '12345678',
        });

        expect(response.status).toBe(201);
      });
    });

    it('ignores unknown and read-only fields, including another account id', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);

      const response = await form(account, 'post', PIXELS, {
        name: 'Extra',
        type: 'bing',
        value: '12345678',
        id: '1',
        account_id: String(other.id),
        created_at: '2000-01-01T00:00:00.000000Z',
        unknown: 'value',
      });

      expect(response.status).toBe(201);
      expect(response.body.data).toEqual(aPixel({ name: 'Extra', type: 'bing', value: '12345678' }));
      expect((await showPixel(other, response.body.data.id)).status).toBe(404);
    });
  });

  describe('GET /pixels/:id (show)', () => {
    it('returns the pixel in the data envelope', async () => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);

      const response = await showPixel(account, pixel.id);

      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: pixel, status: 200 });
      expect(Object.keys(response.body.data)).toEqual(PIXEL_FIELDS);
    });

    it.each(['0', 'abc', '-3', String(UNKNOWN_ID), '99999999999'])('is 404 for the id %s', async (id) => {
      const account = await createAccount(t);

      const response = await showPixel(account, id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });
  });

  describe('another account’s pixel', () => {
    it.each<[Verb, Body]>([
      ['get', {}],
      ['put', { name: 'Hijacked' }],
      ['patch', { value: '999999999' }],
      ['delete', {}],
    ])('%s is 404, exactly as an unknown id, and changes nothing', async (verb, body) => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const pixel = await facebookPixel(owner);

      const response = await call(intruder, verb, `${PIXELS}/${pixel.id}`).type('form').send(body);
      const unknown = await call(intruder, verb, `${PIXELS}/${UNKNOWN_ID}`).type('form').send(body);

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(unknown.body).toEqual(response.body);
      expect((await showPixel(owner, pixel.id)).body.data).toEqual(pixel);
    });

    it('is never listed or found by search', async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      await facebookPixel(owner, 'Secret pixel');
      const mine = await facebookPixel(intruder, 'My pixel');

      const response = await list(intruder, '?search=pixel');

      expect(response.body.data).toEqual([mine]);
      expect((await list(intruder, '?type=facebook')).body.data).toEqual([mine]);
    });

    it('cannot be put on the caller’s links', async () => {
      const owner = await createAccount(t);
      const intruder = await createAccount(t);
      const theirs = await facebookPixel(owner);
      const mine = await facebookPixel(intruder);

      const response = await createLink(intruder, [mine.id, theirs.id]);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('pixel_ids.1', 'The selected pixel is invalid.'));
    });
  });

  describe.each(['put', 'patch'] as const)('%s /pixels/:id (update)', (verb) => {
    async function update(account: TestAccount, id: number, body: Body) {
      return form(account, verb, `${PIXELS}/${id}`, body);
    }

    it('changes every field and answers with the data envelope', async () => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);

      const response = await update(account, pixel.id, {
        name: 'Tags',
        type: 'google-tag-manager',
        value: 'GTM-XYZ987',
      });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: aPixel({
          id: pixel.id,
          name: 'Tags',
          type: 'google-tag-manager',
          value: 'GTM-XYZ987',
          created_at: pixel.created_at,
        }),
        status: 200,
      });
      expect(Object.keys(response.body.data)).toEqual(PIXEL_FIELDS);
      expect((await showPixel(account, pixel.id)).body.data).toEqual(response.body.data);
    });

    it('accepts a JSON body', async () => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);

      const response = await json(account, verb, `${PIXELS}/${pixel.id}`, { name: 'Json' });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('Json');
    });

    it.each<[string, Body, Partial<PixelData>]>([
      ['only the name', { name: 'Renamed' }, { name: 'Renamed' }],
      ['only the value, of the stored type', { value: '555556666677777' }, { value: '555556666677777' }],
      ['only the type, when the stored value fits it', { type: 'pinterest' }, { type: 'pinterest' }],
      ['type and value together', { type: 'x', value: 'abc123' }, { type: 'x', value: 'abc123' }],
      ['nothing', {}, {}],
      ['unknown fields only', { account_id: '1', foo: 'bar' }, {}],
    ])('a partial update: %s', async (_label, body, changes) => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);

      const response = await update(account, pixel.id, body);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(
        aPixel({
          id: pixel.id,
          name: 'Facebook',
          type: 'facebook',
          value: '123456789012345',
          created_at: pixel.created_at,
          ...changes,
        }),
      );
      expect((await showPixel(account, pixel.id)).body.data).toEqual(response.body.data);
    });

    it.each<[string, Body, object]>([
      ['a type the stored value does not fit', { type: 'adroll' }, ADROLL_FORMAT],
      ['markup as the value', { value: '"><script>alert(1)</script>' }, VALUE_INVALID],
      ['a new type with a value it refuses', { type: 'adroll', value: '123456789012345' }, ADROLL_FORMAT],
      ['an unknown type', { type: 'tiktok' }, TYPE_INVALID],
      ['an empty type', { type: '' }, invalid('type', 'The type field is required.')],
      ['an empty value', { value: '' }, invalid('value', 'The value field is required.')],
      ['an empty name', { name: '' }, NAME_REQUIRED],
      ['a name of 256 characters', { name: 'n'.repeat(256) }, NAME_TOO_LONG],
    ])('refuses %s with 422 and changes nothing', async (_label, body, expected) => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);

      const response = await update(account, pixel.id, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
      expect((await showPixel(account, pixel.id)).body.data).toEqual(pixel);
    });

    it('refuses a name another pixel of the account has, in any case', async () => {
      const account = await createAccount(t);
      await facebookPixel(account, 'Taken');
      const pixel = await facebookPixel(account, 'Mine');

      const response = await update(account, pixel.id, { name: 'TAKEN' });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(NAME_TAKEN);
      expect((await showPixel(account, pixel.id)).body.data).toEqual(pixel);
    });

    it.each(['Mine', 'MINE'])('allows renaming a pixel to its own name as %j', async (name) => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account, 'Mine');

      const response = await update(account, pixel.id, { name });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe(name);
    });

    it('allows a name another account’s pixel has', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      await facebookPixel(other, 'Theirs');
      const pixel = await facebookPixel(account, 'Mine');

      const response = await update(account, pixel.id, { name: 'Theirs' });

      expect(response.status).toBe(200);
      expect(response.body.data.name).toBe('Theirs');
    });

    it('is 404 for an unknown id', async () => {
      const account = await createAccount(t);

      const response = await update(account, UNKNOWN_ID, { name: 'Nobody' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('shows in the links that use the pixel', async () => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);
      const link = await createLink(account, [pixel.id]);
      expect(link.status).toBe(201);

      const response = await update(account, pixel.id, { name: 'Renamed' });

      const shown = await call(account, 'get', `${LINKS}/${link.body.data.id}`);
      expect(shown.body.data.pixels).toEqual([response.body.data]);
    });
  });

  describe('DELETE /pixels/:id', () => {
    it('deletes the pixel and answers with the deleted envelope', async () => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);

      const response = await call(account, 'delete', `${PIXELS}/${pixel.id}`);

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['id', 'object', 'deleted', 'status']);
      expect(response.body).toEqual({ id: pixel.id, object: 'pixel', deleted: true, status: 200 });
      expect((await showPixel(account, pixel.id)).status).toBe(404);
      expect((await list(account)).body.meta.total).toBe(0);
    });

    it('is 404 the second time', async () => {
      const account = await createAccount(t);
      const pixel = await facebookPixel(account);
      expect((await call(account, 'delete', `${PIXELS}/${pixel.id}`)).status).toBe(200);

      const response = await call(account, 'delete', `${PIXELS}/${pixel.id}`);

      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('takes the pixel off the links that used it, and leaves the links', async () => {
      const account = await createAccount(t);
      const gone = await facebookPixel(account, 'Gone');
      const kept = await createPixel(account, { name: 'Kept', type: 'bing', value: '12345678' });
      const link = await createLink(account, [gone.id, kept.id]);
      expect(link.status).toBe(201);
      expect(link.body.data.pixels).toEqual([gone, kept]);

      expect((await call(account, 'delete', `${PIXELS}/${gone.id}`)).status).toBe(200);

      const shown = await call(account, 'get', `${LINKS}/${link.body.data.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.data.pixels).toEqual([kept]);
      const filtered = await call(account, 'get', `${LINKS}?pixel_id=${gone.id}`);
      expect(filtered.body.data).toEqual([]);
    });
  });

  describe('the links list filter pixel_id', () => {
    it('lists only the links that carry the pixel', async () => {
      const account = await createAccount(t);
      const first = await facebookPixel(account, 'First');
      const second = await createPixel(account, { name: 'Second', type: 'bing', value: '12345678' });
      const both = await createLink(account, [first.id, second.id]);
      const onlyFirst = await createLink(account, [first.id]);
      const onlySecond = await createLink(account, [second.id]);
      const none = await createLink(account, []);
      for (const link of [both, onlyFirst, onlySecond, none]) expect(link.status).toBe(201);
      const ids = (response: Response) => (response.body.data as { id: number }[]).map((link) => link.id);

      const byFirst = await call(account, 'get', `${LINKS}?pixel_id=${first.id}`);
      const bySecond = await call(account, 'get', `${LINKS}?pixel_id=${second.id}&sort=asc`);

      expect(byFirst.status).toBe(200);
      expect(ids(byFirst)).toEqual([onlyFirst.body.data.id, both.body.data.id]);
      expect(byFirst.body.meta.total).toBe(2);
      expect(ids(bySecond)).toEqual([both.body.data.id, onlySecond.body.data.id]);
    });

    it('finds nothing for another account’s pixel', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const theirs = await facebookPixel(other);
      expect((await createLink(other, [theirs.id])).status).toBe(201);
      expect((await createLink(account, [])).status).toBe(201);

      const response = await call(account, 'get', `${LINKS}?pixel_id=${theirs.id}`);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
    });

    it.each(['abc', '0', '-1'])('refuses pixel_id=%s with 422', async (value) => {
      const account = await createAccount(t);

      const response = await call(account, 'get', `${LINKS}?pixel_id=${value}`);

      expect(response.status).toBe(422);
      expect(Object.keys(response.body.message as object)).toEqual(['pixel_id']);
    });
  });

  describe('GET /pixels (list)', () => {
    /** Pixels straight into the table, in the given order, so ids ascend with it. */
    async function insertPixels(
      account: TestAccount,
      rows: [string, PixelType, string][],
    ): Promise<number[]> {
      const ids: number[] = [];
      for (const [name, type, value] of rows) {
        const inserted: { id: number }[] = await t.dataSource.query(
          'INSERT INTO pixels (account_id, name, type, value) VALUES ($1, $2, $3, $4) RETURNING id',
          [account.id, name, type, value],
        );
        ids.push(inserted[0].id);
      }
      return ids;
    }

    it('answers the list envelope, newest first', async () => {
      const account = await createAccount(t);
      const first = await facebookPixel(account, 'First');
      const second = await createPixel(account, { name: 'Second', type: 'bing', value: '12345678' });

      const response = await list(account);

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
      const path = listPath(response);
      expect(response.body).toEqual({
        data: [second, first],
        links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
        meta: {
          current_page: 1,
          from: 1,
          last_page: 1,
          links: metaLinks(path, 1, 1),
          path,
          per_page: 10,
          to: 2,
          total: 2,
        },
        status: 200,
      });
    });

    it('answers an empty list for a new account', async () => {
      const account = await createAccount(t);

      const response = await list(account);

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
    });

    it.each<[PixelType, string[]]>([
      ['facebook', ['fb 2', 'fb 1']],
      ['bing', ['bing']],
      ['x', []],
    ])('filters by type=%s', async (type, expected) => {
      const account = await createAccount(t);
      await insertPixels(account, [
        ['fb 1', 'facebook', '123456789012345'],
        ['bing', 'bing', '12345678'],
        ['fb 2', 'facebook', '223456789012345'],
        ['gtm', 'google-tag-manager', 'GTM-ABC1234'],
      ]);

      const response = await list(account, `?type=${type}`);

      expect(response.status).toBe(200);
      expect(names(response)).toEqual(expected);
      expect(response.body.meta.total).toBe(expected.length);
    });

    it('combines type with search', async () => {
      const account = await createAccount(t);
      await insertPixels(account, [
        ['Shop fb', 'facebook', '123456789012345'],
        ['Blog fb', 'facebook', '223456789012345'],
        ['Shop bing', 'bing', '12345678'],
      ]);

      const response = await list(account, '?type=facebook&search=shop');

      expect(names(response)).toEqual(['Shop fb']);
    });

    it.each(['tiktok', 'Facebook', 'facebook,bing'])('refuses type=%s with 422', async (type) => {
      const account = await createAccount(t);

      const response = await list(account, `?type=${encodeURIComponent(type)}`);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(TYPE_INVALID);
    });

    it.each([
      ['?search=SHOP', ['Shop pixel', 'Webshop']],
      ['?search=shop&search_by=name', ['Shop pixel', 'Webshop']],
      ['?search=gtm-&search_by=value', ['Tags']],
      ['?search=4567&search_by=value', ['Shop pixel', 'Webshop']],
      ['?search=%25', []],
      ['?search=_', []],
    ])('%j searches case-insensitively and literally', async (query, expected) => {
      const account = await createAccount(t);
      await insertPixels(account, [
        ['Webshop', 'bing', '12345678'],
        ['Tags', 'google-tag-manager', 'GTM-ABC1234'],
        ['Shop pixel', 'facebook', '123456789012345'],
      ]);

      const response = await list(account, query);

      expect(response.status).toBe(200);
      expect(names(response)).toEqual(expected);
    });

    it.each([
      ['', ['b', 'C', 'a']],
      ['?sort=asc', ['a', 'C', 'b']],
      ['?sort_by=id&sort=desc', ['b', 'C', 'a']],
      ['?sort_by=name&sort=asc', ['a', 'b', 'C']],
      ['?sort_by=name&sort=desc', ['C', 'b', 'a']],
      ['?sort_by=name', ['C', 'b', 'a']],
    ])('orders %j', async (query, expected) => {
      const account = await createAccount(t);
      await insertPixels(account, [
        ['a', 'bing', '12345678'],
        ['C', 'bing', '12345678'],
        ['b', 'bing', '12345678'],
      ]);

      const response = await list(account, query);

      expect(response.status).toBe(200);
      expect(names(response)).toEqual(expected);
    });

    it('pages with per_page and page', async () => {
      const account = await createAccount(t);
      const ids = await insertPixels(
        account,
        Array.from({ length: 27 }, (_, i): [string, PixelType, string] => [`p${i}`, 'bing', '12345678']),
      );
      const pageIds = (response: Response) => (response.body.data as PixelData[]).map((pixel) => pixel.id);

      const first = await list(account, '?per_page=25&sort=asc');
      const second = await list(account, '?per_page=25&sort=asc&page=2');
      const beyond = await list(account, '?page=4');

      expect(pageIds(first)).toEqual(ids.slice(0, 25));
      expect(first.body.meta).toMatchObject({
        current_page: 1,
        per_page: 25,
        from: 1,
        to: 25,
        last_page: 2,
        total: 27,
      });
      expect(pageIds(second)).toEqual(ids.slice(25));
      expect(second.body.meta).toMatchObject({ current_page: 2, from: 26, to: 27, last_page: 2, total: 27 });
      expect(second.body.links.next).toBeNull();
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta).toMatchObject({
        current_page: 4,
        from: null,
        to: null,
        total: 27,
        last_page: 3,
      });
    });

    it.each([
      ['sort=up', invalid('sort', 'The selected sort is invalid.')],
      ['sort_by=type', invalid('sort_by', 'The selected sort by is invalid.')],
      ['sort_by=created_at', invalid('sort_by', 'The selected sort by is invalid.')],
      ['search=a&search_by=type', invalid('search_by', 'The selected search by is invalid.')],
      ['per_page=11', invalid('per_page', 'The selected per page is invalid.')],
      ['page=0', invalid('page', 'The page field must be at least 1.')],
      ['page=1.5', invalid('page', 'The page field must be an integer.')],
    ])('refuses %s with 422', async (query, expected) => {
      const account = await createAccount(t);

      const response = await list(account, `?${query}`);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
    });

    it('treats empty query values as the defaults', async () => {
      const account = await createAccount(t);
      const ids = await insertPixels(account, [
        ['a', 'bing', '12345678'],
        ['b', 'x', 'abcd'],
      ]);

      const response = await list(account, '?type=&search=&search_by=&sort=&sort_by=&per_page=&page=');

      expect(response.status).toBe(200);
      expect((response.body.data as PixelData[]).map((pixel) => pixel.id)).toEqual([...ids].reverse());
    });
  });
});
