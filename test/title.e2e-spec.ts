import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encode } from 'iconv-lite';
import { isPublicAddress } from '../src/common/outbound-address';
import {
  DEFAULT_TITLE_FETCH_OPTIONS,
  TITLE_FETCH_OPTIONS,
  TitleFetcher,
  type TitleFetchOptions,
} from '../src/links/title-fetcher';
import {
  createAccount,
  createTestApp,
  OFFLINE_TITLE_FETCH,
  type TestAccount,
  type TestApp,
} from './support/app';
import { sleep } from './support/sleep';

const LINKS = '/api/v1/links';
const HELLO_PAGE = '<html><head><title>Hello &amp; welcome</title></head><body>Hi</body></html>';
const HELLO_TITLE = 'Hello & welcome';
/** How long a test waits for a title that should come. */
const TITLE_WAIT_MS = 5000;

/** A local HTTP server with a request log, answering through a handler a test can change. */
interface PageServer {
  server: Server;
  port: number;
  /** Paths requested, in order. */
  requests: string[];
  /** Connections the server saw close, from either side. */
  closedConnections: number;
}

async function startServer(
  host: string,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<PageServer> {
  const page: PageServer = { server: createServer(), port: 0, requests: [], closedConnections: 0 };
  page.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    page.requests.push(request.url ?? '');
    handle(request, response);
  });
  page.server.on('connection', (socket) => socket.on('close', () => (page.closedConnections += 1)));
  await new Promise<void>((resolve) => page.server.listen(0, host, resolve));
  page.port = (page.server.address() as AddressInfo).port;
  return page;
}

async function stopServer(page: PageServer | undefined): Promise<void> {
  if (page === undefined) return;
  page.server.closeAllConnections();
  await new Promise<void>((resolve, reject) =>
    page.server.close((error) => (error === undefined ? resolve() : reject(error))),
  );
}

function sendHtml(response: ServerResponse, body: string, type = 'text/html; charset=utf-8'): void {
  response.writeHead(200, { 'content-type': type });
  response.end(body);
}

