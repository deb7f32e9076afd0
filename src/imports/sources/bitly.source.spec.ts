import { FakeBitly, type FakeBitlink, type FakeBitlyGroup } from '../../../test/support/fake-bitly';
import { connectForTests, itReadsLikeAnApiSource, readAllPages } from '../../../test/support/import-sources';
import { bitlySource } from './bitly.source';
import type { SourceLink } from './source';

const TOKEN = 'bitly-token-1';

const GROUPS: FakeBitlyGroup[] = [
  { guid: 'Bmarketing1', name: 'Marketing', bsds: ['brand.test'] },
  { guid: 'Bsupport222', name: 'Support' },
];

const BITLINKS: FakeBitlink[] = [
  {
    group: 'Bmarketing1',
    id: 'bit.ly/abc',
    long_url: 'https://example.com/launch',
    created_at: '2025-11-30T09:00:00+0000',
    title: 'The launch',
    tags: ['launch', 'q4'],
    custom_bitlinks: ['https://brand.test/launch'],
    clicks: [
      { day: '2025-12-01', clicks: 3 },
      { day: '2025-12-03', clicks: 0 },
      { day: '2025-12-05', clicks: 2 },
    ],
    countries: [
      { value: 'US', clicks: 3 },
      { value: 'GB', clicks: 2 },
    ],
    referringDomains: [
      { value: 'direct', clicks: 1 },
      { value: 'twitter.com', clicks: 4 },
    ],
  },
  {
    group: 'Bmarketing1',
    id: 'brand.test/sale',
    long_url: 'https://example.com/sale',
    created_at: '2025-10-01T00:00:00+0000',
    // Bitly lists a branded bitlink's own keyword among its custom bitlinks too.
    custom_bitlinks: ['https://brand.test/sale'],
  },
  ...Array.from({ length: 118 }, (_, index) => ({
    group: 'Bmarketing1',
    id: `bit.ly/m${index}`,
    long_url: `https://example.com/m${index}`,
    created_at: '2025-01-01T00:00:00+0000',
  })),
  {
    group: 'Bsupport222',
    id: 'j.mp/old',
    long_url: 'https://example.com/old',
    created_at: '2020-01-01T00:00:00+0000',
    metricsRefused: true,
  },
  ...Array.from({ length: 2 }, (_, index) => ({
    group: 'Bsupport222',
    id: `bitly.com/s${index}`,
    long_url: `https://example.com/s${index}`,
    created_at: '2025-01-01T00:00:00+0000',
  })),
];

describe('bitlySource', () => {
  let fake: FakeBitly;

  const start = async (paging: 'page' | 'search_after') => {
    fake = await FakeBitly.start({ token: TOKEN, groups: GROUPS, bitlinks: BITLINKS, paging });
  };

  beforeEach(() => start('page'));

  afterEach(() => fake.close());

  const source = (accessToken = TOKEN) => bitlySource({ accessToken, url: fake.url }, connectForTests);
  const readAll = () => readAllPages(source());

  const byId = (links: SourceLink[], sourceId: string) => links.find((link) => link.sourceId === sourceId)!;

  itReadsLikeAnApiSource({
    document: 'bitly',
    fake: () => fake,
    source,
    refusal: 403,
    firstRequest: 'v4/groups',
    requests: 132,
    undocumented: { method: 'GET', path: '/v4/bitlinks/bit.ly/abc/clicks', query: ['unit'] },
  });

  it('opens with its groups as spaces, its branded domains and the number of bitlinks', async () => {
    await expect(source().open()).resolves.toEqual({
      linksTotal: 123,
      spaces: [{ name: 'Marketing' }, { name: 'Support' }],
      domains: [{ name: 'brand.test' }],
      pixels: [],
    });
  });

  it('reads group after group, two pages of the first, with clicks by day, country and referrer', async () => {
    const pages = await readAll();

    expect(pages.map((page) => page.next)).toEqual([
      JSON.stringify({ group: 'Bmarketing1', page: 2 }),
      JSON.stringify({ group: 'Bsupport222', page: 1 }),
      null,
    ]);
    // 100 bitlinks and the custom back-half of one, 20, then the second group's 3.
    expect(pages.map((page) => page.links.length)).toEqual([101, 20, 3]);
    const links = pages.flatMap((page) => page.links);
    expect(new Set(links.map((link) => link.sourceId)).size).toBe(124);

    const abc = byId(links, 'bit.ly/abc');
    expect(abc).toMatchObject({
      fields: { url: 'https://example.com/launch', alias: 'abc', title: 'The launch' },
      domain: null,
      space: { name: 'Marketing' },
      tags: ['launch', 'q4'],
      createdAt: new Date('2025-11-30T09:00:00Z'),
      clicks: 5,
      history: {
        hours: [
          { hour: new Date('2025-12-01T00:00:00Z'), clicks: 3 },
          { hour: new Date('2025-12-05T00:00:00Z'), clicks: 2 },
        ],
      },
    });
    // Totals only: on the bitlink's last day with clicks, so that its whole history answers them.
    const rows = abc.history !== null && 'days' in abc.history ? abc.history.days : [];
    expect(rows).toEqual([
      { dimension: 'country', day: '2025-12-05', value: 'US', clicks: 3 },
      { dimension: 'country', day: '2025-12-05', value: 'GB', clicks: 2 },
      { dimension: 'continent', day: '2025-12-05', value: 'NA', clicks: 3 },
      { dimension: 'continent', day: '2025-12-05', value: 'EU', clicks: 2 },
      { dimension: 'referrer', day: '2025-12-05', value: 'twitter.com', clicks: 4 },
    ]);

    expect(byId(links, 'bitly.com/s1')).toMatchObject({
      domain: null,
      space: { name: 'Support' },
      clicks: 0,
    });
  });

  it('brings a custom back-half as a link of its own, and a branded bitlink on its domain', async () => {
    const links = (await source().page(null)).links;

    expect(byId(links, 'bit.ly/abc#brand.test/launch')).toMatchObject({
      fields: { url: 'https://example.com/launch', alias: 'launch', title: 'The launch' },
      domain: { name: 'brand.test' },
      space: { name: 'Marketing' },
      tags: ['launch', 'q4'],
      clicks: 0,
      history: null,
    });
    expect(byId(links, 'brand.test/sale')).toMatchObject({
      fields: { url: 'https://example.com/sale', alias: 'sale' },
      domain: { name: 'brand.test' },
    });
    expect(links.filter((link) => link.sourceId.startsWith('brand.test/sale'))).toHaveLength(1);
  });

  it('imports a bitlink whose metrics the plan refuses without history, and says so', async () => {
    const pages = await readAll();

    const old = byId(pages[2].links, 'j.mp/old');

    expect(old).toMatchObject({ fields: { alias: 'old' }, domain: null, clicks: 0, history: null });
    expect(pages[2].errors).toEqual([
      { item: 'j.mp/old', message: expect.stringContaining('without history') },
    ]);
  });

  it('pages by search_after where Bitly answers one, and resumes from it', async () => {
    await fake.close();
    await start('search_after');

    const pages = await readAll();

    expect(pages.map((page) => page.links.length)).toEqual([101, 20, 3]);
    const cursor = JSON.parse(pages[0].next!) as { group: string; after: string };
    expect(cursor).toEqual({ group: 'Bmarketing1', after: expect.any(String) });
    const resumed = await source().page(pages[0].next);
    expect(resumed.links.map((link) => link.sourceId)).toEqual(pages[1].links.map((link) => link.sourceId));
  });
});
