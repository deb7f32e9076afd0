import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from '../../../test/support/http-server';
import { TEST_SOURCE_HTTP as OPTIONS } from '../../../test/support/import-sources';
import { SourceError } from './source';
import { SourceHttp } from './source-http';

const CREDENTIALS = { 'x-api-key': 'the-key', authorization: 'Bearer the-token' };

describe('SourceHttp', () => {
  const servers: Server[] = [];

  /** A loopback server answering with `listener`, and the headers of every request it received. */
  async function serve(listener: RequestListener): Promise<{ url: URL; seen: IncomingHttpHeaders[] }> {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      listener(request, response);
    });
    servers.push(server);
    return { url: new URL(`http://127.0.0.1:${await listenOnLoopback(server)}`), seen };
  }

  afterEach(async () => {
    await Promise.all(servers.splice(0).map(closeServer));
  });

  it('refuses a loopback source unless private addresses are allowed', async () => {
    const { url, seen } = await serve((_, response) => response.end('{}'));

    const refused = new SourceHttp(url, CREDENTIALS, { ...OPTIONS, allowPrivateAddresses: false }).json(
      'api',
    );

    await expect(refused).rejects.toBeInstanceOf(SourceError);
    await expect(refused).rejects.toThrow('on an address imports may not reach');
    expect(seen).toHaveLength(0);
  });

  it('fails an answer larger than the most it reads', async () => {
    const { url } = await serve((_, response) =>
      response.end(JSON.stringify({ padding: 'x'.repeat(200_000) })),
    );

    const read = new SourceHttp(url, CREDENTIALS, { ...OPTIONS, maxResponseBytes: 1024 }).get('api');

    await expect(read).rejects.toThrow(new SourceError("the source's answer is larger than 1024 bytes"));
  });

  // Known bug in SourceHttp.request: an answer read whole in one go ends before the destroy's error is emitted, so
  // `get` resolves with a 200 and an empty body. Drop `.failing` once the 'end' handler refuses an oversized answer.

  it('fails an answer larger than the most it reads when it comes in one read', async () => {
    const { url } = await serve((_, response) => response.end('x'.repeat(4096)));

    const read = new SourceHttp(url, CREDENTIALS, { ...OPTIONS, maxResponseBytes: 1024 }).get('api');

    await expect(read).rejects.toThrow(new SourceError("the source's answer is larger than 1024 bytes"));
  });

  it('fails a redirect loop after three hops', async () => {
    const { url, seen } = await serve((_, response) => {
      response.writeHead(302, { location: '/again' });
      response.end();
    });

    const read = new SourceHttp(url, CREDENTIALS, OPTIONS).json('api');

    await expect(read).rejects.toThrow(new SourceError('the source redirected more than 3 times'));
    expect(seen).toHaveLength(4);
  });

  it('fails a source that never answers once its time is out, retries included', async () => {
    const { url, seen } = await serve(() => undefined);
    const started = Date.now();

    const read = new SourceHttp(url, CREDENTIALS, { ...OPTIONS, timeoutMs: 300 }).json('api');

    await expect(read).rejects.toThrow(new SourceError('the source did not answer within 300 ms'));
    // One request's time is the whole budget: no try after it waits another 300 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(900);
    expect(seen).toHaveLength(1);
  });

  it('tries again a source that dropped the connection, while the time lasts', async () => {
    let answered = 0;
    const { url, seen } = await serve((_, response) => {
      answered += 1;
      if (answered === 1) {
        response.socket?.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });

    const read = new SourceHttp(url, CREDENTIALS, { ...OPTIONS, timeoutMs: 5000 }).json('api');

    await expect(read).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(2);
  });

  it('sends the credentials to the source’s own origin only, never where it redirects elsewhere', async () => {
    const elsewhere = await serve((_, response) => response.end('{"ok": true}'));
    const source = await serve((_, response) => {
      response.writeHead(302, { location: new URL('/landing', elsewhere.url).href });
      response.end();
    });

    await expect(new SourceHttp(source.url, CREDENTIALS, OPTIONS).json('api')).resolves.toEqual({ ok: true });

    expect(source.seen[0]).toMatchObject(CREDENTIALS);
    expect(elsewhere.seen).toHaveLength(1);
    expect(elsewhere.seen[0]['x-api-key']).toBeUndefined();
    expect(elsewhere.seen[0].authorization).toBeUndefined();
  });
});
