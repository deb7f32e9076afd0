import { SCOPES } from '../src/auth/scopes';
import { hashApiKey } from '../src/auth/api-key';
import { DomainsService } from '../src/domains/domains.service';
import { readdirSync } from 'node:fs';
import { createAccount, createTestApp, type TestApp } from './support/app';
import {
  childEnv,
  freePort,
  generatedKeys,
  killAllChildren,
  lastLine,
  removeDir,
  runCli,
  tempDir,
  type RunResult,
} from './support/process';
import { scratchDatabase } from './support/scratch-database';
import { createLink } from './support/visitors';

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

    it('key:create --name --scopes --expires makes a key with those scopes alone, which key:list shows', async () => {
      const expires = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
      const result = await runCli([
        'key:create',
        '--account',
        String(created.id),
        '--name',
        'Reporting',
        '--scopes',
        'stats.read, links.read',
        '--expires',
        expires,
      ]);
      expectCode(result, 0);
      const made = issued(result);
      expectNoOtherSecret(result, made.api_key);
      expect(made.id).toBe(created.id);
      expect((await account(made.api_key)).status).toBe(403);
      const links = await t.http().get('/api/v1/links').set('Authorization', `Bearer ${made.api_key}`);
      expect(links.status).toBe(200);

      const listed = await runCli(['key:list', '--account', String(created.id)]);
      expectCode(listed, 0);
      expectNoOtherSecret(listed);
      expect(listed.stdout).not.toContain(made.api_key);
      const { account: listedAccount, keys } = JSON.parse(lastLine(listed.stdout)) as {
        account: number;
        keys: { id: number; name: string; prefix: string; scopes: string[]; expires_at: string | null }[];
      };
      expect(listedAccount).toBe(created.id);
      // Newest first: this one, then the full keys made before it.
      expect(keys[0]).toMatchObject({
        name: 'Reporting',
        prefix: made.api_key.slice(0, 8),
        scopes: ['links.read', 'stats.read'],
        expires_at: `${expires.replace(' ', 'T')}:00.000000Z`,
      });
      expect(keys.slice(1).map((key) => key.scopes.length)).toEqual(keys.slice(1).map(() => SCOPES.length));
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

  describe('people', () => {
    const password = 'a long cli password';
    let workspace: Issued;
    const signIn = (email: string, secret = password) =>
      t.http().post('/api/v1/session').send({ email, password: secret });

    beforeAll(async () => {
      workspace = issued(await runCli(['account:create', '--name', 'People Inc']));
    });

    it('user:create --account --role makes a person who signs in with that role, recorded as the CLI', async () => {
      const email = `cli-owner-${process.pid}@example.com`;
      const result = await runCli([
        'user:create',
        '--email',
        email.toUpperCase(),
        '--password',
        password,
        '--name',
        'Olive',
        '--account',
        String(workspace.id),
        '--role',
        'owner',
      ]);
      expectCode(result, 0);
      const made = JSON.parse(lastLine(result.stdout)) as Record<string, unknown>;
      expect(made).toEqual({
        id: expect.any(Number),
        name: 'Olive',
        email,
        created: true,
        account: workspace.id,
        role: 'owner',
      });
      // The password is the operator's own: it is never echoed.
      expect(result.stdout + result.stderr).not.toContain(password);
      const session = await signIn(email);
      expect(session.status).toBe(201);
      expect(session.body.data.workspace).toEqual({ id: workspace.id, name: 'People Inc', role: 'owner' });
      const log = await t
        .http()
        .get('/api/v1/audit-log?action=member.created')
        .set('Authorization', `Bearer ${workspace.api_key}`);
      expect(log.body.data[0]).toMatchObject({
        actor: { type: 'cli', id: null, name: null },
        target: { type: 'member', id: made.id },
        changes: { role: [null, 'owner'] },
        ip: null,
      });
    });

    it('user:invite prints a link that makes the member; member:set-role changes their role', async () => {
      const email = `cli-invited-${process.pid}@example.com`;
      const result = await runCli([
        'user:invite',
        '--account',
        String(workspace.id),
        '--email',
        email,
        '--role',
        'viewer',
      ]);
      expectCode(result, 0);
      const invitation = JSON.parse(lastLine(result.stdout)) as { accept_url: string; role: string };
      expect(invitation.role).toBe('viewer');
      const token = new URL(invitation.accept_url).searchParams.get('token');
      const accepted = await t
        .http()
        .post('/api/v1/invitations/accept')
        .send({ token, name: 'Vi', password });
      expect(accepted.status).toBe(201);

      const changed = await runCli([
        'member:set-role',
        '--account',
        String(workspace.id),
        '--email',
        email,
        '--role',
        'owner',
      ]);
      expectCode(changed, 0);
      expect(JSON.parse(lastLine(changed.stdout))).toMatchObject({ email, role: 'owner' });
      expect((await signIn(email)).body.data.workspace.role).toBe('owner');
    });

    it('user:reset-password sets a password, or prints a one-time link to choose one', async () => {
      const email = `cli-owner-${process.pid}@example.com`;
      const set = await runCli([
        'user:reset-password',
        '--email',
        email,
        '--password',
        'another cli password',
      ]);
      expectCode(set, 0);
      expect((await signIn(email, 'another cli password')).status).toBe(201);
      const link = await runCli(['user:reset-password', '--email', email]);
      expectCode(link, 0);
      const { reset_url: url } = JSON.parse(lastLine(link.stdout)) as { reset_url: string };
      const reset = await t
        .http()
        .post('/api/v1/password/reset')
        .send({ token: new URL(url).searchParams.get('token'), password: 'a third cli password' });
      expect(reset.status).toBe(200);
      expect((await signIn(email, 'a third cli password')).status).toBe(201);
    });

    it('refuses an unknown user, a bad role and a short password', async () => {
      expectFailure(
        await runCli(['user:reset-password', '--email', 'nobody@example.com']),
        1,
        /No user with email/,
      );
      expectFailure(
        await runCli([
          'member:set-role',
          '--account',
          String(workspace.id),
          '--email',
          'x@example.com',
          '--role',
          'king',
        ]),
        64,
        /--role must be one of owner, admin, editor, viewer/,
      );
      expectFailure(
        await runCli(['user:create', '--email', 'x@example.com', '--password', 'short']),
        64,
        /--password must be 10 to 256 characters/,
      );
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

  describe('stats:rebuild', () => {
    it('--link ID recounts that link’s rollups from its raw clicks and prints {"links": 1, "clicks": N}', async () => {
      const owner = await createAccount(t);
      const { id: linkId } = await createLink(t, owner, { url: 'https://example.com/rebuilt' });
      await t.dataSource.query(
        `INSERT INTO clicks (link_id, country) VALUES ($1, 'GB'), ($1, 'GB'), ($1, NULL)`,
        [linkId],
      );
      // Rollups that went wrong, as an operator's hand-made SQL could leave them.
      await t.dataSource.query('UPDATE click_hours SET clicks = 99 WHERE link_id = $1', [linkId]);
      await t.dataSource.query('DELETE FROM click_days WHERE link_id = $1 AND dimension = 2', [linkId]);

      const result = await runCli(['stats:rebuild', '--link', String(linkId)]);
      expectCode(result, 0);
      expect(lastLine(result.stdout)).toBe('{"links": 1, "clicks": 3}');
      const [hours] = await t.dataSource.query<{ clicks: number }[]>(
        'SELECT sum(clicks)::int AS clicks FROM click_hours WHERE link_id = $1',
        [linkId],
      );
      expect(hours.clicks).toBe(3);
      const countries = await t.dataSource.query<{ value: number; clicks: number }[]>(
        'SELECT value, clicks FROM click_days WHERE link_id = $1 AND dimension = 2 ORDER BY clicks',
        [linkId],
      );
      expect(countries.map((row) => row.clicks)).toEqual([1, 2]);
    });

    it('--link of no link exits 1 with a message', async () => {
      expectFailure(await runCli(['stats:rebuild', '--link', '2147483000']), 1, /2147483000/);
      expectFailure(await runCli(['stats:rebuild', '--link', '9999999999']), 1, /9999999999/);
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

    it('key:list of an unknown account exits 1, listing nothing', async () => {
      const result = await runCli(['key:list', '--account', '2147483000']);
      expectFailure(result, 1, /No account with id 2147483000/);
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
      ['stats:rebuild with a non-numeric --link', ['stats:rebuild', '--link', 'abc']],
      ['stats:rebuild with --link and no value', ['stats:rebuild', '--link']],
      [
        'key:create with an unknown scope',
        ['key:create', '--account', '1', '--scopes', 'links.read,links.admin'],
      ],
      ['key:create with no scopes', ['key:create', '--account', '1', '--scopes', ',']],
      ['key:create with a past --expires', ['key:create', '--account', '1', '--expires', '2020-01-01 10:00']],
      [
        'key:create with an --expires that is no date',
        ['key:create', '--account', '1', '--expires', 'tomorrow'],
      ],
      [
        'key:create with a --name over 100 characters',
        ['key:create', '--account', '1', '--name', 'n'.repeat(101)],
      ],
      ['key:list without --account', ['key:list']],
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

  describe('the command line', () => {
    const COMMANDS = [
      'account:create --name NAME [--email EMAIL]',
      'account:update --account ID [--name NAME] [--email EMAIL]',
      'key:create --account ID',
      'key:revoke --key KEY',
      'migration:run',
      'migration:revert',
      'migration:show',
      'stats:rebuild [--link ID]',
    ];

    it.each([['--help'], ['-h'], ['help']])(
      '%s prints the usage of every command on stdout, exit 0',
      async (flag) => {
        const result = await runCli([flag]);
        expectCode(result, 0);
        expect(result.stdout).toMatch(/^Usage: cli <command> \[options\]\n/);
        for (const command of COMMANDS) expect(result.stdout).toContain(`\n  ${command}`);
        expect(result.stdout).toContain('create an account and its first API key');
        expect(result.stderr).toBe('');
      },
    );

    it('COMMAND --help prints that command’s usage and options on stdout, exit 0, and runs nothing', async () => {
      const result = await runCli(['account:create', '--help']);
      expectCode(result, 0);
      expect(result.stdout).toMatch(/^Usage: cli account:create --name NAME \[--email EMAIL\]\n/);
      expect(result.stdout).toMatch(/--name NAME +the account's name \(required\)/);
      expect(result.stdout).toMatch(/--email EMAIL +the account's email address\n/);
      expect(result.stdout).not.toContain('api_key');
      expect(result.stderr).toBe('');
    });

    it('an unknown option exits 64, naming it, with the usage on stderr', async () => {
      const result = await runCli(['account:create', '--name', 'x', '--emial', 'a@b.example']);
      expectFailure(result, 64, /Usage/);
      expect(result.stderr).toMatch(/^Unknown option '--emial'\n/);
      expect(result.stdout).toBe('');
    });

    it('the usage errors keep their messages: the first line on stderr says what is wrong', async () => {
      const cases: [string[], string][] = [
        [[], 'No command given'],
        [['account:destroy'], 'Unknown command: account:destroy'],
        [['account:create'], 'Missing --name'],
        [['account:create', '--name', '--email', 'a@b.example'], 'Missing --name'],
        [['account:create', '--name', ' '], 'Missing --name'],
        [['account:create', '--name', 'x', '--email'], 'Missing --email'],
        [['key:create', '--account', '0'], '--account must be an account id'],
        [['account:update', '--account', '1'], 'account:update needs --name or --email'],
      ];
      for (const [args, message] of cases) {
        const result = await runCli(args);
        expectFailure(result, 64, /Usage/);
        expect(result.stderr.split('\n')[0]).toBe(message);
      }
    });

    it('reads the command line before any database: a usage error or --help needs none and opens none', async () => {
      const dataDir = tempDir('shortlink-cli-usage-');
      try {
        const unreachable = `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`;
        expectFailure(
          await runCli(['account:create'], { env: childEnv({ DATABASE_URL: unreachable }) }),
          64,
          /Missing --name/,
        );
        // No DATABASE_URL: the embedded database under DATA_DIR would be opened, and is not.
        const embedded = childEnv({ DATA_DIR: dataDir }, { embedded: true });
        expectCode(await runCli(['--help'], { env: embedded }), 0);
        expectFailure(await runCli(['key:revoke'], { env: embedded }), 64, /Missing --key/);
        expect(readdirSync(dataDir)).toEqual([]);
      } finally {
        removeDir(dataDir);
      }
    });
  });

  it('migration commands on a database of their own: show, run, revert, and run again', async () => {
    const scratch = await scratchDatabase('shortlink_cli_migrations');
    try {
      const env = childEnv({ DATABASE_URL: scratch.url });
      const run = async (args: string[]) => {
        const result = await runCli(args, { env });
        expectCode(result, 0);
        expectNoOtherSecret(result);
        return JSON.parse(lastLine(result.stdout)) as Record<string, unknown>;
      };
      // Nothing is applied before the command says so.
      expect(await run(['migration:show'])).toEqual({ pending: true });
      const { applied } = (await run(['migration:run'])) as { applied: string[] };
      expect(applied.length).toBeGreaterThan(1);
      expect(await run(['migration:show'])).toEqual({ pending: false });
      expect(await run(['migration:revert'])).toEqual({ reverted: true });
      expect(await run(['migration:show'])).toEqual({ pending: true });
      expect(await run(['migration:run'])).toEqual({ applied: [applied[applied.length - 1]] });
      expect(await run(['migration:show'])).toEqual({ pending: false });
    } finally {
      await scratch.drop();
    }
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
