import { hashApiKey } from '../src/auth/api-key';
import { DomainsService } from '../src/domains/domains.service';
import { createTestApp, type TestApp } from './support/app';
import {
  childEnv,
  freePort,
  generatedKeys,
  killAllChildren,
  lastLine,
  runCli,
  type RunResult,
} from './support/process';

/**
 * `node dist/cli.js` against the run's database (DATABASE_URL), checked with an app on the same database.
 * Contract §3: the last stdout line is `{"id": N, "name": "NAME", "api_key": "..."}`; messages go to stderr.
 */

const RESULT_LINE = /^\{"id": (\d+), "name": ("(?:[^"\\]|\\.)*"), "api_key": "(lsk_[A-Za-z0-9_-]{43})"\}$/;

interface Issued {
  id: number;
  name: string;
  api_key: string;
}

/** Checks the literal form of the result line, then parses it. */
function issued(result: RunResult): Issued {
  const line = lastLine(result.stdout);
  expect(line).toMatch(RESULT_LINE);
  const parsed = JSON.parse(line) as Issued;
  expect(Object.keys(parsed)).toEqual(['id', 'name', 'api_key']);
  expect(Number.isInteger(parsed.id)).toBe(true);
  return parsed;
}

/** The process's whole output holds no secret but `allowedKey`: no other key, no key hash, no database password. */
function expectNoOtherSecret(result: RunResult, allowedKey?: string): void {
  const output = result.stdout + result.stderr;
  expect(generatedKeys(output).filter((key) => key !== allowedKey)).toEqual([]);
  if (allowedKey !== undefined) {
    // Printed once, as the result, and never its stored hash.
    expect(output.split(allowedKey)).toHaveLength(2);
    expect(output).not.toContain(hashApiKey(allowedKey));
  }
  const initialKey = process.env.INITIAL_API_KEY;
  if (initialKey !== undefined && initialKey !== '') expect(output).not.toContain(initialKey);
  const password = new URL(process.env.DATABASE_URL!).password;
  if (password !== '') expect(output).not.toContain(password);
}

function expectCode(result: RunResult, code: number): void {
  if (result.code !== code || result.timedOut) {
    throw new Error(
      `expected exit ${code}, got ${result.code} (signal ${result.signal}, timed out: ${result.timedOut})\n` +
        `--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`,
    );
  }
}

/** An error: nothing JSON on stdout, a message on stderr. */
function expectFailure(result: RunResult, code: number, message: RegExp): void {
  expectCode(result, code);
  expect(result.stdout.split('\n').filter((line) => line.trim().startsWith('{'))).toEqual([]);
  expect(result.stderr).toMatch(message);
  expectNoOtherSecret(result);
}

