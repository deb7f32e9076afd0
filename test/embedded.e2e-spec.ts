import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  childEnv,
  generatedKeys,
  getAccount,
  killAllChildren,
  lastLine,
  MAIN_SCRIPT,
  removeDir,
  runCli,
  runNode,
  spawnServer,
  startServer,
  tempDir,
  freePort,
  type EnvOverrides,
  type RunResult,
  type ServerProcess,
} from './support/process';

/**
 * `node dist/main.js` on the embedded database (no DATABASE_URL, whatever the run uses), contract §3 and §8: the
 * first start makes an account, one process owns a DATA_DIR, the CLI shares a running server's database (without
 * mixing up the server's own queries), SIGTERM exits 0 and releases the lock, a restart keeps the data, a lock left
 * by `kill -9` is recovered, and CLI commands started together (or during the server's start) wait their turn.
 *
 * Each start of the embedded database costs seconds and hundreds of MB, so the steps of one directory's life run
 * in order in one `describe`, each depending on the one before.
 */

jest.setTimeout(60_000);

const KEY_LINE = /^ {4}(lsk_[A-Za-z0-9_-]{43})$/m;

function serverEnv(dataDir: string, overrides: EnvOverrides = {}): NodeJS.ProcessEnv {
  // LOG_LEVEL warn: the request log of a 401 is written, so the tests see that no key reaches the log.
  return childEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...overrides }, { embedded: true });
}

function lockOf(dataDir: string): { pid: number; port: number | null } | null {
  const path = join(dataDir, 'embedded.lock');
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { pid: number; port: number | null };
  } catch {
    // Caught between the lock's creation and its first write: as the service reads it, not yet anyone's.
    return null;
  }
}

function describeRun(result: RunResult): string {
  return (
    `exit ${result.code} (signal ${result.signal}, timed out: ${result.timedOut}, ${result.ms} ms)\n` +
    `--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`
  );
}

/**
 * Waits (bounded) until the server has printed a generated key on stderr, where it goes so that stdout carries only
 * the log; the key is written before the server listens.
 */
