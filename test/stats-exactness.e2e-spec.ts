import { BY_TURN, ClickWriter, type CountedLink } from '../src/clicks/click-writer';
import { ClickStore } from '../src/clicks/click-store.repository';
import { ClickRepository, type PendingClick } from '../src/clicks/click.repository';
import { STATS_DIMENSIONS, type StatsDimension } from '../src/stats/dto/stats-query.dto';
import { COUNTRY_NAMES } from '../src/targeting/allowed-values';
import type { VisitorProfile } from '../src/targeting/visitor';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { workspaceRollups } from './support/clicks';
import { createLink, showLink } from './support/visitors';

/** A fixed sequence of pseudo-random numbers in [0, 1), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261126;

/** Visitors of every kind the stats tell apart: unknown values, cities of two countries with the same name. */
const VISITORS: VisitorProfile[] = [
  {
    country: 'GB',
    city: 'London',
    continent: 'EU',
    os: 'iOS',
    browser: 'Safari',
    device: 'Mobile',
    language: 'en',
    referrer: 'news.example.org',
    bot: false,
  },
  {
    country: 'CA',
    city: 'London',
    continent: 'NA',
    os: 'Windows',
    browser: 'Chrome',
    device: 'Desktop',
    language: 'en',
    referrer: null,
    bot: false,
  },
  {
    country: 'DE',
    city: null,
    continent: 'EU',
    os: 'Linux',
    browser: 'Firefox',
    device: 'Desktop',
    language: 'de',
    referrer: 'search.example',
    bot: false,
  },
  {
    country: null,
    city: null,
    continent: null,
    os: null,
    browser: null,
    device: 'Desktop',
    language: null,
    referrer: null,
    bot: false,
  },
  {
    country: 'FR',
    city: 'Paris',
    continent: 'EU',
    os: 'Android',
    browser: 'Chrome',
    device: 'Tablet',
    language: 'fr',
    referrer: 'news.example.org',
    bot: false,
  },
  {
    country: 'JP',
    city: 'Tokyo',
    continent: 'AS',
    os: 'OS X',
    browser: 'Safari',
    device: 'Desktop',
    language: 'ja',
    referrer: 'x.example',
    bot: false,
  },
];

const DIMENSIONS = STATS_DIMENSIONS;
type Dimension = StatsDimension;

/** A raw click as the `clicks` view decodes it. */
type RawClick = Record<Dimension, string | null>;

/** The value of a raw click as the stats API writes it (see StatsService). */
function shown(dimension: Dimension, click: RawClick): string | null {
  const value = click[dimension];
  if (value === null) return null;
  if (dimension === 'country') return `${value}:${COUNTRY_NAMES[value] ?? value}`;
  if (dimension === 'city') return `${click.country ?? ''}:${value}`;
  if (dimension === 'device') return value.toLowerCase();
  return value;
}

/** The error a connection gives when it is lost. */
class LostAnswer extends Error {
  readonly code = '08006';
}

/**
 * Stats answered from rollups must equal what a count of the raw clicks gives, whatever wrote the clicks: batches
 * of two instances, batches retried after a lost answer, claims of a limited and of a rotating link, links made by
 * import, and links deleted while their clicks were buffered. And a rebuild from the raw clicks changes nothing.
 */
