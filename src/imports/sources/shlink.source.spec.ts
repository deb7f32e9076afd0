import { FakeShlink, type FakeShlinkShortUrl, type FakeShlinkVisit } from '../../../test/support/fake-shlink';
import { connectForTests, itReadsLikeAnApiSource, readAllPages } from '../../../test/support/import-sources';
import { shlinkSource } from './shlink.source';
import type { SourceClick } from './source';

const API_KEY = 'shlink-key-1';

const UA = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

/** Visits enough for the visits to come in two requests (a request takes 1000). */
const manyVisits: FakeShlinkVisit[] = Array.from({ length: 1100 }, (_, index) => ({
  date: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
  userAgent: UA.windowsChrome,
}));

const SHORT_URLS: FakeShlinkShortUrl[] = [
  {
    shortCode: 'first',
    longUrl: 'https://example.com/first',
    dateCreated: '2024-05-01T10:00:00+02:00',
    title: 'The first',
    tags: ['news', 'tech'],
    meta: {
      validSince: '2024-05-02T00:00:00+00:00',
      validUntil: '2030-01-01T00:00:00+00:00',
      maxVisits: 100,
    },
    deviceLongUrls: {
      android: 'https://example.com/android',
      ios: 'https://example.com/ios',
      desktop: 'https://example.com/desktop',
    },
    visits: [
      {
        date: '2025-02-03T04:05:06+01:00',
        userAgent: UA.iPhone,
        referer: 'https://twitter.com/someone/status/1',
        countryCode: 'US',
        cityName: 'New York',
      },
      { date: '2025-02-04T10:00:00+00:00', userAgent: UA.windowsChrome, referer: '' },
      { date: '2025-02-05T10:00:00+00:00', userAgent: UA.googlebot, potentialBot: true },
    ],
  },
  {
    shortCode: 'sale',
    longUrl: 'https://example.com/sale',
    dateCreated: '2024-06-01T00:00:00+00:00',
    domain: 'go.brand.test',
    meta: { validUntil: '2031-01-01T00:00:00+00:00' },
    deviceLongUrls: { desktop: 'https://example.com/sale-desktop' },
    forwardQuery: false,
  },
  {
    shortCode: 'busy',
    longUrl: 'https://example.com/busy',
    dateCreated: '2024-07-01T00:00:00+00:00',
    meta: { validSince: '2024-07-02T00:00:00+00:00' },
    visits: manyVisits,
  },
  ...Array.from({ length: 27 }, (_, index) => ({
    shortCode: `code-${index}`,
    longUrl: `https://example.com/${index}`,
    dateCreated: '2024-08-01T00:00:00+00:00',
  })),
];

describe('shlinkSource', () => {
  let fake: FakeShlink;

  beforeEach(async () => {
    fake = await FakeShlink.start({ apiKey: API_KEY, shortUrls: SHORT_URLS });
  });

  afterEach(() => fake.close());

  const source = (apiKey = API_KEY) => shlinkSource({ url: fake.url, apiKey }, connectForTests);

  itReadsLikeAnApiSource({
    document: 'shlink',
    fake: () => fake,
    source,
    refusal: 401,
    firstRequest: 'rest/v3/short-urls',
    requests: 34,
    undocumented: { method: 'GET', path: '/rest/v3/short-urls', query: ['limit'] },
  });

  it('opens with the number of short URLs', async () => {
    await expect(source().open()).resolves.toEqual({ linksTotal: 30, spaces: [], domains: [], pixels: [] });
  });

  it('reads every short URL in two pages, with visits, domains and tags', async () => {
    const pages = await readAllPages(source());

    expect(pages.map((page) => page.links.length)).toEqual([25, 5]);
    expect(pages.map((page) => page.next)).toEqual([JSON.stringify({ page: 2 }), null]);
    const links = pages.flatMap((page) => page.links);
    expect(new Set(links.map((link) => link.sourceId)).size).toBe(30);

    const first = links.find((link) => link.sourceId === 'first')!;
    expect(first).toMatchObject({
      domain: null,
      space: null,
      pixels: [],
      tags: ['news', 'tech'],
      unreadableSecrets: [],
      createdAt: new Date('2024-05-01T08:00:00Z'),
      clicks: 2,
    });
    expect(first.fields).toEqual({
      url: 'https://example.com/first',
      alias: 'first',
      title: 'The first',
      active_period_start_at: '2024-05-02T00:00:00.000Z',
      active_period_end_at: '2030-01-01T00:00:00.000Z',
      clicks_limit: 100,
      targets_type: 'operating_systems',
      targets: [
        { key: 'Android', value: 'https://example.com/android' },
        { key: 'iOS', value: 'https://example.com/ios' },
        { key: 'Windows', value: 'https://example.com/desktop' },
        { key: 'OS X', value: 'https://example.com/desktop' },
        { key: 'Linux', value: 'https://example.com/desktop' },
        { key: 'Chrome OS', value: 'https://example.com/desktop' },
      ],
    });
    const history = first.history as SourceClick[];
    expect([...history].sort((a, b) => a.at.getTime() - b.at.getTime())).toEqual([
      {
        at: new Date('2025-02-03T03:05:06Z'),
        referrer: 'twitter.com',
        country: 'US',
        city: 'New York',
        continent: 'NA',
        browser: 'Safari',
        operating_system: 'iOS',
        device: 'Mobile',
        language: null,
      },
      {
        at: new Date('2025-02-04T10:00:00Z'),
        referrer: null,
        country: null,
        city: null,
        continent: null,
        browser: 'Chrome',
        operating_system: 'Windows',
        device: 'Desktop',
        language: null,
      },
    ]);

    const sale = links.find((link) => link.sourceId === 'go.brand.test/sale')!;
    expect(sale.domain).toEqual({ name: 'go.brand.test' });
    expect(sale.fields).toEqual({
      url: 'https://example.com/sale',
      alias: 'sale',
      // Only an end: the period starts when the short URL was made.
      active_period_start_at: '2024-06-01T00:00:00.000Z',
      active_period_end_at: '2031-01-01T00:00:00.000Z',
      targets_type: 'devices',
      targets: [{ key: 'Desktop', value: 'https://example.com/sale-desktop' }],
    });

    const busy = links.find((link) => link.sourceId === 'busy')!;
    expect((busy.history as SourceClick[]).length).toBe(1100);
    expect(busy.clicks).toBe(1100);
    expect(busy.fields).toMatchObject({
      active_period_start_at: '2024-07-02T00:00:00.000Z',
      active_period_end_at: '9999-12-31T23:59:00.000Z',
    });
  });

  it('leaves out the visits Shlink took for bots, from the history and the counter', async () => {
    const { links } = await source().page(null);
    const first = links.find((link) => link.sourceId === 'first')!;

    expect((first.history as SourceClick[]).map((click) => click.browser).sort()).toEqual([
      'Chrome',
      'Safari',
    ]);
    expect(first.clicks).toBe(2);
  });

  it('says where Shlink did what this service does not', async () => {
    const { errors } = await source().page(null);

    expect(errors).toEqual([
      { item: 'go.brand.test/sale', message: expect.stringContaining('query parameters') },
    ]);
  });
});