async function printedKey(server: ServerProcess): Promise<string> {
  const deadline = Date.now() + 5_000;
  while (!KEY_LINE.test(server.stderr) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
  }
  const match = KEY_LINE.exec(server.stderr);
  if (match === null) throw new Error(`No generated API key on stderr\n${server.describe()}`);
  return match[1];
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

async function expectAccount(server: ServerProcess, apiKey: string, id: number, name: string): Promise<void> {
  const response = await getAccount(server.url, apiKey);
  expect(response).toEqual({
    status: 200,
    body: { data: expect.objectContaining({ id, name, created_at: expect.any(String) }), status: 200 },
  });
}

async function createWithCli(dataDir: string, name: string): Promise<{ id: number; apiKey: string }> {
  const result = await runCli(['account:create', '--name', name], {
    env: childEnv({ DATA_DIR: dataDir }, { embedded: true }),
    timeoutMs: 45_000,
  });
  if (result.code !== 0) throw new Error(`account:create failed: ${describeRun(result)}`);
  const line = lastLine(result.stdout);
  expect(line).toMatch(/^\{"id": \d+, "name": "[^"]*", "api_key": "lsk_[A-Za-z0-9_-]{43}"\}$/);
  const parsed = JSON.parse(line) as { id: number; name: string; api_key: string };
  expect(parsed.name).toBe(name);
  return { id: parsed.id, apiKey: parsed.api_key };
}

afterAll(async () => {
  await killAllChildren();
});

describe('embedded database: one data directory through its life', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let firstKey: string;
  let firstId: number;
  const cliAccounts: { id: number; apiKey: string; name: string }[] = [];

  beforeAll(() => {
    dataDir = tempDir('shortlink-embedded-');
  });

  afterAll(async () => {
    await killAllChildren();
    removeDir(dataDir);
  });

  it('first start: prints the generated API key once, on stderr and not on stdout with the log, and the key works', async () => {
    server = await startServer({ env: serverEnv(dataDir) });
    firstKey = await printedKey(server);

    const account = await getAccount(server.url, firstKey);
    expect(account.status).toBe(200);
    firstId = account.body.data!.id;
    await expectAccount(server, firstKey, firstId, 'Default');

    // A refused key is logged (LOG_LEVEL=warn), but no key ever is.
    expect((await getAccount(server.url, `lsk_${'0'.repeat(43)}`)).status).toBe(401);
    await new Promise((done) => setTimeout(done, 200));
    expect(generatedKeys(server.stderr)).toEqual([firstKey]);
    expect(generatedKeys(server.stdout)).toEqual([]);
    expect(server.stdout).not.toMatch(/shown only this once/);
    // Beside the key, where to use it and how to make another.
    expect(server.stderr).toContain(`Sign in with it at http://localhost:3000/app`);
    expect(server.stderr).toContain(`npm run cli -- key:create --account ${firstId}\n`);
    // stdout is the log alone: JSON lines, which a collector can parse one by one.
    const notJson = server.stdout.split('\n').filter((line) => line.trim() !== '' && !isJson(line));
    expect(notJson).toEqual([]);
    expect(server.stdout + server.stderr).not.toContain('0'.repeat(43));

    // The lock names this process and the port of its database.
    const lock = lockOf(dataDir);
    expect(lock).toMatchObject({ pid: server.pid, port: expect.any(Number) });
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);
  });

  it('while the server runs, the CLI on the same DATA_DIR creates an account whose key works at once', async () => {
    const created = await createWithCli(dataDir, 'Side Car');
    cliAccounts.push({ ...created, name: 'Side Car' });
    await expectAccount(server!, created.apiKey, created.id, 'Side Car');
    // The CLI used the server's database and left the server's lock alone.
    expect(lockOf(dataDir)?.pid).toBe(server!.pid);
    await expectAccount(server!, firstKey, firstId, 'Default');
  });

  it("another connection's transaction does not mix up concurrent API requests (one PGlite session underneath)", async () => {
    // The CLI is such a connection: it writes in a transaction while the server answers requests.
    const lock = lockOf(dataDir)!;
    const client = new Client({
      connectionString: `postgres://postgres:postgres@127.0.0.1:${lock.port}/postgres`,
    });
    await client.connect();
    const keys = [
      { apiKey: firstKey, id: firstId },
      ...cliAccounts.map((account) => ({ apiKey: account.apiKey, id: account.id })),
    ];
    const mixedUp: string[] = [];
    try {
      for (let round = 0; round < 8; round += 1) {
        await client.query('BEGIN');
        await client.query('SELECT count(*) FROM accounts WHERE id > $1', [0]);
        const requests = Array.from({ length: 8 }, async (_, index) => {
          const { apiKey, id } = keys[index % keys.length];
          const response = await getAccount(server!.url, apiKey);
          if (response.status !== 200 || response.body.data?.id !== id) {
            mixedUp.push(`key of ${id}: ${response.status} ${JSON.stringify(response.body)}`);
          }
        });
        // Let the requests queue up behind the open transaction, then end it.
        await new Promise((done) => setTimeout(done, 50));
        await client.query('COMMIT');
        await Promise.all(requests);
      }
    } finally {
      await client.end();
    }
    expect(mixedUp).toEqual([]);
  });

  it('a second server on the same DATA_DIR exits non-zero naming the directory in use; the first keeps serving', async () => {
    const second = spawnServer({ ...serverEnv(dataDir), PORT: String(await freePort()) });
    const exit = await second.waitExit(30_000);
    if (exit === null) {
      await second.kill();
      throw new Error(`The second server is still running\n${second.describe()}`);
    }
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(second.stderr).toContain(dataDir);
    expect(second.stderr).toMatch(/in use/);
    expect(generatedKeys(second.stdout + second.stderr)).toEqual([]);

    expect(lockOf(dataDir)?.pid).toBe(server!.pid);
    await expectAccount(server!, firstKey, firstId, 'Default');
    expect((await fetch(`${server!.url}/health/ready`)).status).toBe(200);
  });

  it('SIGTERM: exit code 0 and the lock file is gone', async () => {
    const code = await server!.stop();
    if (code !== 0) throw new Error(`exit ${code}\n${server!.describe()}`);
    expect(lockOf(dataDir)).toBeNull();
    expect(readdirSync(dataDir)).not.toContain('embedded.lock');
  });

  it('with no server running, the CLI opens the data directory itself and releases it', async () => {
    const created = await createWithCli(dataDir, 'Offline Co');
    cliAccounts.push({ ...created, name: 'Offline Co' });
    expect(lockOf(dataDir)).toBeNull();
  });

  it('a restart on the same DATA_DIR keeps the data and prints no new key', async () => {
    server = await startServer({ env: serverEnv(dataDir) });
    await expectAccount(server, firstKey, firstId, 'Default');
    for (const account of cliAccounts) await expectAccount(server, account.apiKey, account.id, account.name);
    expect(generatedKeys(server.stdout + server.stderr)).toEqual([]);
    expect(server.stdout + server.stderr).not.toMatch(/API key/);
  });

  it('after kill -9, a restart recovers the stale lock and serves with the data kept', async () => {
    const killedPid = server!.pid;
    await server!.kill();
    expect(lockOf(dataDir)?.pid).toBe(killedPid);

    server = await startServer({ env: serverEnv(dataDir) });
    expect(lockOf(dataDir)?.pid).toBe(server.pid);
    await expectAccount(server, firstKey, firstId, 'Default');
    for (const account of cliAccounts) await expectAccount(server, account.apiKey, account.id, account.name);
    expect(generatedKeys(server.stdout + server.stderr)).toEqual([]);

    // And it still writes: the CLI beside it, then a clean stop.
    const created = await createWithCli(dataDir, 'After Crash');
    await expectAccount(server, created.apiKey, created.id, 'After Crash');
    const code = await server.stop();
    if (code !== 0) throw new Error(`exit ${code}\n${server.describe()}`);
    expect(lockOf(dataDir)).toBeNull();
  });
});

