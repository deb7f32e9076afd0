import { randomBytes } from 'node:crypto';
import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { apiClient, expectEmptyList, listPath, metaLinks, UNKNOWN_ID } from '../support/api';
import { invalid } from '../support/contract';
import { LinkListRepository, type SearchFacts } from '../../src/links/link-list.repository';
import { LINKS, expectLinkFields, ids, linkFixtures, type LinkData, type LinkRow } from '../support/links';

/** The links list: its envelope, pages, search, filters, sort, and the status each link is listed with. */
describe('Links API', () => {
  let t: TestApp;
  const { form } = apiClient(() => t);
  const {
    createLink,
    createSpace,
    createPixel,
    createDomain,
    setClicks,
    insertLinks,
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

      expectEmptyList(await list(account), '/api/v1/links');
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

      it('reads the links a search finds once, for its page and its total', async () => {
        const account = await createAccount(t);
        const found = await insertLinks(
          account,
          ['Sale 42 a', 'sale 42 b', 'Sale 4', '42 sale'].map((title) => ({ title })),
        );
        const query = jest.spyOn(t.dataSource, 'query');

        try {
          const response = await list(account, '?search=sale%2042');

          expect(ids(response)).toEqual([found[1], found[0]]);
          expect(response.body.meta.total).toBe(2);
          const reads = query.mock.calls.filter(([text]) => /FROM links link/.test(text));
          expect(reads).toHaveLength(1);
        } finally {
          query.mockRestore();
        }
      });

      it.each([
        ['in id order', '', [4, 3, 2, 1, 0]],
        ['sorted by title', '&sort_by=title&sort=asc', [1, 3, 2, 4, 0]],
        ['with a status', '&status=3&sort_by=title&sort=desc', [4, 2, 3, 1]],
      ])(
        'counts and pages apart a search that finds more links than it reads at once, %s',
        async (_name, more, expected) => {
          const account = await createAccount(t);
          const titles = ['sale E', 'sale A', 'sale C', 'sale B', 'SALE D', 'other'];
          const found = await insertLinks(
            account,
            titles.map((title) => ({ title })),
          );
          await t.dataSource.query('UPDATE links SET disabled = true WHERE id = ANY ($1)', [
            [found[1], found[2], found[3], found[4]],
          ]);
          const repository = t.app.get(LinkListRepository);
          const foundPage = repository.foundPage.bind(repository);
          const bounded = jest
            .spyOn(repository, 'foundPage')
            .mockImplementation((filter, order, offset, limit) => foundPage(filter, order, offset, limit, 2));

          try {
            const page = await list(account, `?search=sale${more}`);
            const past = await list(account, `?search=sale&page=2${more}`);

            expect(bounded).toHaveBeenCalled();
            expect(ids(page)).toEqual(expected.map((index) => found[index]));
            expect(page.body.meta.total).toBe(expected.length);
            expect(ids(past)).toEqual([]);
          } finally {
            bounded.mockRestore();
          }
        },
      );

      it.each([
        ['title', 'sale', (term: string, n: number) => ({ title: `${term} ${n}` })],
        // Aliases are unique on their domain, whoever holds them.
        [
          'alias',
          `promo${randomBytes(4).toString('hex')}`,
          (term: string, n: number) => ({ alias: `${term}-${n}` }),
        ],
        ['url', 'shop.example', (term: string, n: number) => ({ url: `https://${term}/${n}` })],
      ])(
        'finds the links of an account of more links than a search reads at once, by %s, and only its own, statistics fresh or stale',
        async (by, term, link) => {
          const account = await createAccount(t);
          const other = await createAccount(t);
          const made = (n: number) => link(term, n);
          const mine = await insertLinks(account, [1, 2, 3, 4].map(made));
          await insertLinks(account, [{ title: 'other', url: 'https://elsewhere.example/' }]);
          await insertLinks(other, [5, 6, 7].map(made));
          const repository = t.app.get(LinkListRepository);
          const foundPage = repository.foundPage.bind(repository);
          const bounded = jest
            .spyOn(repository, 'foundPage')
            .mockImplementation((filter, order, offset, limit) => foundPage(filter, order, offset, limit, 4));
          // The statistics' state as the server's counters would give it: stale right after a bulk load.
          const facts = repository as unknown as { searchFacts: (accountId: number) => Promise<SearchFacts> };
          const searchFacts = facts.searchFacts.bind(repository);
          const statements = jest.spyOn(t.dataSource, 'query');

          try {
            for (const unanalysed of [true, false]) {
              const stated = jest
                .spyOn(facts, 'searchFacts')
                .mockImplementation(async (accountId) => ({ ...(await searchFacts(accountId)), unanalysed }));
              statements.mockClear();

              const page = await list(account, `?search=${term}&search_by=${by}&sort_by=id&sort=asc`);

              expect(stated).toHaveBeenCalled();
              stated.mockRestore();
              expect(ids(page)).toEqual(mine);
              expect(page.body.meta.total).toBe(4);
              // The trigram index is forced (the account compared so that no index of its serves) only when stale.
              const sent = statements.mock.calls.map(([text]) => text).join('\n');
              expect({ unanalysed, forced: /link\.account_id \+ 0 = \$1/.test(sent) }).toEqual({
                unanalysed,
                forced: unanalysed,
              });
            }
          } finally {
            statements.mockRestore();
            bounded.mockRestore();
          }
        },
      );

      it("reads the account's links and the table's statistics' state from the server", async () => {
        const account = await createAccount(t);
        await insertLinks(account, [{}, {}, {}]);
        const repository: unknown = t.app.get(LinkListRepository);
        const { searchFacts } = repository as { searchFacts: (accountId: number) => Promise<SearchFacts> };

        const facts = await searchFacts.call(repository, account.id);

        expect(facts.accountLinks).toBe(3);
        expect(typeof facts.unanalysed).toBe('boolean');
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
        const rows: LinkRow[] = [
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
