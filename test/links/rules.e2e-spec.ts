import { createAccount, createTestApp, type TestApp } from '../support/app';
import { apiClient } from '../support/api';
import { invalid } from '../support/contract';
import {
  LINKS,
  DATE_FORMAT,
  START_REQUIRED,
  END_REQUIRED,
  END_AFTER_START,
  PASSWORD_REQUIRED,
  linkFixtures,
} from '../support/links';

/** The fields that decide when and to whom a link answers: active period, clicks limit, privacy and the flags. */
describe('Links API', () => {
  let t: TestApp;
  const { form, json } = apiClient(() => t);
  const { createLink } = linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('POST /links (store)', () => {
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

        // Spaces around a date are trimmed: a tolerance beyond the document's pattern.
        const link = await createLink(
          account,
          {
            url: 'https://example.com/',
            active_period_start_at: value,
            active_period_end_at: '2099-12-31 00:00',
          },
          value !== value.trim(),
        );

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
  });
});
