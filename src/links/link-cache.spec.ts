import { loadConfig } from '../config/app-config';
import { EVERYTHING, type ChangeFeed } from '../database/change-feed';
import { LinkCache, linkChange } from './link-cache';
import type { StoredVisitLink, VisitLinkRepository } from './visit-link.repository';
import { RecentOutage } from '../database/recent-outage';

/** A feed told by hand whether it listens and was heard from lately, and what it announces. */
class FakeFeed {
  fresh = true;
  listening = true;
  private readonly handlers: ((change: string) => void)[] = [];

  subscribe(handler: (change: string) => void): void {
    this.handlers.push(handler);
  }

  announce(change: string): void {
    for (const handler of this.handlers) handler(change);
  }
}

function stored(alias: string, url = `https://example.com/${alias}`): StoredVisitLink {
  return {
    id: 1,
    alias,
    url,
    targetsType: null,
    targets: null,
    sensitiveContent: false,
    hasRedirectPassword: false,
    activePeriodStartAt: null,
    activePeriodEndAt: null,
    clicksLimit: null,
    expirationUrl: null,
    disabled: false,
    hasPixels: false,
    utm: '',
    iosUrl: null,
    androidUrl: null,
    preview: null,
  };
}

function cacheOf(env: Record<string, string> = {}) {
  const feed = new FakeFeed();
  const links = new Map<string, StoredVisitLink>([['abc', stored('abc')]]);
  const find = jest.fn((_domainId: number, alias: string) =>
    Promise.resolve(links.get(alias.toLowerCase()) ?? null),
  );
  const cache = new LinkCache(
    { find } as unknown as VisitLinkRepository,
    loadConfig(env),
    feed as unknown as ChangeFeed,
    new RecentOutage(),
  );
  return { cache, feed, find, links };
}

describe('LinkCache', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps an entry through a quiet spell while the feed is heard: no time limit, the feed keeps it correct', async () => {
    jest.useFakeTimers();
    const { cache, find } = cacheOf();
    await cache.get(1, 'abc');
    jest.setSystemTime(Date.now() + 70 * 60_000);
    expect(cache.peek(1, 'ABC')?.url).toBe('https://example.com/abc');
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('serves nothing from memory while the feed has not been heard from lately, and keeps what it holds', async () => {
    const { cache, feed } = cacheOf();
    await cache.get(1, 'abc');
    feed.fresh = false;
    expect(cache.peek(1, 'abc')).toBeUndefined();
    feed.fresh = true;
    expect(cache.peek(1, 'abc')?.alias).toBe('abc');
  });

  it('keeps nothing read while the feed does not listen', async () => {
    const { cache, feed, find } = cacheOf();
    feed.listening = false;
    feed.fresh = false;
    await cache.get(1, 'abc');
    feed.listening = true;
    feed.fresh = true;
    expect(cache.peek(1, 'abc')).toBeUndefined();
    await cache.get(1, 'abc');
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('drops an entry when its link changes, and everything when the extent of a change is unknown (the feed lost)', async () => {
    const { cache, feed, links } = cacheOf();
    links.set('def', stored('def'));
    await cache.get(1, 'abc');
    await cache.get(1, 'def');
    links.set('abc', stored('abc', 'https://example.com/moved'));
    feed.announce(linkChange(1, 'ABC'));
    expect(cache.peek(1, 'abc')).toBeUndefined();
    expect(cache.peek(1, 'def')?.alias).toBe('def');
    expect((await cache.get(1, 'abc'))?.url).toBe('https://example.com/moved');
    feed.announce(EVERYTHING);
    expect([cache.peek(1, 'abc'), cache.peek(1, 'def')]).toEqual([undefined, undefined]);
  });

  it('holds at most LINK_CACHE_SIZE entries, the oldest going first', async () => {
    const { cache, links } = cacheOf({ LINK_CACHE_SIZE: '2' });
    for (const alias of ['def', 'ghi']) links.set(alias, stored(alias));
    for (const alias of ['abc', 'def', 'ghi']) await cache.get(1, alias);
    expect(['abc', 'def', 'ghi'].map((alias) => cache.peek(1, alias)?.alias)).toEqual([
      undefined,
      'def',
      'ghi',
    ]);
  });

  it('answers from the last known entry while the database is away, the feed lost; never a link changed since', async () => {
    const { cache, feed, find, links } = cacheOf();
    links.set('def', stored('def'));
    await cache.get(1, 'abc');
    await cache.get(1, 'def');
    feed.announce(EVERYTHING);
    feed.fresh = false;
    feed.listening = false;
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    find.mockRejectedValue(refused);
    // Distrusted since the feed was lost: read again, and only when the read fails, the entry answers.
    expect(cache.peek(1, 'abc')).toBeUndefined();
    expect((await cache.get(1, 'ABC'))?.url).toBe('https://example.com/abc');
    // A link the feed said changed is forgotten, and one never read has nothing to fall back on.
    feed.announce(linkChange(1, 'def'));
    await expect(cache.get(1, 'def')).rejects.toBe(refused);
    await expect(cache.get(1, 'ghi')).rejects.toBe(refused);
    // Meanwhile the database is not asked again for what is known: each visit would wait for its own failure.
    const asked = find.mock.calls.length;
    expect((await cache.get(1, 'abc'))?.alias).toBe('abc');
    expect(find).toHaveBeenCalledTimes(asked);
  });

  it('never hides a failure that is not an outage (a bug of ours) behind an old entry', async () => {
    const { cache, feed, find } = cacheOf();
    await cache.get(1, 'abc');
    feed.announce(EVERYTHING);
    const bug = Object.assign(new Error('syntax error'), { code: '42601', severity: 'ERROR' });
    find.mockRejectedValue(bug);
    await expect(cache.get(1, 'abc')).rejects.toBe(bug);
  });

  it('keeps a link read while the feed does not listen as the last known alone, for an outage', async () => {
    const { cache, feed, find } = cacheOf();
    feed.listening = false;
    await cache.get(1, 'abc');
    feed.listening = true;
    expect(cache.peek(1, 'abc')).toBeUndefined();
    find.mockRejectedValue(Object.assign(new Error('Connection terminated unexpectedly')));
    expect((await cache.get(1, 'abc'))?.alias).toBe('abc');
  });

  it('reads a distrusted entry again once the feed is back, and trusts the new read', async () => {
    const { cache, feed, find, links } = cacheOf();
    await cache.get(1, 'abc');
    feed.announce(EVERYTHING);
    links.set('abc', stored('abc', 'https://example.com/moved'));
    expect(cache.peek(1, 'abc')).toBeUndefined();
    expect((await cache.get(1, 'abc'))?.url).toBe('https://example.com/moved');
    expect(cache.peek(1, 'abc')?.url).toBe('https://example.com/moved');
    expect(find).toHaveBeenCalledTimes(2);
  });
});