describe('cli (dist/cli.js)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await killAllChildren();
    await t?.close();
  });

  async function account(apiKey: string) {
    return t.http().get('/api/v1/account').set('Authorization', `Bearer ${apiKey}`);
  }

  describe('account and keys', () => {
    let created: Issued;
    let second: Issued;

    it('account:create prints {"id": N, "name": "Acme Inc", "api_key": "..."} as its last line, exit 0', async () => {
      const result = await runCli(['account:create', '--name', 'Acme Inc']);
      expectCode(result, 0);
      created = issued(result);
      expect(created.name).toBe('Acme Inc');
      expectNoOtherSecret(result, created.api_key);

      const response = await account(created.api_key);
      expect(response.status).toBe(200);
      // phpShort's account fields: what this service has no such thing for is null.
      expect(response.body).toEqual({
        data: {
          id: created.id,
          name: 'Acme Inc',
          email: null,
          avatar_url: null,
          locale: 'en',
          timezone: 'UTC',
          plan: null,
          default_domain: (await t.app.get(DomainsService).defaultDomain()).id,
          default_space: null,
          default_stats: 0,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
        },
        status: 200,
      });
    });

    it('key:create --account ID prints the same shape for that account, with a new key that works', async () => {
      const result = await runCli(['key:create', '--account', String(created.id)]);
      expectCode(result, 0);
      second = issued(result);
      expect(second.id).toBe(created.id);
      expect(second.name).toBe('Acme Inc');
      expect(second.api_key).not.toBe(created.api_key);
      expectNoOtherSecret(result, second.api_key);

      for (const key of [second.api_key, created.api_key]) {
        const response = await account(key);
        expect(response.status).toBe(200);
        expect(response.body.data.id).toBe(created.id);
      }
    });

    it('key:revoke --key KEY exits 0; that key then gets 401 and the other still works', async () => {
      const result = await runCli(['key:revoke', '--key', second.api_key]);
      expectCode(result, 0);
      // The revoked key is not echoed back.
      expectNoOtherSecret(result);
      expect(result.stdout).not.toContain(second.api_key);

      const revoked = await account(second.api_key);
      expect(revoked.status).toBe(401);
      expect(revoked.body).toEqual({ message: 'Unauthenticated.', status: 401 });
      const other = await account(created.api_key);
      expect(other.status).toBe(200);
      expect(other.body.data.id).toBe(created.id);
    });

    it('key:revoke of a key already revoked exits 1', async () => {
      expectFailure(await runCli(['key:revoke', '--key', second.api_key]), 1, /\S/);
      expect((await account(created.api_key)).status).toBe(200);
    });

    it('account:update --account ID --email EMAIL sets the email the account resource reports', async () => {
      const result = await runCli([
        'account:update',
        '--account',
        String(created.id),
        '--email',
        'ops@acme.example',
      ]);
      expectCode(result, 0);
      expect(lastLine(result.stdout)).toBe(
        `{"id": ${created.id}, "name": "Acme Inc", "email": "ops@acme.example"}`,
      );
      expectNoOtherSecret(result);
      expect((await account(created.api_key)).body.data).toMatchObject({
        name: 'Acme Inc',
        email: 'ops@acme.example',
      });

      const renamed = await runCli(['account:update', '--account', String(created.id), '--name=Acme Ltd']);
      expectCode(renamed, 0);
      expect((await account(created.api_key)).body.data).toMatchObject({
        name: 'Acme Ltd',
        email: 'ops@acme.example',
      });
    });
  });

  it('account:create keeps a name with quotes and non-ASCII characters (JSON-escaped), and accepts --name=VALUE', async () => {
    const name = 'Café "Zürich" \\ Ltd';
    const result = await runCli(['account:create', `--name=${name}`]);
    expectCode(result, 0);
    const parsed = issued(result);
    expect(parsed.name).toBe(name);
    const response = await account(parsed.api_key);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: parsed.id, name });
  });

  it('account:create --email sets the email from the start', async () => {
    const result = await runCli(['account:create', '--name', 'Mailed', '--email=team@mailed.example']);
    expectCode(result, 0);
    const parsed = issued(result);
    expect((await account(parsed.api_key)).body.data).toMatchObject({
      id: parsed.id,
      email: 'team@mailed.example',
    });
  });

  describe('errors', () => {
    it('key:create for an unknown account exits 1 with a message on stderr and nothing JSON on stdout', async () => {
      expectFailure(await runCli(['key:create', '--account', '2147483000']), 1, /2147483000/);
    });

    it('account:update of an unknown account exits 1', async () => {
      const result = await runCli(['account:update', '--account', '2147483000', '--email', 'a@b.example']);
      expectFailure(result, 1, /2147483000/);
    });

    it('key:create for an id beyond the id range is an unknown account too: exit 1, a message, no stack trace', async () => {
      const result = await runCli(['key:create', '--account', '9999999999']);
      expectFailure(result, 1, /9999999999/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });

    it('an unreachable database fails within seconds with exit 1, never printing its password', async () => {
      const url = `postgres://shortlink:pw-${'s3cr3t'.repeat(3)}@127.0.0.1:${await freePort()}/nowhere`;
      const result = await runCli(['account:create', '--name', 'Nowhere'], {
        env: childEnv({ DATABASE_URL: url }),
        timeoutMs: 40_000,
      });
      expectFailure(result, 1, /ECONNREFUSED|connect/);
      expect(result.ms).toBeLessThan(15_000);
      expect(result.stdout + result.stderr).not.toContain('s3cr3t');
    });

    it('key:revoke of an unknown key exits 1', async () => {
      expectFailure(await runCli(['key:revoke', '--key', `lsk_${'x'.repeat(43)}`]), 1, /\S/);
    });

    it('account:create without --name exits 64 with the usage on stderr', async () => {
      const result = await runCli(['account:create']);
      expectFailure(result, 64, /--name/);
      expect(result.stderr).toMatch(/Usage/);
      expect(result.stdout).toBe('');
    });

    it.each([
      ['--name with no value', ['account:create', '--name']],
      ['an empty --name', ['account:create', '--name', '']],
      ['a --name longer than 255 characters', ['account:create', '--name', 'n'.repeat(256)]],
      ['key:create without --account', ['key:create']],
      ['key:create with a non-numeric --account', ['key:create', '--account', 'abc']],
      ['key:revoke without --key', ['key:revoke']],
      ['an --email that is no address', ['account:create', '--name', 'x', '--email', 'nobody']],
      ['an --email with a space', ['account:create', '--name', 'x', '--email', 'a b@c.example']],
      ['account:update with nothing to change', ['account:update', '--account', '1']],
      ['account:update without --account', ['account:update', '--email', 'a@b.example']],
    ])('%s exits 64 with the usage on stderr', async (_case, args) => {
      const result = await runCli(args);
      expectFailure(result, 64, /Usage/);
      expect(result.stdout).toBe('');
    });

    it('an unknown command exits 64 with the usage on stderr', async () => {
      const result = await runCli(['account:destroy', '--name', 'x']);
      expectFailure(result, 64, /Usage/);
      expect(result.stderr).toContain('account:destroy');
      expect(result.stdout).toBe('');
    });

    it('no command exits 64 with the usage on stderr', async () => {
      const result = await runCli([]);
      expectFailure(result, 64, /Usage/);
      expect(result.stdout).toBe('');
    });
  });

  it('migration:show prints the pending migrations as JSON (none on the migrated database)', async () => {
    const result = await runCli(['migration:show']);
    expectCode(result, 0);
    expect(JSON.parse(lastLine(result.stdout))).toEqual({ pending: false });
    expectNoOtherSecret(result);
  });

  it('migration:run on the migrated database applies nothing', async () => {
    const result = await runCli(['migration:run']);
    expectCode(result, 0);
    expect(JSON.parse(lastLine(result.stdout))).toEqual({ applied: [] });
    expectNoOtherSecret(result);
  });
});