describe('stats exactness', () => {
  let first: TestApp;
  let second: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp();
    account = await createAccount(first);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  async function imported(count: number): Promise<number[]> {
    const csv = ['url', ...Array.from({ length: count }, (_, n) => `https://example.com/imported/${n}`)].join(
      '\n',
    );
    const response = await first
      .http()
      .post('/api/v1/links/import')
      .set('Authorization', account.auth)
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }[]).map((link) => link.id);
  }

  async function rawClicks(linkId: number): Promise<RawClick[]> {
    return first.dataSource.query(`SELECT ${DIMENSIONS.join(', ')} FROM clicks WHERE link_id = $1`, [linkId]);
  }

  async function stats(linkId: number, name: string): Promise<Map<string | null, number>> {
    const counts = new Map<string | null, number>();
    for (let page = 1; ; page += 1) {
      const response = await first
        .http()
        .get(`/api/v1/stats/${linkId}?name=${name}&per_page=100&page=${page}`)
        .set('Authorization', account.auth);
      expect(response.status).toBe(200);
      const rows = response.body.data as { value: string | null; count: number }[];
      for (const row of rows) counts.set(row.value, row.count);
      if (name === 'click' || response.body.links.next === null) return counts;
    }
  }

  async function rollups(linkId: number): Promise<unknown[]> {
    return first.dataSource.query(
      `SELECT 'hour' AS kind, 0 AS dimension, hour::text AS at, 0 AS value, clicks FROM click_hours WHERE link_id = $1
       UNION ALL
       SELECT 'day', dimension, day::text, value, clicks FROM click_days WHERE link_id = $1
       ORDER BY 1, 2, 3, 4`,
      [linkId],
    );
  }

  it('counts every click once in every report, as the raw clicks do', async () => {
    const next = random(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    // Links in two spaces and in none, whose spaces' rollups are kept by the same statements.
    const spaces: Record<string, unknown>[] = [{}];
    for (const name of ['Exact A', 'Exact B']) {
      const response = await apiClient(() => first).json(account, 'post', '/api/v1/spaces', { name });
      expect(response.status).toBe(201);
      spaces.push({ space_id: (response.body.data as { id: number }).id });
    }
    const plain: number[] = [];
    for (let n = 0; n < 5; n += 1) {
      plain.push(
        (await createLink(first, account, { url: `https://example.com/${n}`, ...spaces[n % 3] })).id,
      );
    }
    plain.push(...(await imported(3)));
    const limited = await createLink(first, account, {
      url: 'https://example.com/limited',
      clicks_limit: 40,
      ...spaces[1],
    });
    const rotating = await createLink(first, account, {
      url: 'https://example.com/rotating',
      targets_type: 'rotations',
      targets: [{ value: 'https://example.com/r/1', weight: 2 }, { value: 'https://example.com/r/2' }],
      ...spaces[2],
    });
    // Its turns, as the visits read them: the first destination twice a round, the second once.
    const turns = ['https://example.com/r/1', 'https://example.com/r/2', 'https://example.com/r/1'];
    const told = new Map<string, number>();

    // The second instance loses the answer of about one batch in three after it was committed: it tries again.
    const repository = second.app.get(ClickRepository);
    const write = repository.writeBatch.bind(repository);
    let lost = 0;
    jest
      .spyOn(repository, 'writeBatch')
      .mockImplementation(async (id: string, clicks: readonly PendingClick[]) => {
        const written = await write(id, clicks);
        if (next() < 0.3) {
          lost += 1;
          throw new LostAnswer('connection lost');
        }
        return written;
      });

    const writers = [first.app.get(ClickWriter), second.app.get(ClickWriter)];
    const links: CountedLink[] = plain.map((id) => ({ id, clicksLimit: null, turns: [] }));
    // Where a plain link's click went: its own url, or one of two targets (as a country's or an app link would).
    const elsewhere = [null, null, 'https://example.com/t/a', 'https://example.org/t/b'];
    const claims: Promise<unknown>[] = [];
    let granted = 0;
    const deleted: number[] = [];
    for (let step = 0; step < 1500; step += 1) {
      const roll = next();
      const writer = pick(writers);
      // A fresh copy now and then: the same visitor as another object, as a new request makes it.
      const visitor = next() < 0.2 ? { ...pick(VISITORS) } : pick(VISITORS);
      if (roll < 0.1) {
        claims.push(
          Promise.resolve(writer.count({ id: limited.id, clicksLimit: 40, turns: [] }, visitor, null)).then(
            (click) => {
              if (click !== null) granted += 1;
            },
          ),
        );
      } else if (roll < 0.18) {
        claims.push(
          Promise.resolve(writer.count({ id: rotating.id, clicksLimit: null, turns }, visitor, BY_TURN)).then(
            (click) => {
              const target = turns[click!.rotation!];
              told.set(target, (told.get(target) ?? 0) + 1);
            },
          ),
        );
      } else if (roll < 0.95) {
        void writer.count(pick(links), visitor, pick(elsewhere));
      } else if (roll < 0.99) {
        await writer.settle();
      } else if (links.length > 4) {
        // Deleted with clicks still buffered on either instance.
        const [gone] = links.splice(Math.floor(next() * links.length), 1);
        const response = await first
          .http()
          .delete(`/api/v1/links/${gone.id}`)
          .set('Authorization', account.auth);
        expect(response.status).toBe(200);
        deleted.push(gone.id);
      }
      if (step % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(claims);
    for (const writer of writers) await writer.settle();
    expect(lost).toBeGreaterThan(0);
    expect(deleted.length).toBeGreaterThan(0);

    for (const id of deleted) {
      expect(await rawClicks(id)).toEqual([]);
      expect(await rollups(id)).toEqual([]);
    }
    const raws = new Map<number, RawClick[]>();
    for (const link of [...links.map((counted) => counted.id), limited.id, rotating.id]) {
      const raw = await rawClicks(link);
      raws.set(link, raw);
      expect(raw.length).toBeGreaterThan(0);
      expect((await showLink(first, account, link)).clicks).toBe(raw.length);
      const overTime = await stats(link, 'click');
      expect([...overTime.values()].reduce((sum, count) => sum + count, 0)).toBe(raw.length);
      for (const dimension of DIMENSIONS) {
        const expected = new Map<string | null, number>();
        for (const click of raw) {
          const value = shown(dimension, click);
          // Cities are listed where known only.
          if (dimension === 'city' && value === null) continue;
          expected.set(value, (expected.get(value) ?? 0) + 1);
        }
        expect([dimension, new Map([...(await stats(link, dimension))].sort())]).toEqual([
          dimension,
          new Map([...expected].sort()),
        ]);
      }
    }
    expect(raws.get(limited.id)).toHaveLength(granted);
    // Each click of the rotation is counted under the destination its visit was sent to.
    expect(new Map([...(await stats(rotating.id, 'target'))].sort())).toEqual(new Map([...told].sort()));
    expect(told.size).toBe(2);
    expect(granted).toBeLessThanOrEqual(40);
    // The workspace's own rollups and its spaces' are its links' sums: deleted links' taken out, no batch counted
    // twice.
    const workspace = await workspaceRollups(first.dataSource, account.id);
    expect(workspace.stored).toEqual(workspace.summed);

    // Counted again from the raw clicks, the rollups are the same rows.
    const store = first.app.get(ClickStore);
    for (const link of raws.keys()) {
      const before = await rollups(link);
      await expect(store.rebuild(link)).resolves.toEqual({ links: 1, clicks: raws.get(link)!.length });
      expect(await rollups(link)).toEqual(before);
    }
    expect((await workspaceRollups(first.dataSource, account.id)).stored).toEqual(workspace.stored);
  });
});
