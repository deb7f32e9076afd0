import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { createAccount, createTestApp, type TestApp } from './support/app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const PASSWORD = 'correct horse battery';

if (!haveChromium) process.stderr.write(`passkey tests skipped: no Chromium at ${CHROMIUM}\n`);

/** A port nothing listens on, for an app whose APP_URL must name it before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * In the page, as a dashboard would (its own code does the same through @simplewebauthn/browser): the API's JSON
 * options made into the browser's, the browser's credential made into JSON for the API.
 */
const IN_PAGE = `
  window.b64 = {
    decode: (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=')), (c) => c.charCodeAt(0)).buffer,
    encode: (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''),
  };
  window.api = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shortlink-Session': '1' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  window.createPasskey = async (name) => {
    const { body } = await api('POST', '/api/v1/user/passkeys/options');
    const options = body.data.options;
    const credential = await navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: b64.decode(options.challenge),
        user: { ...options.user, id: b64.decode(options.user.id) },
        excludeCredentials: (options.excludeCredentials || []).map((one) => ({ ...one, id: b64.decode(one.id) })),
      },
    });
    return api('POST', '/api/v1/user/passkeys', {
      name,
      response: {
        id: credential.id,
        rawId: b64.encode(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: b64.encode(credential.response.clientDataJSON),
          attestationObject: b64.encode(credential.response.attestationObject),
          transports: credential.response.getTransports(),
        },
        clientExtensionResults: {},
        authenticatorAttachment: credential.authenticatorAttachment,
      },
    });
  };
  window.assertion = async () => {
    const { body } = await api('POST', '/api/v1/session/passkey/options');
    const { challenge_id, options } = body.data;
    const credential = await navigator.credentials.get({
      publicKey: { ...options, challenge: b64.decode(options.challenge) },
    });
    return {
      challenge_id,
      response: {
        id: credential.id,
        rawId: b64.encode(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: b64.encode(credential.response.clientDataJSON),
          authenticatorData: b64.encode(credential.response.authenticatorData),
          signature: b64.encode(credential.response.signature),
          userHandle: credential.response.userHandle ? b64.encode(credential.response.userHandle) : undefined,
        },
        clientExtensionResults: {},
      },
    };
  };
`;

/**
 * Passkeys in Chromium with its virtual authenticator (DevTools protocol, `WebAuthn` domain): a signed-in user adds
 * one, signs out, and signs in with it alone; an answer is good once; a removed passkey no longer signs in.
 */
(haveChromium ? describe : describe.skip)('passkeys in a real browser', () => {
  let t: TestApp;
  // A database of its own: an APP_URL of another host makes a system domain of its own, which the run's other
  // files would then see.
  let scratch: ScratchDatabase;
  let base: string;
  let browser: Browser;
  let page: Page;
  let email: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    scratch = await scratchDatabase('shortlink_passkeys');
    t = await createTestApp({ DATABASE_URL: scratch.url, APP_URL: base, RATE_LIMIT_PER_MINUTE: '0' });
    await t.app.listen(port, '127.0.0.1');
    const account = await createAccount(t, 'Passkeys');
    email = `passkey-${process.pid}@example.com`;
    const { user } = await t.app
      .get(UsersService)
      .createOrSetPassword({ email, password: PASSWORD, name: 'Pat' });
    await t.app.get(MembersService).add(account.id, user.id, 'editor');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    const context = await browser.newContext();
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto(`${base}/health`);
    await page.evaluate(IN_PAGE);
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await scratch?.drop();
  });

  const run = <T>(script: string): Promise<T> => page.evaluate<T>(script);
  type Answer = {
    status: number;
    body: { data: Record<string, unknown>; message?: Record<string, string[]> };
  };

  it('adds a passkey for a signed-in user, and signs in with it alone, as two factors', async () => {
    const signedIn = await run<Answer>(
      `api('POST', '/api/v1/session', { email: '${email}', password: '${PASSWORD}' })`,
    );
    expect(signedIn.status).toBe(201);
    const added = await run<Answer>(`createPasskey('Laptop')`);
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({
      id: expect.any(Number),
      name: 'Laptop',
      created_at: expect.any(String),
      last_used_at: null,
    });
    const listed = await run<Answer>(`api('GET', '/api/v1/user/passkeys')`);
    expect((listed.body.data as unknown as { name: string }[]).map((one) => one.name)).toEqual(['Laptop']);

    expect((await run<Answer>(`api('DELETE', '/api/v1/session')`)).status).toBe(200);
    expect((await run<Answer>(`api('GET', '/api/v1/user')`)).status).toBe(401);

    const proof = await run<object>('assertion()');
    const session = await run<Answer>(`api('POST', '/api/v1/session/passkey', ${JSON.stringify(proof)})`);
    expect(session.status).toBe(201);
    expect(session.body.data.user).toMatchObject({ email, name: 'Pat' });
    expect((session.body.data.workspace as { role: string }).role).toBe('editor');
    expect((await run<Answer>(`api('GET', '/api/v1/user')`)).status).toBe(200);

    // The same answer again: its challenge was used.
    const replayed = await run<Answer>(`api('POST', '/api/v1/session/passkey', ${JSON.stringify(proof)})`);
    expect(replayed.status).toBe(422);
    expect(Object.keys(replayed.body.message ?? {})).toEqual(['response']);
    const used = await run<Answer>(`api('GET', '/api/v1/user/passkeys')`);
    expect((used.body.data as unknown as { last_used_at: string | null }[])[0].last_used_at).not.toBeNull();
  });

  it('refuses a removed passkey, and an answer to no challenge', async () => {
    const listed = await run<Answer>(`api('GET', '/api/v1/user/passkeys')`);
    const id = (listed.body.data as unknown as { id: number }[])[0].id;
    const removed = await run<Answer>(`api('DELETE', '/api/v1/user/passkeys/${id}')`);
    expect(removed.body).toEqual({ id, object: 'passkey', deleted: true, status: 200 });
    const proof = await run<object>('assertion()');
    const refused = await run<Answer>(`api('POST', '/api/v1/session/passkey', ${JSON.stringify(proof)})`);
    expect(refused.status).toBe(422);
    const unknown = await run<Answer>(
      `api('POST', '/api/v1/session/passkey', { challenge_id: 2147483647, response: { id: 'x', response: {} } })`,
    );
    expect(unknown.status).toBe(422);
  });
});
