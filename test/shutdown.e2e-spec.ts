import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { childEnv, cliAccount, killAllChildren, startServer, type ServerProcess } from './support/process';
import { sleep } from './support/sleep';

/** A raw request whose body is sent in two parts, so that it is still in flight between them. */
function slowPost(server: ServerProcess, path: string, apiKey: string, body: string) {
  const bytes = Buffer.from(body);
  const request = httpRequest({
    host: '127.0.0.1',
    port: server.port,
    path,
    method: 'POST',
    headers: {
      Authorization: `Bearer ${apiKey}`,
      'Content-Type': 'application/json',
      'Content-Length': String(bytes.length),
    },
  });
  const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    request.on('error', reject);
  });
  const half = Math.floor(bytes.length / 2);
  request.write(bytes.subarray(0, half));
  return {
    answer,
    finish: () => request.end(bytes.subarray(half)),
  };
}

/** One request of the load below: whether it was written before the signal, and how it ended. */
interface Outcome {
  client: number;
  path: string;
  sentBeforeSignal: boolean;
  answeredAfterSignal: boolean;
  status?: number;
  body?: string;
  error?: string;
}

/** Whether the request got its whole answer: 200 and the body of its route. */
function answered(outcome: Outcome): boolean {
  if (outcome.status !== 200 || outcome.body === undefined) return false;
  try {
    const body = JSON.parse(outcome.body) as { status?: unknown; data?: unknown };
    return outcome.path === '/health'
      ? body.status === 'ok'
      : body.status === 200 && Array.isArray(body.data);
  } catch {
    return false;
  }
}

function describeError(error: Error): string {
  return `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${error.message}`;
}

/**
 * `clients` clients, each with a connection of its own, send GET /health and GET /api/v1/spaces in turn, one
 * after the other, until one fails or `stop()` is called. Most keep their connection alive; every fifth opens a new
 * one for each request, so that some connections are new when the signal lands.
 */
function hammer(server: ServerProcess, apiKey: string, clients: number) {
  const outcomes: Outcome[] = [];
  const state = { signalled: false, stopped: false };
  const agents: Agent[] = [];

  function send(agent: Agent, client: number, path: string): Promise<Outcome> {
    return new Promise((resolve) => {
      const outcome: Outcome = { client, path, sentBeforeSignal: false, answeredAfterSignal: false };
      const request = httpRequest({
        host: '127.0.0.1',
        port: server.port,
        path,
        agent,
        headers: path.startsWith('/api/') ? { Authorization: `Bearer ${apiKey}` } : {},
      });
      // 'finish': the whole request has been handed to the kernel. This runs on the same thread as the kill, so the
      // flag says whether that happened before the signal was sent.
      request.on('finish', () => (outcome.sentBeforeSignal = !state.signalled));
      request.setTimeout(20_000, () => request.destroy(new Error('no answer within 20 s')));
      request.on('response', (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          outcome.status = response.statusCode;
          outcome.body = Buffer.concat(chunks).toString();
          outcome.answeredAfterSignal = state.signalled;
          resolve(outcome);
        });
        response.on('error', (error: Error) => {
          outcome.error = describeError(error);
          resolve(outcome);
        });
      });
      request.on('error', (error: Error) => {
        outcome.error = describeError(error);
        resolve(outcome);
      });
      request.end();
    });
  }

  async function run(client: number): Promise<void> {
    const agent = new Agent({ keepAlive: client % 5 !== 4, maxSockets: 1 });
    agents.push(agent);
    for (let sent = 0; !state.stopped && sent < 10_000; sent += 1) {
      const outcome = await send(agent, client, sent % 2 === 0 ? '/health' : '/api/v1/spaces');
      outcomes.push(outcome);
      if (outcome.error !== undefined) return;
    }
  }

  const done = Promise.all(Array.from({ length: clients }, (_, client) => run(client))).then(() => {
    for (const agent of agents) agent.destroy();
  });
  return {
    outcomes,
    done,
    /** From now on, a request written counts as sent after the signal. */
    signal: () => (state.signalled = true),
    /** No new requests; `done` resolves once those under way have ended. */
    stop: () => (state.stopped = true),
  };
}