describe('embedded database: CLI commands at once, no server running', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = tempDir('shortlink-concurrent-cli-');
  });

  afterAll(async () => {
    await killAllChildren();
    removeDir(dataDir);
  });

  it('two account:create at once on a fresh DATA_DIR both succeed, and every key works on the next start', async () => {
    const names = ['Para One', 'Para Two'];
    const created = await Promise.all(names.map((name) => createWithCli(dataDir, name)));
    expect(new Set(created.map((account) => account.id)).size).toBe(2);
    expect(lockOf(dataDir)).toBeNull();

    const server = await startServer({ env: serverEnv(dataDir) });
    // The CLI made the first accounts, so the server does not make one.
    expect(generatedKeys(server.stdout + server.stderr)).toEqual([]);
    for (const [index, account] of created.entries()) {
      await expectAccount(server, account.apiKey, account.id, names[index]);
    }
    expect(await server.stop()).toBe(0);
  });
});

describe('embedded database: CLI commands during the first start of the server', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = tempDir('shortlink-cli-during-start-');
  });

  afterAll(async () => {
    await killAllChildren();
    removeDir(dataDir);
  });

  it('account:create started with the server waits for it to migrate, then succeeds; the server serves every key', async () => {
    const server = spawnServer({ ...serverEnv(dataDir), PORT: String(await freePort()) });
    // Once the server holds the lock (and is opening, migrating), the CLI starts.
    const deadline = Date.now() + 30_000;
    while (lockOf(dataDir)?.pid !== server.pid) {
      if (Date.now() > deadline || !server.running)
        throw new Error(`No lock of the server\n${server.describe()}`);
      await new Promise((done) => setTimeout(done, 20));
    }
    const names = ['Early One', 'Early Two'];
    const created = await Promise.all(names.map((name) => createWithCli(dataDir, name)));
    await server.waitReady(45_000);
    // The server made the first account before letting the CLI in, so its key was printed.
    const firstKey = await printedKey(server);
    expect((await getAccount(server.url, firstKey)).body.data).toMatchObject({ name: 'Default' });
    for (const [index, account] of created.entries()) {
      await expectAccount(server, account.apiKey, account.id, names[index]);
    }
    expect(lockOf(dataDir)?.pid).toBe(server.pid);
    expect(await server.stop()).toBe(0);
  });
});

