import { FakeKutt, type FakeKuttLink, type FakeKuttVisit } from '../../../test/support/fake-kutt';
import { connectForTests, itReadsLikeAnApiSource, readAllPages } from '../../../test/support/import-sources';
import { kuttSource } from './kutt.source';
import type { SourceRollups } from './source';

const API_KEY = 'kutt-key-1';
/** The moment the fake counts Kutt's windows back from: a March, so that month 0 is shorter than 30 days. */
const NOW = new Date('2026-03-15T12:30:00Z');

function visit(at: string, browser: string, os: string, country: string, referrer: string): FakeKuttVisit {
  return { at, browser, os, country, referrer };
}

/** One visit in each stretch Kutt's windows set apart, and one older than any. */
const VISITS: FakeKuttVisit[] = [
  visit('2026-03-15T11:10:00Z', 'chrome', 'windows', 'us', 'direct'),
  visit('2026-03-15T02:00:00Z', 'safari', 'ios', 'gb', 'twitter.com'),
  visit('2026-03-12T08:00:00Z', 'firefox', 'linux', 'us', 't.co'),
  visit('2026-03-05T20:00:00Z', 'chrome', 'macos', 'de', 'twitter.com'),
  // In the last 30 days, and yet a month back: February is short.
  visit('2026-02-14T10:00:00Z', 'other', 'other', 'unknown', 'direct'),
  visit('2026-01-20T10:00:00Z', 'edge', 'android', 'fr', 'news.ycombinator.com'),
  visit('2025-06-01T00:00:00Z', 'chrome', 'windows', 'us', 'direct'),
  visit('2024-12-01T00:00:00Z', 'ie', 'windows', 'us', 'direct'),
];

const LINKS: FakeKuttLink[] = [
  {
    id: '4f0e7c5e-0000-4000-8000-000000000001',
    address: 'launch',
    target: 'https://example.com/launch',
    created_at: '2024-11-01T00:00:00.000Z',
    description: 'The launch',
    visits: VISITS,
  },
  {
    id: '4f0e7c5e-0000-4000-8000-000000000002',
    address: 'secret',
    target: 'https://example.com/secret',
    created_at: '2025-01-01T00:00:00.000Z',
    domain: 'go.brand.test',
    password: true,
    // How Kutt on SQLite answers it: UTC without a zone.
    expire_in: '2026-12-31 23:59:00',
    banned: true,
  },
  ...Array.from({ length: 58 }, (_, index) => ({
    id: `4f0e7c5e-0000-4000-8000-${String(100 + index).padStart(12, '0')}`,
    address: `link-${index}`,
    target: `https://example.com/${index}`,
    created_at: '2025-02-01T00:00:00.000Z',
  })),
];