describe('Link titles fetched in the background', () => {
  let t: TestApp;
  /** The options the app's TitleFetcher holds: each test sets the policy it needs in place. */
  const options: TitleFetchOptions = { ...OFFLINE_TITLE_FETCH };
  /** Pages on 127.0.0.1. */
  let pages: PageServer;
  /** A second host, 127.0.0.2, that redirects. */
  let redirector: PageServer;
  /** Responses to `/gated` wait here until the test lets them go. */
  let gated: (() => void)[] = [];

  beforeAll(async () => {
    pages = await startServer('127.0.0.1', (request, response) => {
      switch (request.url ?? '') {
        case '/hello':
          sendHtml(response, HELLO_PAGE);
          return;
        case '/gated':
          gated.push(() => sendHtml(response, HELLO_PAGE));
          return;
        case '/silent':
          return; // never answers
        case '/text':
          sendHtml(response, HELLO_PAGE, 'text/plain; charset=utf-8');
          return;
        case '/json':
          sendHtml(response, JSON.stringify({ title: '<title>Json</title>' }), 'application/json');
          return;
        case '/huge-title-late':
          // The title begins just past the default 512 KiB cap, sent in one write.
          sendHtml(
            response,
            `<html><head><!--${'x'.repeat(512 * 1024)}--><title>Too far</title></head></html>`,
          );
          return;
        case '/huge-title-early':
          sendHtml(
            response,
            `<html><head><title>Early</title><!--${'x'.repeat(1024 * 1024)}--></head></html>`,
          );
          return;
        case '/latin1':
          response.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
          response.end(
            encode('<title>Caf\u00e9 cr\u00e8me &ndash; \u201cLatin\u201d</title>', 'windows-1252'),
          );
          return;
        case '/shift-jis':
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end(
            encode('<meta charset="shift_jis"><title>日本語のページ &eacute;</title>', 'shift_jis'),
          );
          return;
        case '/long-title':
          sendHtml(response, `<title>${'&lt;'.repeat(100)}${'t'.repeat(300)}</title>`);
          return;
        case '/not-found':
          response.writeHead(404, { 'content-type': 'text/html' });
          response.end('<title>Not found</title>');
          return;
        default:
          response.writeHead(500);
          response.end();
      }
    });
    redirector = await startServer('127.0.0.2', (request, response) => {
      const locations: Record<string, string> = {
        '/to-loopback-ip': `http://127.0.0.1:${pages.port}/hello`,
        '/to-loopback-name': `http://loopback.test:${pages.port}/hello`,
        '/to-self': `http://redirector.test:${redirector.port}/page`,
      };
      const location = locations[request.url ?? ''];
      if (location !== undefined) {
        response.writeHead(302, { location });
        response.end();
      } else sendHtml(response, '<title>Redirector page</title>');
    });
    t = await createTestApp(
      {},
      { override: (builder) => builder.overrideProvider(TITLE_FETCH_OPTIONS).useValue(options) },
    );
  });

  afterAll(async () => {
    for (const release of gated) release();
    await t?.close();
    await stopServer(pages);
    await stopServer(redirector);
  });

  beforeEach(() => {
    Object.assign(options, OFFLINE_TITLE_FETCH);
    pages.requests.length = 0;
    redirector.requests.length = 0;
    gated = [];
  });

  /** Every name is 127.0.0.1, and the fetcher may connect to any address. */
  function allowLoopback(overrides: Partial<TitleFetchOptions> = {}): void {
    Object.assign(options, DEFAULT_TITLE_FETCH_OPTIONS, {
      resolve: () => Promise.resolve(['127.0.0.1']),
      allowAddress: () => true,
      ...overrides,
    });
  }

  /** The production policy (public addresses only); only name resolution is stubbed. */
  function defaultPolicy(resolve: (host: string) => Promise<string[]>): void {
    Object.assign(options, DEFAULT_TITLE_FETCH_OPTIONS, { resolve });
  }

  /** Waits for the fetches under way (each bounded by its timeout), as shutdown does. */
  async function fetchesDone(): Promise<void> {
    await t.app.get(TitleFetcher).beforeApplicationShutdown();
  }

  function url(path: string, host = 'pages.test'): string {
    return `http://${host}:${pages.port}${path}`;
  }

  async function createLink(account: TestAccount, body: Record<string, string>) {
    const started = Date.now();
    const response = await t.http().post(LINKS).set('Authorization', account.auth).type('form').send(body);
    return { response, elapsed: Date.now() - started };
  }

  async function titleOf(account: TestAccount, id: number): Promise<string | null> {
    const response = await t.http().get(`${LINKS}/${id}`).set('Authorization', account.auth);
    expect(response.status).toBe(200);
    return response.body.data.title as string | null;
  }

  /** Polls the link until it has a title or the wait is over. */
  async function waitForTitle(account: TestAccount, id: number): Promise<string | null> {
    const deadline = Date.now() + TITLE_WAIT_MS;
    for (;;) {
      const title = await titleOf(account, id);
      if (title !== null || Date.now() > deadline) return title;
      await sleep(50);
    }
  }

  async function waitFor(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + TITLE_WAIT_MS;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  describe('with a policy that allows the local server', () => {
    it('answers the create at once with a null title, then fills in the page title', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/gated') });

      // The page has not answered yet: the create did not wait for it.
      expect(response.status).toBe(201);
      expect(response.body.data.title).toBeNull();
      await waitFor(() => gated.length === 1, 'the fetch to reach the page');
      expect(await titleOf(account, response.body.data.id)).toBeNull();

      gated[0]();

      expect(await waitForTitle(account, response.body.data.id)).toBe(HELLO_TITLE);
      expect(pages.requests).toEqual(['/gated']);
    });

    it('fills in the title of an ungated page within a few seconds', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/hello') });

      expect(response.status).toBe(201);
      expect(await waitForTitle(account, response.body.data.id)).toBe(HELLO_TITLE);
      const listed = await t.http().get(LINKS).set('Authorization', account.auth);
      expect((listed.body.data as { title: string }[]).map((link) => link.title)).toEqual([HELLO_TITLE]);
    });

    it('keeps a title sent in the body and fetches nothing', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/hello'), title: 'My own title' });

      expect(response.status).toBe(201);
      expect(response.body.data.title).toBe('My own title');
      await fetchesDone();
      expect(await titleOf(account, response.body.data.id)).toBe('My own title');
      expect(pages.requests).toEqual([]);
    });

    it('takes an empty title in the body as none, and fetches one', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/hello'), title: '' });

      expect(response.status).toBe(201);
      // Fetched in the background: from a local page it may already be there when the answer is made.
      expect([null, HELLO_TITLE]).toContain(response.body.data.title);
      expect(await waitForTitle(account, response.body.data.id)).toBe(HELLO_TITLE);
    });

    it('does not overwrite a title set by an update while the page was loading', async () => {
      allowLoopback();
      const account = await createAccount(t);
      const { response } = await createLink(account, { url: url('/gated') });
      expect(response.status).toBe(201);
      await waitFor(() => gated.length === 1, 'the fetch to reach the page');

      const updated = await t
        .http()
        .patch(`${LINKS}/${response.body.data.id}`)
        .set('Authorization', account.auth)
        .type('form')
        .send({ title: 'Set meanwhile' });
      expect(updated.status).toBe(200);
      gated[0]();
      await fetchesDone();

      expect(await titleOf(account, response.body.data.id)).toBe('Set meanwhile');
    });

    it('stores a long title decoded and cut to 255 characters', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/long-title') });

      expect(response.status).toBe(201);
      expect(await waitForTitle(account, response.body.data.id)).toBe(`${'<'.repeat(100)}${'t'.repeat(155)}`);
    });

    it.each([
      ['/latin1', 'Café crème – “Latin”'],
      ['/shift-jis', '日本語のページ é'],
    ])('stores the title of %s in the character set the page declares', async (path, title) => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url(path) });

      expect(response.status).toBe(201);
      expect(await waitForTitle(account, response.body.data.id)).toBe(title);
    });

    it('reads the title at the top of a page larger than the cap', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/huge-title-early') });

      expect(response.status).toBe(201);
      expect(await waitForTitle(account, response.body.data.id)).toBe('Early');
    });

    it('leaves the title null for a page whose title comes after maxBytes', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/huge-title-late') });

      expect(response.status).toBe(201);
      await fetchesDone();
      expect(pages.requests).toEqual(['/huge-title-late']);
      expect(await titleOf(account, response.body.data.id)).toBeNull();
    });

    it.each(['/text', '/json'])('leaves the title null for the non-HTML page %s', async (path) => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url(path) });

      expect(response.status).toBe(201);
      await fetchesDone();
      expect(pages.requests).toEqual([path]);
      expect(await titleOf(account, response.body.data.id)).toBeNull();
    });

    it('leaves the title null for an error page', async () => {
      allowLoopback();
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/not-found') });

      expect(response.status).toBe(201);
      await fetchesDone();
      expect(pages.requests).toEqual(['/not-found']);
      expect(await titleOf(account, response.body.data.id)).toBeNull();
    });
  });

  describe('a server that never answers', () => {
    it('does not hold up the create', async () => {
      allowLoopback({ timeoutMs: 30_000 });
      const account = await createAccount(t);

      const { response, elapsed } = await createLink(account, { url: url('/silent') });

      expect(response.status).toBe(201);
      expect(response.body.data.title).toBeNull();
      expect(elapsed).toBeLessThan(5000);
      await waitFor(() => pages.requests.length === 1, 'the fetch to reach the page');
      // End the fetch now rather than after its 30 s timeout.
      pages.server.closeAllConnections();
      await fetchesDone();
      expect(await titleOf(account, response.body.data.id)).toBeNull();
    });

    it('is given up after timeoutMs, and the title stays null', async () => {
      allowLoopback({ timeoutMs: 300 });
      const account = await createAccount(t);
      const closedBefore = pages.closedConnections;

      const { response } = await createLink(account, { url: url('/silent') });
      const started = Date.now();
      await fetchesDone();

      expect(response.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(pages.requests).toEqual(['/silent']);
      await waitFor(() => pages.closedConnections > closedBefore, 'the fetcher to hang up');
      expect(await titleOf(account, response.body.data.id)).toBeNull();
    });
  });

  describe('a name that never resolves', () => {
    it('does not hold up the create, and the fetch ends after timeoutMs', async () => {
      allowLoopback({ timeoutMs: 300, resolve: () => new Promise<string[]>(() => undefined) });
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/hello') });
      const started = Date.now();
      await fetchesDone();

      expect(response.status).toBe(201);
      expect(response.body.data.title).toBeNull();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(pages.requests).toEqual([]);
      expect(await titleOf(account, response.body.data.id)).toBeNull();
    });
  });

  describe('with the default address policy (public addresses only)', () => {
    it.each([
      ['a name that resolves to 127.0.0.1', 'pages.test'],
      ['localhost', 'localhost'],
      ['the literal address 127.0.0.1', '127.0.0.1'],
    ])('never connects to %s: the title stays null', async (_label, host) => {
      defaultPolicy(() => Promise.resolve(['127.0.0.1']));
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/hello', host) });

      expect(response.status).toBe(201);
      await fetchesDone();
      expect(await titleOf(account, response.body.data.id)).toBeNull();
      expect(pages.requests).toEqual([]);
    });

    it('refuses a name with a private address among its public ones', async () => {
      defaultPolicy(() => Promise.resolve(['8.8.8.8', '127.0.0.1']));
      const account = await createAccount(t);

      const { response } = await createLink(account, { url: url('/hello') });

      expect(response.status).toBe(201);
      await fetchesDone();
      expect(await titleOf(account, response.body.data.id)).toBeNull();
      expect(pages.requests).toEqual([]);
    });

    describe('and one more host allowed (redirector.test, 127.0.0.2)', () => {
      beforeEach(() => {
        Object.assign(options, DEFAULT_TITLE_FETCH_OPTIONS, {
          resolve: (host: string) =>
            Promise.resolve(host === 'redirector.test' ? ['127.0.0.2'] : ['127.0.0.1']),
          allowAddress: (address: string) => address === '127.0.0.2' || isPublicAddress(address),
        });
      });

      function redirectorUrl(path: string): string {
        return `http://redirector.test:${redirector.port}${path}`;
      }

      it('reads the allowed host’s own page', async () => {
        const account = await createAccount(t);

        const { response } = await createLink(account, { url: redirectorUrl('/page') });

        expect(response.status).toBe(201);
        expect(await waitForTitle(account, response.body.data.id)).toBe('Redirector page');
      });

      it('follows a redirect that stays on the allowed host', async () => {
        const account = await createAccount(t);

        const { response } = await createLink(account, { url: redirectorUrl('/to-self') });

        expect(response.status).toBe(201);
        expect(await waitForTitle(account, response.body.data.id)).toBe('Redirector page');
        expect(redirector.requests).toEqual(['/to-self', '/page']);
      });

      it.each([
        ['a loopback address', '/to-loopback-ip'],
        ['a name that resolves to a loopback address', '/to-loopback-name'],
      ])('does not follow a redirect to %s', async (_label, path) => {
        const account = await createAccount(t);

        const { response } = await createLink(account, { url: redirectorUrl(path) });

        expect(response.status).toBe(201);
        await fetchesDone();
        expect(redirector.requests).toEqual([path]);
        expect(pages.requests).toEqual([]);
        expect(await titleOf(account, response.body.data.id)).toBeNull();
      });
    });
  });

  it('by default (the test app’s offline policy) resolves no name and stores no title', async () => {
    const account = await createAccount(t);

    const { response } = await createLink(account, { url: url('/hello') });

    expect(response.status).toBe(201);
    await fetchesDone();
    expect(await titleOf(account, response.body.data.id)).toBeNull();
    expect(pages.requests).toEqual([]);
  });
});
