import { Logger } from '@nestjs/common';
import { ChangeFeed, type ChangeFeedTiming } from '../src/database/change-feed';
import type { DatabaseConnection } from '../src/database/database.module';
import { memoryDatabase, type ScratchDatabase } from './support/scratch-database';
import { sleep } from './support/sleep';
import { TcpProxy } from './support/tcp-proxy';

/** Short, so that a loop of attempts would show within seconds. */
const TIMING: ChangeFeedTiming = {
  probeEveryMs: 50,
  probeDeadlineMs: 200,
  reconnectMs: 50,
  deafRetryMs: 60_000,
};

/** How long a loop of attempts is given to show itself: with the timing above, dozens of rounds. */
const WATCH_MS = 4_000;

/**
 * The change feed on a database that passes no notice from one connection to another (PGlite: one backend for
 * every connection), seen through a proxy that counts the connections it is asked for.
 */
describe('the change feed on a database that does not pass notices between connections', () => {
  let database: ScratchDatabase;
  let proxy: TcpProxy;
  let feed: ChangeFeed | undefined;
  let logged: jest.SpyInstance[];

  beforeAll(async () => {
    database = await memoryDatabase();
    proxy = await TcpProxy.forDatabase(database.url);
  });
  beforeEach(() => {
    logged = (['log', 'warn', 'error'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined),
    );
  });
  afterEach(async () => {
    await feed?.beforeApplicationShutdown();
    feed = undefined;
    for (const spy of logged) spy.mockRestore();
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  /** What the feed logged, one message a line. */
  function lines(): string[] {
    return logged.flatMap((spy) =>
      spy.mock.calls
        .filter(
          (_call, index) => (spy.mock.contexts[index] as { context?: string }).context === ChangeFeed.name,
        )
        .map((call) => String(call[0])),
    );
  }

  /** Starts a feed, waits for its first word, then watches it for {@link WATCH_MS}. */
  async function watch(connection: DatabaseConnection): Promise<{ lines: string[]; connections: number }> {
    const before = proxy.accepted;
    feed = new ChangeFeed(connection, TIMING);
    feed.onApplicationBootstrap();
    const deadline = Date.now() + 15_000;
    while (lines().length === 0 && Date.now() < deadline) await sleep(20);
    await sleep(WATCH_MS);
    expect(feed.listening).toBe(false);
    return { lines: lines(), connections: proxy.accepted - before };
  }

  it('says once, on the embedded database, that links are read for every visit, and never connects to listen', async () => {
    // The embedded database as a process of the service that did not open it sees it (the CLI beside a server).
    const embedded = { url: database.url, owner: false, share: () => undefined, close: database.drop };
    const url = proxy.urlFor(database.url);
    const seen = await watch({ url, sessionUrl: url, replicaUrls: [], embedded });
    expect(seen).toEqual({ lines: [expect.stringMatching(/read .*for every visit/)], connections: 0 });
  });

  it('says once, on a database given by its URL, that notices do not reach it, and asks again only much later', async () => {
    // It listens over the session URL (DATABASE_SESSION_URL): the pool's URL may be a pooler in transaction mode.
    const seen = await watch({
      url: 'postgres://nobody@127.0.0.1:1/unused',
      sessionUrl: proxy.urlFor(database.url),
      replicaUrls: [],
      embedded: null,
    });
    // The listening connection, and the one that sent it a notice.
    expect(seen).toEqual({ lines: [expect.stringMatching(/read .*for every visit/)], connections: 2 });
  });
});