describe('embedded database: INITIAL_API_KEY', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = tempDir('shortlink-initial-key-');
  });

  afterAll(async () => {
    await killAllChildren();
    removeDir(dataDir);
  });

  it('on a fresh DATA_DIR the given key works and no key is printed', async () => {
    const initialKey = `initial_${randomBytes(24).toString('hex')}`;
    const server = await startServer({ env: serverEnv(dataDir, { INITIAL_API_KEY: initialKey }) });
    const account = await getAccount(server.url, initialKey);
    expect(account.status).toBe(200);
    expect(account.body.data).toMatchObject({ name: 'Default' });
    const code = await server.stop();
    if (code !== 0) throw new Error(`exit ${code}\n${server.describe()}`);
    const output = server.stdout + server.stderr;
    expect(generatedKeys(output)).toEqual([]);
    expect(output).not.toContain(initialKey);
    expect(output).not.toMatch(/shown only this once/);
  });
});

describe('embedded database: the first owner', () => {
  const dirs: string[] = [];

  afterAll(async () => {
    await killAllChildren();
    for (const dir of dirs) removeDir(dir);
  });

  function freshDir(): string {
    const dir = tempDir('shortlink-first-owner-');
    dirs.push(dir);
    return dir;
  }

  const signIn = (url: string, body: object) =>
    fetch(`${url}/api/v1/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('makes the owner from INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD, never printing the password', async () => {
    const password = `admin ${randomBytes(8).toString('hex')}`;
    const server = await startServer({
      env: serverEnv(freshDir(), {
        INITIAL_ADMIN_EMAIL: 'Admin@Example.com',
        INITIAL_ADMIN_PASSWORD: password,
      }),
    });
    const answer = await signIn(server.url, { email: 'admin@example.com', password });
    expect(answer.status).toBe(201);
    const { data } = (await answer.json()) as { data: { workspace: { name: string; role: string } } };
    expect(data.workspace).toMatchObject({ name: 'Default', role: 'owner' });
    const code = await server.stop();
    if (code !== 0) throw new Error(`exit ${code}\n${server.describe()}`);
    expect(server.stdout + server.stderr).not.toContain(password);
    expect(server.stderr).toContain('Sign in as admin@example.com at');
    expect(server.stderr).not.toContain('accept-invitation');
  });

  it('without them, prints once a link that makes whoever opens it the owner', async () => {
    const server = await startServer({ env: serverEnv(freshDir(), {}) });
    const link = /(http\S+\/app\/accept-invitation\?token=(lsi_[\w-]{43}))/.exec(server.stderr);
    expect(link).not.toBeNull();
    const accept = (email: string) =>
      fetch(`${server.url}/api/v1/invitations/accept`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: link![2], email, name: 'First', password: 'the first password' }),
      });
    const accepted = await accept('first@example.com');
    expect(accepted.status).toBe(201);
    expect(((await accepted.json()) as { data: { workspace: { role: string } } }).data.workspace.role).toBe(
      'owner',
    );
    expect((await accept('second@example.com')).status).toBe(422);
    const code = await server.stop();
    if (code !== 0) throw new Error(`exit ${code}\n${server.describe()}`);
  });
});

describe('bad settings stop the start with a message naming the setting', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = tempDir('shortlink-bad-settings-');
  });

  afterAll(async () => {
    await killAllChildren();
    removeDir(dataDir);
  });

  async function start(overrides: EnvOverrides): Promise<RunResult> {
    return runNode(MAIN_SCRIPT, [], { env: serverEnv(dataDir, overrides), timeoutMs: 20_000 });
  }

  it('PORT=abc exits 1 before opening anything, stderr names PORT', async () => {
    const result = await start({ PORT: 'abc' });
    if (result.code !== 1) throw new Error(describeRun(result));
    expect(result.stderr).toMatch(/\bPORT\b/);
    // Nothing was opened.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('a too short INITIAL_API_KEY exits 1 naming INITIAL_API_KEY, without echoing the value', async () => {
    const result = await start({ PORT: String(await freePort()), INITIAL_API_KEY: 'short-secret-value' });
    if (result.code !== 1) throw new Error(describeRun(result));
    expect(result.stderr).toMatch(/\bINITIAL_API_KEY\b/);
    expect(result.stdout + result.stderr).not.toContain('short-secret-value');
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