describe('shutdown', () => {
  afterAll(async () => {
    await killAllChildren();
  });

  it('on SIGTERM stops accepting, finishes the request in flight with Connection: close, and exits 0', async () => {
    const env = childEnv({ LOG_LEVEL: 'warn' });
    const { apiKey } = await cliAccount('Drain', env);

    const server = await startServer({ env });
    const inFlight = slowPost(
      server,
      '/api/v1/spaces',
      apiKey,
      JSON.stringify({ name: 'Still saved', color: 4 }),
    );
    await sleep(300);
    server.child.kill('SIGTERM');
    await sleep(500);

    // New connections are refused while the one in flight is still being served.
    await expect(fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    expect(server.running).toBe(true);

    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status).toBe(201);
    // Its connection closes after the answer, and the client is told so.
    expect(answer.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ data: { name: 'Still saved', color: 4 }, status: 200 });

    const exit = await server.waitExit(20_000);
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('on SIGTERM ends every open event stream at once, so that none holds the drain, and exits 0', async () => {
    const env = childEnv({ LOG_LEVEL: 'warn' });
    const { apiKey } = await cliAccount('Streaming', env);

    const server = await startServer({ env });
    const streams = await Promise.all(
      [1, 2].map(
        () =>
          new Promise<{ status: number; ended: Promise<string> }>((resolve, reject) => {
            const request = httpRequest({
              host: '127.0.0.1',
              port: server.port,
              path: '/api/v1/events/stream',
              headers: { Authorization: `Bearer ${apiKey}`, Accept: 'text/event-stream' },
            });
            request.on('response', (response: IncomingMessage) => {
              let text = '';
              response.on('data', (chunk: Buffer) => (text += chunk.toString()));
              const ended = new Promise<string>((done) => response.on('close', () => done(text)));
              resolve({ status: response.statusCode ?? 0, ended });
            });
            request.on('error', reject);
            request.end();
          }),
      ),
    );
    expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    for (const stream of streams) expect(await stream.ended).toMatch(/^retry: \d+\n\n/);
    const exit = await server.waitExit(10_000);
    expect(exit).toEqual({ code: 0, signal: null });
    // Far within the drain's timeout, which a stream left open would have held it to.
    expect(Date.now() - signalled).toBeLessThan(5_000);
  });

  it('a second SIGTERM a second or more after the first exits 1 at once; the same one relayed at once does not', async () => {
    const env = childEnv({ LOG_LEVEL: 'warn' });
    const { apiKey } = await cliAccount('Impatient', env);

    const server = await startServer({ env });
    const inFlight = slowPost(
      server,
      '/api/v1/spaces',
      apiKey,
      JSON.stringify({ name: 'Never sent', color: 1 }),
    );
    inFlight.answer.catch(() => undefined);
    await sleep(300);
    // As npm relays the signal that its process group also got: one request to stop.
    server.child.kill('SIGTERM');
    server.child.kill('SIGTERM');
    expect(await server.waitExit(1_500)).toBeNull();

    server.child.kill('SIGTERM');
    expect(await server.waitExit(5_000)).toEqual({ code: 1, signal: null });
  });

  it('on SIGTERM under load from 50 clients answers every request sent before the signal, and exits 0', async () => {
    const env = childEnv({ LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' });
    const { apiKey } = await cliAccount('Load', env);

    const server = await startServer({ env });
    const load = hammer(server, apiKey, 50);
    // Under way: every client answered a few times, so the server is saturated when the signal lands.
    const deadline = Date.now() + 20_000;
    while (load.outcomes.filter((outcome) => outcome.status === 200).length < 500 && Date.now() < deadline) {
      await sleep(20);
    }
    load.signal();
    server.child.kill('SIGTERM');

    const exit = await server.waitExit(30_000);
    load.stop();
    await load.done;

    const before = load.outcomes.filter((outcome) => outcome.sentBeforeSignal);
    const lost = before
      .filter((outcome) => !answered(outcome))
      .map(
        (outcome) =>
          `client ${outcome.client}, ${outcome.path}: ${outcome.error ?? `${outcome.status} ${outcome.body}`}`,
      );
    // Every request written before the signal got its whole answer, those still in progress at the signal too.
    expect({ exit, lost }).toEqual({ exit: { code: 0, signal: null }, lost: [] });
    expect(before.filter((outcome) => outcome.answeredAfterSignal).length).toBeGreaterThan(0);
  });
});
