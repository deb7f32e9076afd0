import { createAccount, createTestApp, type TestApp } from '../support/app';
import { apiClient, UNKNOWN_ID } from '../support/api';
import { invalid } from '../support/contract';
import { LINKS, linkFixtures } from '../support/links';

/** A link's space, pixels and domain: what an account may name, and what each answer shows of them. */
describe('Links API', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);
  const { createLink, createSpace, showSpace, createPixel, createDomain, list } = linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('POST /links (store)', () => {
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
  });
});