describe('kuttSource', () => {
  let fake: FakeKutt;

  beforeEach(async () => {
    fake = await FakeKutt.start({ apiKey: API_KEY, links: LINKS, now: NOW });
  });

  afterEach(() => fake.close());

  const source = (apiKey = API_KEY) => kuttSource({ url: fake.url, apiKey }, connectForTests);

  itReadsLikeAnApiSource({
    document: 'kutt',
    fake: () => fake,
    source,
    refusal: 401,
    firstRequest: 'api/v2/links',
    requests: 63,
    undocumented: { method: 'GET', path: '/api/v2/links', query: ['page'] },
  });

  it('opens with the number of links', async () => {
    await expect(source().open()).resolves.toEqual({ linksTotal: 60, spaces: [], domains: [], pixels: [] });
  });

  it('reads every link in two pages, with its fields, domain and password', async () => {
    const pages = await readAllPages(source());

    expect(pages.map((page) => page.links.length)).toEqual([50, 10]);
    expect(pages.map((page) => page.next)).toEqual([JSON.stringify({ skip: 50 }), null]);
    const links = pages.flatMap((page) => page.links);
    expect(new Set(links.map((link) => link.sourceId)).size).toBe(60);

    const launch = links.find((link) => link.fields.alias === 'launch')!;
    expect(launch).toMatchObject({
      sourceId: '4f0e7c5e-0000-4000-8000-000000000001',
      fields: { url: 'https://example.com/launch', alias: 'launch', title: 'The launch' },
      domain: null,
      tags: [],
      unreadableSecrets: [],
      createdAt: new Date('2024-11-01T00:00:00Z'),
      // Every visit Kutt counted, the one older than its windows too.
      clicks: 8,
    });

    const secret = links.find((link) => link.fields.alias === 'secret')!;
    expect(secret).toMatchObject({
      domain: { name: 'go.brand.test' },
      unreadableSecrets: ['redirect_password'],
    });
    expect(secret.fields).toEqual({
      url: 'https://example.com/secret',
      alias: 'secret',
      active_period_start_at: '2025-01-01T00:00:00.000Z',
      active_period_end_at: '2026-12-31T23:59:00.000Z',
    });
  });

  it('puts the clicks of each window where stats over the same stretch answer Kutt’s counts', async () => {
    const { links } = await source().page(null);
    const history = links.find((link) => link.fields.alias === 'launch')!.history as SourceRollups;

    expect(history.hours.map(({ hour, clicks }) => [hour.toISOString(), clicks])).toEqual([
      ['2025-05-31T00:00:00.000Z', 1],
      ['2026-01-31T00:00:00.000Z', 1],
      ['2026-02-14T00:00:00.000Z', 1],
      ['2026-03-06T00:00:00.000Z', 1],
      ['2026-03-12T00:00:00.000Z', 1],
      ['2026-03-15T02:00:00.000Z', 1],
      ['2026-03-15T11:00:00.000Z', 1],
    ]);
    const since = (at: number) =>
      history.hours.filter(({ hour }) => hour.getTime() > at).reduce((sum, { clicks }) => sum + clicks, 0);
    // lastDay, lastMonth and lastYear totals as Kutt answers them.
    expect(since(NOW.getTime() - 24 * 3_600_000)).toBe(2);
    expect(since(NOW.getTime() - 30 * 86_400_000)).toBe(5);
    expect(since(0)).toBe(7);
  });

  it('puts each window’s dimension totals, less the smaller window’s, on its newest day with clicks', async () => {
    const { links } = await source().page(null);
    const history = links.find((link) => link.fields.alias === 'launch')!.history as SourceRollups;

    const rows = history.days.map(
      ({ dimension, day, value, clicks }) => `${day} ${dimension} ${value} ${clicks}`,
    );
    expect(rows.sort()).toEqual(
      [
        // The last 24 hours.
        '2026-03-15 browser Chrome 1',
        '2026-03-15 browser Safari 1',
        '2026-03-15 operating_system Windows 1',
        '2026-03-15 operating_system iOS 1',
        '2026-03-15 country US 1',
        '2026-03-15 continent NA 1',
        '2026-03-15 country GB 1',
        '2026-03-15 continent EU 1',
        '2026-03-15 referrer twitter.com 1',
        // The rest of the week.
        '2026-03-12 browser Firefox 1',
        '2026-03-12 operating_system Linux 1',
        '2026-03-12 country US 1',
        '2026-03-12 continent NA 1',
        '2026-03-12 referrer t.co 1',
        // The rest of the 30 days (Kutt's `other`, `unknown` and `direct` are no value of ours).
        '2026-03-06 browser Chrome 1',
        '2026-03-06 operating_system OS X 1',
        '2026-03-06 country DE 1',
        '2026-03-06 continent EU 1',
        '2026-03-06 referrer twitter.com 1',
        // The rest of the year.
        '2026-01-31 browser Edge 1',
        '2026-01-31 browser Chrome 1',
        '2026-01-31 operating_system Android 1',
        '2026-01-31 operating_system Windows 1',
        '2026-01-31 country FR 1',
        '2026-01-31 country US 1',
        '2026-01-31 continent EU 1',
        '2026-01-31 continent NA 1',
        '2026-01-31 referrer news.ycombinator.com 1',
      ].sort(),
    );
  });

  it('says which links Kutt had banned', async () => {
    const { errors } = await source().page(null);

    expect(errors).toEqual([{ item: 'secret', message: expect.stringContaining('banned') }]);
  });
});
