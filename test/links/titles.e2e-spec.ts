import { TITLE_FETCH_OPTIONS, type TitleFetchOptions } from '../../src/links/title-fetcher';
import { OFFLINE_TITLE_FETCH, createAccount, createTestApp, type TestApp } from '../support/app';
import { apiClient } from '../support/api';
import { invalid } from '../support/contract';
import { LINKS, linkFixtures } from '../support/links';
import { sleep } from '../support/sleep';
import { unique } from '../support/visitors';

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

/** A link's title: given, or fetched from its page after the answer. */
describe('Links API', () => {
  let t: TestApp;
  const { form } = apiClient(() => t);
  const { createLink, showLink } = linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp(
      {},
      { override: (builder) => builder.overrideProvider(TITLE_FETCH_OPTIONS).useValue(TITLE_FETCH) },
    );
  });

  afterAll(async () => {
    releaseSlowLookups();
    await t.close();
  });

  describe('POST /links (store)', () => {
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
});
