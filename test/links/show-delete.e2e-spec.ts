import { createAccount, createTestApp, type TestApp } from '../support/app';
import { apiClient, UNKNOWN_ID } from '../support/api';
import { invalid, NOT_FOUND } from '../support/contract';
import { LINKS, expectLinkFields, ids, linkFixtures } from '../support/links';
import { unique } from '../support/visitors';

/** Showing and deleting a link, and the answer to an id that is unknown, malformed or another account's. */
describe('Links API', () => {
  let t: TestApp;
  const { call, form } = apiClient(() => t);
  const { createLink, showLink, setClicks, list, createFullLink } = linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
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
});
