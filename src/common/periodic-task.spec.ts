import { PeriodicTask, type PeriodicTaskOptions } from './periodic-task';

/** A task whose rounds end when the test says: each round's promise waits for `finish()`. */
class Rounds extends PeriodicTask {
  started = 0;
  private ends: ((error?: Error) => void)[] = [];

  constructor(options: Partial<PeriodicTaskOptions> = {}) {
    super({ everyMs: 1000, failure: 'Round failed', ...options });
  }

  protected round(): Promise<void> {
    this.started += 1;
    return new Promise((resolve, reject) => this.ends.push((error) => (error ? reject(error) : resolve())));
  }

  /** Ends the round under way, with `error` if given, and lets its promise's handlers run. */
  async finish(error?: Error): Promise<void> {
    this.ends.shift()?.(error);
    await flush();
  }

  ask(): Promise<void> {
    return this.runRound();
  }

  warn = jest.spyOn(this.logger, 'warn').mockImplementation(() => undefined);
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs a round at start, then one every interval', async () => {
    const task = new Rounds();

    await task.onApplicationBootstrap();
    expect(task.started).toBe(1);
    await task.finish();

    jest.advanceTimersByTime(1000);
    expect(task.started).toBe(2);
    await task.finish();
    jest.advanceTimersByTime(1000);
    expect(task.started).toBe(3);
    await task.finish();
    await task.beforeApplicationShutdown();
  });

  it('runs one round at a time, and what is asked for meanwhile once after it', async () => {
    const task = new Rounds();
    await task.onApplicationBootstrap();

    const asked = [task.ask(), task.ask(), task.ask()];
    jest.advanceTimersByTime(1000);
    expect(task.started).toBe(1);
    await task.finish();
    expect(task.started).toBe(2);

    let ended = false;
    void Promise.all(asked).then(() => (ended = true));
    await flush();
    expect(ended).toBe(false);
    await task.finish();
    expect(ended).toBe(true);
    expect(task.started).toBe(2);
    await task.beforeApplicationShutdown();
  });

  it('logs a failed round and runs the next', async () => {
    const task = new Rounds();
    await task.onApplicationBootstrap();

    await task.finish(new Error('the database is away'));

    expect(task.warn).toHaveBeenCalledWith('Round failed: the database is away');
    jest.advanceTimersByTime(1000);
    expect(task.started).toBe(2);
    await task.finish();
    await task.beforeApplicationShutdown();
  });

  it('waits for the round under way at shutdown, and runs none after', async () => {
    const task = new Rounds();
    await task.onApplicationBootstrap();
    void task.ask();

    let stopped = false;
    const stopping = task.beforeApplicationShutdown().then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false);
    await task.finish();
    await stopping;

    expect(stopped).toBe(true);
    jest.advanceTimersByTime(5000);
    await task.ask();
    expect(task.started).toBe(1);
  });

  it('starts the application after the first round when told to', async () => {
    const task = new Rounds({ awaitFirstRound: true });
    let started = false;

    const bootstrap = task.onApplicationBootstrap().then(() => (started = true));
    await flush();
    expect(started).toBe(false);
    await task.finish();
    await bootstrap;

    expect(started).toBe(true);
    await task.beforeApplicationShutdown();
  });
});
