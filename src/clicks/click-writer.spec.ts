import { ServiceUnavailableException } from '@nestjs/common';
import { loadConfig, type AppConfig } from '../config/app-config';
import type { ConnectionPool } from '../database/connection-pool';
import type { VisitorProfile } from '../targeting/visitor';
import { MetricsService } from '../metrics/metrics.service';
import type { EventInterest } from '../events/outbox/event-interest';
import { ClickWriter } from './click-writer';
import {
  BY_TURN,
  clickParameters,
  clickParametersInTurns,
  type ClickRepository,
  type PendingClick,
} from './click.repository';
import { RecentOutage } from '../database/recent-outage';

const VISITOR: VisitorProfile = {
  country: 'GB',
  city: 'London',
  continent: 'EU',
  os: 'Linux',
  browser: 'Firefox',
  device: 'Desktop',
  language: 'en',
  referrer: null,
  bot: false,
};

const PLAIN = { id: 7, clicksLimit: null, turns: [] };

class DatabaseError extends Error {
  constructor(readonly code: string) {
    super(`SQLSTATE ${code}`);
  }
}

/** A stand-in for the click statements, which writes batches as told: the ids it was given, and the clicks kept. */
class FakeRepository {
  answers: ('ok' | 'fail' | 'lost')[] = [];
  batchIds: string[] = [];
  written = new Set<string>();
  clicks = 0;
  /** How long each write takes, on the clock tests move by hand. */
  writeMs = 0;

  writeBatch(id: string, clicks: readonly PendingClick[]): Promise<number> {
    if (this.writeMs > 0) jest.setSystemTime(Date.now() + this.writeMs);
    this.batchIds.push(id);
    const answer = this.answers.shift() ?? 'ok';
    if (this.written.has(id)) return Promise.reject(new DatabaseError('23505'));
    if (answer === 'fail') return Promise.reject(new DatabaseError('08006'));
    this.written.add(id);
    this.clicks += clicks.length;
    // Written, but the answer never came back.
    if (answer === 'lost') return Promise.reject(new DatabaseError('08006'));
    return Promise.resolve(clicks.length);
  }

  pruneBatchIds(): Promise<void> {
    return Promise.resolve();
  }
}

function writer(database: FakeRepository, env: Record<string, string> = {}): ClickWriter {
  const config: AppConfig = loadConfig({ CLICK_BUFFER_MAX: '100', ...env });
  return new ClickWriter(
    database as unknown as ClickRepository,
    config,
    new MetricsService({} as ConnectionPool),
    // No one takes click events here: the statements' events are the outbox's tests'.
    { clicksWanted: () => Promise.resolve(false), streams: false } as unknown as EventInterest,
    new RecentOutage(),
  );
}

