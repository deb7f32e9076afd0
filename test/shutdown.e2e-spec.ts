import { request as httpRequest, type IncomingMessage } from 'node:http';
import {
  childEnv,
  killAllChildren,
  lastLine,
  runCli,
  startServer,
  type ServerProcess,
} from './support/process';

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
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('shutdown', () => {
  afterAll(async () => {
    await killAllChildren();
  });

  it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
    const env = childEnv({ LOG_LEVEL: 'warn' });
    const created = await runCli(['account:create', '--name', 'Drain'], { env });
    expect(created.code).toBe(0);
    const { api_key: apiKey } = JSON.parse(lastLine(created.stdout)) as { api_key: string };

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
    expect(JSON.parse(answer.body)).toMatchObject({ data: { name: 'Still saved', color: 4 }, status: 200 });

    const exit = await server.waitExit(20_000);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});
