import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { invalid } from './support/contract';
import { unique } from './support/visitors';

const MAX_LINKS = 50;
const MAX_SPACES = 3;
const MAX_DOMAINS = 2;
const MAX_PIXELS = 2;
const MAX_TAGS = 3;

describe('Per-account quotas', () => {
  let t: TestApp;
  const { call, form, json } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp({
      MAX_LINKS_PER_ACCOUNT: String(MAX_LINKS),
      MAX_SPACES_PER_ACCOUNT: String(MAX_SPACES),
      MAX_DOMAINS_PER_ACCOUNT: String(MAX_DOMAINS),
      MAX_PIXELS_PER_ACCOUNT: String(MAX_PIXELS),
      MAX_TAGS_PER_ACCOUNT: String(MAX_TAGS),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The account's links as the list counts them, as `link_counts` sums them and as the table holds them. */
  async function linkCounts(account: TestAccount): Promise<number[]> {
    const list = await call(account, 'get', '/api/v1/links');
    const [row] = await t.dataSource.query<{ summed: number; counted: number }[]>(
      `SELECT (SELECT COALESCE(sum(links), 0)::int FROM link_counts WHERE account_id = $1) AS summed,
              (SELECT count(*)::int FROM links WHERE account_id = $1) AS counted`,
      [account.id],
    );
    return [(list.body as { meta: { total: number } }).meta.total, row.summed, row.counted];
  }

  /** `count` links for the account, written straight into the table (the counts follow by trigger). */
  async function seedLinks(account: TestAccount, count: number): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO links (account_id, domain_id, alias, url)
       SELECT $1, (SELECT id FROM domains WHERE account_id IS NULL ORDER BY id LIMIT 1), $2 || g,
              'https://example.com/'
         FROM generate_series(1, $3) g`,
      [account.id, unique('seed'), count],
    );
  }

  const linksMessage = (total: number) =>
    `The account may hold at most ${MAX_LINKS} links; this would make ${total}.`;

  describe('tags', () => {
    const tagsMessage = (total: number) =>
      `The account may hold at most ${MAX_TAGS} tags; this would make ${total}.`;

    it('refuses a link that names new tags past the limit, naming `tags`, while the tags it has stay free', async () => {
      const owner = await createAccount(t);
      const made = await json(owner, 'post', '/api/v1/links', {
        url: 'https://example.com/t',
        tags: ['a', 'b'],
      });
      expect(made.status).toBe(201);
      const past = await json(owner, 'post', '/api/v1/links', {
        url: 'https://example.com/t',
        tags: ['A', 'c', 'd'],
      });
      expect(past.body).toEqual(invalid('tags', tagsMessage(MAX_TAGS + 1)));
      // Nothing of the refused create stays: no link, no tag.
      expect((await call(owner, 'get', '/api/v1/links')).body.meta.total).toBe(1);
      expect((await call(owner, 'get', '/api/v1/tags')).body.meta.total).toBe(2);
      const again = await json(owner, 'post', '/api/v1/links', {
        url: 'https://example.com/t',
        tags: ['B', 'c'],
      });
      expect(again.status).toBe(201);
      expect((await json(owner, 'post', '/api/v1/tags', { name: 'e' })).body).toEqual(
        invalid('name', tagsMessage(MAX_TAGS + 1)),
      );
      const link = again.body.data.id as number;
      expect((await json(owner, 'patch', `/api/v1/links/${link}`, { tags: ['f'] })).body).toEqual(
        invalid('tags', tagsMessage(MAX_TAGS + 1)),
      );
    });

    it('lets parallel creates of new tags through only as far as the limit', async () => {
      const owner = await createAccount(t);
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          json(owner, 'post', '/api/v1/links', { url: 'https://example.com/t', tags: [`tag-${index}`] }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([
        ...Array<number>(MAX_TAGS).fill(201),
        ...Array<number>(8 - MAX_TAGS).fill(422),
      ]);
      expect((await call(owner, 'get', '/api/v1/tags')).body.meta.total).toBe(MAX_TAGS);
    });
  });

  describe('links', () => {
    it('lets exactly as many parallel creates through as the limit leaves room for', async () => {
      const owner = await createAccount(t);
      await seedLinks(owner, MAX_LINKS - 10);

      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          form(owner, 'post', '/api/v1/links', { url: `https://example.com/p/${index}`, title: 'P' }),
        ),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([...Array<number>(10).fill(201), ...Array<number>(10).fill(422)]);
      for (const response of responses.filter((each) => each.status === 422)) {
        expect(response.body).toEqual(invalid('url', linksMessage(MAX_LINKS + 1)));
      }
      expect(await linkCounts(owner)).toEqual([MAX_LINKS, MAX_LINKS, MAX_LINKS]);
    });

    it('refuses a bulk that would pass the limit as a whole, creating none of it', async () => {
      const owner = await createAccount(t);
      await seedLinks(owner, MAX_LINKS - 10);

      const over = await json(owner, 'post', '/api/v1/links/bulk', {
        links: Array.from({ length: 11 }, (_, index) => ({ url: `https://example.com/b/${index}` })),
      });

      expect([over.status, over.body]).toEqual([422, invalid('links', linksMessage(MAX_LINKS + 1))]);
      expect(await linkCounts(owner)).toEqual([MAX_LINKS - 10, MAX_LINKS - 10, MAX_LINKS - 10]);
    });

    it('lets one of two parallel bulks through when there is room for one', async () => {
      const owner = await createAccount(t);
      await seedLinks(owner, MAX_LINKS - 10);

      const responses = await Promise.all(
        [0, 1].map((request) =>
          json(owner, 'post', '/api/v1/links/bulk', {
            links: Array.from({ length: 6 }, (_, index) => ({
              url: `https://example.com/${request}/${index}`,
            })),
          }),
        ),
      );

      expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
      const refused = responses.find((response) => response.status === 422)!;
      expect(refused.body).toEqual(invalid('links', linksMessage(MAX_LINKS + 2)));
      expect(await linkCounts(owner)).toEqual([MAX_LINKS - 4, MAX_LINKS - 4, MAX_LINKS - 4]);
    });

    it('holds the limit exactly when single creates and a bulk of one account race', async () => {
      const owner = await createAccount(t);
      await seedLinks(owner, MAX_LINKS - 10);

      const responses = await Promise.all([
        ...Array.from({ length: 5 }, (_, index) =>
          form(owner, 'post', '/api/v1/links', { url: `https://example.com/s/${index}` }),
        ),
        json(owner, 'post', '/api/v1/links/bulk', {
          links: Array.from({ length: 6 }, (_, index) => ({ url: `https://example.com/b/${index}` })),
        }),
        ...Array.from({ length: 5 }, (_, index) =>
          form(owner, 'post', '/api/v1/links', { url: `https://example.com/t/${index}` }),
        ),
      ]);

      const made = responses.map((response): number => {
        if (response.status !== 201) return 0;
        const data = response.body.data as unknown;
        return Array.isArray(data) ? data.length : 1;
      });
      expect(made.reduce((sum, count) => sum + count, 0)).toBe(10);
      for (const response of responses.filter((each) => each.status !== 201))
        expect(response.status).toBe(422);
      expect(await linkCounts(owner)).toEqual([MAX_LINKS, MAX_LINKS, MAX_LINKS]);
    });

    it('answers an alias that is taken before the limit, at the limit', async () => {
      const owner = await createAccount(t);
      await seedLinks(owner, MAX_LINKS);
      const [{ alias }] = await t.dataSource.query<{ alias: string }[]>(
        'SELECT alias FROM links WHERE account_id = $1 LIMIT 1',
        [owner.id],
      );

      const single = await form(owner, 'post', '/api/v1/links', { url: 'https://example.com/x', alias });
      const bulk = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [{ url: 'https://example.com/y' }, { url: 'https://example.com/x', alias }],
      });

      expect([single.status, single.body]).toEqual([
        422,
        invalid('alias', 'The alias has already been taken.'),
      ]);
      expect([bulk.status, bulk.body]).toEqual([
        422,
        invalid('links.1.alias', 'The alias has already been taken.'),
      ]);
      expect(await linkCounts(owner)).toEqual([MAX_LINKS, MAX_LINKS, MAX_LINKS]);
    });

    it('counts each account alone, and a deleted link frees its place', async () => {
      const owner = await createAccount(t);
      const other = await createAccount(t);
      await seedLinks(owner, MAX_LINKS);

      const refused = await form(owner, 'post', '/api/v1/links', { url: 'https://example.com/x' });
      expect([refused.status, refused.body]).toEqual([422, invalid('url', linksMessage(MAX_LINKS + 1))]);
      const theirs = await form(other, 'post', '/api/v1/links', { url: 'https://example.com/x' });
      expect(theirs.status).toBe(201);

      const [{ id }] = await t.dataSource.query<{ id: number }[]>(
        'SELECT id FROM links WHERE account_id = $1 LIMIT 1',
        [owner.id],
      );
      expect((await call(owner, 'delete', `/api/v1/links/${id}`)).status).toBe(200);
      const again = await form(owner, 'post', '/api/v1/links', { url: 'https://example.com/x' });
      expect(again.status).toBe(201);
    });
  });

  describe.each([
    ['spaces', MAX_SPACES, (index: number) => ({ name: `Space ${index}` })],
    ['domains', MAX_DOMAINS, (index: number) => ({ name: `${unique('quota')}-${index}.example.com` })],
    [
      'pixels',
      MAX_PIXELS,
      (index: number) => ({ name: `Pixel ${index}`, type: 'facebook', value: `12345678901234${index}` }),
    ],
  ])('%s', (resource, limit, body) => {
    const message = `The account may hold at most ${limit} ${resource}; this would make ${limit + 1}.`;

    it('lets exactly the limit through of many parallel creates, refusing the rest on name', async () => {
      const owner = await createAccount(t);

      const responses = await Promise.all(
        Array.from({ length: limit + 4 }, (_, index) =>
          form(owner, 'post', `/api/v1/${resource}`, body(index)),
        ),
      );

      expect(responses.map((response) => response.status).sort()).toEqual([
        ...Array<number>(limit).fill(201),
        ...Array<number>(4).fill(422),
      ]);
      for (const response of responses.filter((each) => each.status === 422)) {
        expect(response.body).toEqual(invalid('name', message));
      }
      const list = await call(owner, 'get', `/api/v1/${resource}`);
      const own = (list.body as { data: { id: number }[] }).data.filter((item) =>
        responses.some((response) => response.status === 201 && response.body.data.id === item.id),
      );
      expect(own).toHaveLength(limit);
    });

    it('frees a place when one is deleted, and counts each account alone', async () => {
      const owner = await createAccount(t);
      const other = await createAccount(t);
      const made: number[] = [];
      for (let index = 0; index < limit; index += 1) {
        const response = await form(owner, 'post', `/api/v1/${resource}`, body(index));
        expect(response.status).toBe(201);
        made.push((response.body.data as { id: number }).id);
      }
      const refused = await form(owner, 'post', `/api/v1/${resource}`, body(limit));
      expect([refused.status, refused.body]).toEqual([422, invalid('name', message)]);
      expect((await form(other, 'post', `/api/v1/${resource}`, body(limit))).status).toBe(201);

      expect((await call(owner, 'delete', `/api/v1/${resource}/${made[0]}`)).status).toBe(200);
      expect((await form(owner, 'post', `/api/v1/${resource}`, body(limit))).status).toBe(201);
    });
  });
});