describe('ClickWriter', () => {
  it('writes buffered clicks in one batch', async () => {
    const database = new FakeRepository();
    const clicks = writer(database);
    for (let visit = 0; visit < 30; visit += 1) void clicks.count(PLAIN, VISITOR, null);
    expect(clicks.pending()).toBe(30);
    await clicks.flush();
    expect({ batches: database.batchIds.length, clicks: database.clicks, pending: clicks.pending() }).toEqual(
      {
        batches: 1,
        clicks: 30,
        pending: 0,
      },
    );
  });

  it('writes the full batches of a backlog at once, batch after batch; the rest waits for the timer', async () => {
    const database = new FakeRepository();
    const clicks = writer(database, { CLICK_BUFFER_MAX: '200000', CLICK_FLUSH_MS: '1000' });
    clicks.onModuleInit();
    try {
      for (let visit = 0; visit < 120_000; visit += 1) void clicks.count(PLAIN, VISITOR, null);
      await clicks.flush();
      for (let turn = 0; turn < 100; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect({
        batches: database.batchIds.length,
        clicks: database.clicks,
        pending: clicks.pending(),
      }).toEqual({
        batches: 2,
        clicks: 100_000,
        pending: 20_000,
      });
    } finally {
      await clicks.beforeApplicationShutdown();
    }
  });

  it('does not go on at once after a failed round: the next try waits for the timer', async () => {
    const database = new FakeRepository();
    database.answers = ['fail'];
    const clicks = writer(database, { CLICK_BUFFER_MAX: '100000', CLICK_FLUSH_MS: '1000' });
    for (let visit = 0; visit < 12_000; visit += 1) void clicks.count(PLAIN, VISITOR, null);
    await clicks.flush();
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect({ batches: database.batchIds.length, clicks: database.clicks }).toEqual({ batches: 1, clicks: 0 });
    await clicks.settle();
    expect(database.clicks).toBe(12_000);
  });

  it('retries a failed batch with the same id, and takes a refusal of that id as written', async () => {
    const database = new FakeRepository();
    database.answers = ['fail', 'lost'];
    const clicks = writer(database);
    for (let visit = 0; visit < 5; visit += 1) void clicks.count(PLAIN, VISITOR, null);
    await clicks.flush(); // refused
    await clicks.flush(); // written, answer lost
    await clicks.flush(); // the id is known: done, not written twice
    expect(new Set(database.batchIds).size).toBe(1);
    expect(database.batchIds).toHaveLength(3);
    expect(database.clicks).toBe(5);
    expect(clicks.pending()).toBe(0);
  });

  it('keeps at most CLICK_BUFFER_MAX clicks while the database does not answer, then refuses with 503', async () => {
    const database = new FakeRepository();
    database.answers = Array<'fail'>(10).fill('fail');
    const clicks = writer(database);
    for (let visit = 0; visit < 100; visit += 1) void clicks.count(PLAIN, VISITOR, null);
    await clicks.flush();
    expect(() => clicks.count(PLAIN, VISITOR, null)).toThrow(ServiceUnavailableException);
    expect(clicks.pending()).toBe(100);
    database.answers = [];
    await clicks.settle();
    expect(database.clicks).toBe(100);
    expect(() => clicks.count(PLAIN, VISITOR, null)).not.toThrow();
  });

  it('answers a visit only once its click is committed with CLICK_DURABILITY=strict, and 503 if it is not', async () => {
    const database = new FakeRepository();
    const clicks = writer(database, { CLICK_DURABILITY: 'strict' });
    const visits = Array.from({ length: 10 }, () => Promise.resolve(clicks.count(PLAIN, VISITOR, null)));
    expect(database.clicks).toBe(0);
    await expect(Promise.all(visits)).resolves.toHaveLength(10);
    expect(database.clicks).toBe(10);

    database.answers = ['fail'];
    await expect(clicks.count(PLAIN, VISITOR, null)).rejects.toBeInstanceOf(ServiceUnavailableException);
  });

  it('writes everything it holds on shutdown, and refuses clicks after', async () => {
    const database = new FakeRepository();
    database.answers = ['fail'];
    const clicks = writer(database);
    clicks.onModuleInit();
    for (let visit = 0; visit < 12; visit += 1) void clicks.count(PLAIN, VISITOR, null);
    await clicks.beforeApplicationShutdown();
    expect(database.clicks).toBe(12);
    expect(() => clicks.count(PLAIN, VISITOR, null)).toThrow(ServiceUnavailableException);
  });
});

describe('ClickWriter under load', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 10, 26) }));
  afterEach(() => jest.useRealTimers());

  it.each([
    ['three times as long as a write of 100 ms took', 100, 300],
    ['a second at most after a write of 5 s', 5000, 1000],
  ])('waits %s before the next write', async (_case, writeMs, gapMs) => {
    const database = new FakeRepository();
    database.writeMs = writeMs;
    const clicks = writer(database, { CLICK_BUFFER_MAX: '100000', CLICK_FLUSH_MS: '10' });
    clicks.onModuleInit();
    try {
      void clicks.count(PLAIN, VISITOR, null);
      await jest.advanceTimersByTimeAsync(10);
      expect(database.batchIds).toHaveLength(1);
      void clicks.count(PLAIN, VISITOR, null);
      // The timer ticks every 10 ms from the write's end on.
      await jest.advanceTimersByTimeAsync(gapMs - 20);
      expect(database.batchIds).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(30);
      expect(database.batchIds).toHaveLength(2);
    } finally {
      database.writeMs = 0;
      await clicks.beforeApplicationShutdown();
    }
  });
});

describe('clickParameters', () => {
  const other: VisitorProfile = { ...VISITOR, country: 'FR', city: null, referrer: 'a.example' };
  const ids = new Map([
    [VISITOR, 11],
    [other, 12],
  ]);
  const targets = new Map([['https://b.example/', 5]]);
  const codes = {
    profile: (visitor: VisitorProfile) => ids.get(visitor)!,
    target: (url: string) => targets.get(url)!,
  };

  it('names each click by its link, its profile, its time after the first and its target', () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 250);
    const parameters = clickParameters(
      [
        { linkId: 7, at, visitor: VISITOR, target: null },
        { linkId: 9, at: at + 40, visitor: other, target: 'https://b.example/' },
        { linkId: 7, at: at + 41, visitor: VISITOR, target: BY_TURN },
        { linkId: 3, at: at + 99, visitor: other, target: null },
      ],
      codes,
    );
    expect(parameters).toEqual([
      '{7,9,7,3}',
      '{11,12,11,12}',
      '{0,40,41,99}',
      '2026-11-25T12:00:00.250Z',
      // The link's own url is 0, a turn's destination -1 (the claim knows it).
      '{0,5,-1,0}',
    ]);
  });

  it('keeps the order of arrival, times that went back included', () => {
    const at = Date.UTC(2026, 0, 1);
    const [links, profiles, offsets] = clickParameters(
      [
        { linkId: 1, at, visitor: VISITOR, target: null },
        { linkId: 2, at: at - 5, visitor: VISITOR, target: null },
      ],
      codes,
    );
    expect([links, profiles, offsets]).toEqual(['{1,2}', '{11,11}', '{0,-5}']);
  });

  it('encodes a large batch a slice per turn, as one encoding at once would', async () => {
    const at = Date.UTC(2026, 0, 1);
    const clicks = Array.from({ length: 12_345 }, (_, index) => ({
      linkId: 1 + (index % 17),
      at: at + index * 3,
      visitor: index % 2 === 0 ? VISITOR : other,
      target: index % 3 === 0 ? 'https://b.example/' : null,
    }));
    await expect(clickParametersInTurns(clicks, codes)).resolves.toEqual(clickParameters(clicks, codes));
  });
});
