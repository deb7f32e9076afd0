import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchDatabase } from './database';
import { buildService, freePort, imageNodeOptions } from './processes';

/**
 * The soak: one service process under a steady mixed load for a long while (10 minutes by default): API writes and
 * reads, visits through every rule the redirect has, stats reads. It reports the errors (there must be none), the
 * resident memory at the start and the end (growth under 20%), the event loop's delay (p99), and the clicks
 * recorded against the visits answered as counted (equal).
 *
 *   npm run soak                        10 minutes, about 200 requests a second
 *   npm run soak -- --minutes=30 --rate=400
 *
 * It needs a PostgreSQL server where BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) may
 * create a database; the database is dropped at the end.
 */

const ROOT = join(__dirname, '..');
const WARM_UP_MS = 60_000;
const MAX_IN_FLIGHT = 64;

interface Options {
  minutes: number;
  rate: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { minutes: 10, rate: 200 };
  for (const argument of argv) {
    const match = /^--(minutes|rate)=(\d+(?:\.\d+)?)$/.exec(argument);
    if (match === null)
      throw new Error(`Unknown argument ${argument}; usage: npm run soak -- [--minutes=N] [--rate=N]`);
    options[match[1] as keyof Options] = Number(match[2]);
  }
  return options;
}

function say(message: string): void {
  process.stderr.write(`[soak] ${message}\n`);
}

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(
  origin: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(path, origin),
      { method, headers, agent, timeout: 10_000 },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            location: incoming.headers.location,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 10 s')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const BOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** The service with the event-loop probe loaded, configured as the bench runs it. */
function startService(
  databaseUrl: string,
  port: number,
  apiKey: string,
  probeFile: string,
  logFile: string,
): ChildProcess {
  const log = createWriteStream(logFile);
  const child = spawn(
    process.execPath,
    ['--require', join(__dirname, 'soak-probe.js'), join(ROOT, 'dist', 'main.js')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NODE_OPTIONS: imageNodeOptions(),
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        // Any free port: two instances, or two runs, on one machine must not ask for the same one.
        METRICS_PORT: '0',
        APP_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
        VISITOR_RATE_LIMIT_PER_MINUTE: '0',
        INITIAL_API_KEY: apiKey,
        TRUST_PROXY: 'loopback',
        SOAK_PROBE_FILE: probeFile,
      },
    },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  child.once('exit', () => log.end());
  return child;
}

interface Probe {
  rssMb: number;
  delay: { p50: number; p99: number; max: number; mean: number };
}

function readProbe(file: string): Probe | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Probe;
  } catch {
    return null;
  }
}

/** One kind of request in the mix: what it sends, and which answers are right. */
interface Operation {
  name: string;
  weight: number;
  run: () => Promise<{ ok: boolean; detail: string }>;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  await buildService();
  const database = new BenchDatabase(
    process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  const work = mkdtempSync(join(tmpdir(), 'shortlink-soak-'));
  const probeFile = join(work, 'probe.json');
  const apiKey = `soak_${randomBytes(24).toString('hex')}`;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const stop = async () => {
    if (child !== null && child.exitCode === null) child.kill('SIGKILL');
    await database.drop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));

  try {
    await database.create();
    child = startService(database.url, port, apiKey, probeFile, join(work, 'service.log'));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    for (let ready = false; !ready; await sleep(200)) {
      if (child.exitCode !== null)
        throw new Error(
          `The service exited while starting:\n${readFileSync(join(work, 'service.log'), 'utf8')}`,
        );
      ready = await call(origin, 'GET', '/health/ready').then(
        (answer) => answer.status === 200,
        () => false,
      );
    }
    const auth = { Authorization: `Bearer ${apiKey}` };
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const answer = await call(origin, method, path, { headers: auth, body });
      if (answer.status >= 300)
        throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
      return (JSON.parse(answer.body) as { data: T }).data;
    };

    // The links every visit rule needs, and a pool of links the API writes work on.
    const space = await api<{ id: number }>('POST', '/api/v1/spaces', { name: 'Soak' });
    const pixel = await api<{ id: number }>('POST', '/api/v1/pixels', {
      name: 'Tag',
      type: 'facebook',
      value: '123456789012345',
    });
    const link = (fields: Record<string, unknown>) =>
      api<{ id: number; alias: string }>('POST', '/api/v1/links', {
        url: 'https://example.com/soak',
        space_id: space.id,
        ...fields,
      });
    const plain = await Promise.all(Array.from({ length: 50 }, () => link({})));
    const targeted = await link({
      targets_type: 'countries',
      targets: [{ key: 'GB', value: 'https://example.com/gb' }],
    });
    const languages = await link({
      targets_type: 'languages',
      targets: [{ key: 'fr', value: 'https://example.com/fr' }],
    });
    const rotating = await link({
      targets_type: 'rotations',
      targets: [1, 2, 3].map((n) => ({ value: `https://example.com/r${n}` })),
    });
    const limited = await link({ clicks_limit: 2_000, expiration_url: 'https://example.com/over' });
    const password = await link({ redirect_password: 'soak secret' });
    const sensitive = await link({ sensitive_content: 1 });
    const both = await link({ redirect_password: 'soak secret', sensitive_content: 1 });
    const pixels = await link({ pixel_ids: [pixel.id] });
    const expired = await link({
      active_period_start_at: '2020-01-01 00:00',
      active_period_end_at: '2020-01-02 00:00',
    });
    const disabled = await link({ disabled: 1 });
    const counted = new Map<number, number>();
    const count = (id: number) => counted.set(id, (counted.get(id) ?? 0) + 1);
    const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];
    const visit = (alias: string, headers: Record<string, string> = {}) =>
      call(origin, 'GET', `/${alias}?utm_source=soak`, { headers: { 'User-Agent': BROWSER, ...headers } });
    const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
      call(origin, 'POST', path, { headers: { 'User-Agent': BROWSER, ...headers }, body });
    // Each password visitor an address of its own, so that one's wrong guesses do not lock out the others.
    const visitor = () => ({
      'X-Forwarded-For': `198.51.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`,
    });
    const hidden = (html: string, name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
    const result = (ok: boolean, answer: Answer) => ({
      ok,
      detail: `${answer.status} ${answer.body.slice(0, 200)}`,
    });
    const created: number[] = [];
    const deleted = new Set<number>();

    const operations: Operation[] = [
      {
        name: 'visit plain',
        weight: 30,
        run: async () => {
          const target = pick(plain);
          const answer = await visit(target.alias);
          if (answer.status === 302) count(target.id);
          return result(answer.status === 302, answer);
        },
      },
      {
        name: 'visit targeted',
        weight: 6,
        run: async () => {
          const britain = Math.random() < 0.5;
          const target = britain ? targeted : languages;
          const answer = await visit(
            target.alias,
            britain ? { 'X-Forwarded-For': '81.2.69.142' } : { 'Accept-Language': 'fr-FR' },
          );
          if (answer.status === 302) count(target.id);
          return result(answer.status === 302 && /example\.com\/(gb|fr)/.test(answer.location ?? ''), answer);
        },
      },
      {
        name: 'visit rotating',
        weight: 6,
        run: async () => {
          const answer = await visit(rotating.alias);
          if (answer.status === 302) count(rotating.id);
          return result(answer.status === 302 && /\/r[123]/.test(answer.location ?? ''), answer);
        },
      },
      {
        name: 'visit limited',
        weight: 4,
        run: async () => {
          const answer = await visit(limited.alias);
          const claimed =
            answer.status === 302 && answer.location?.startsWith('https://example.com/soak') === true;
          if (claimed) count(limited.id);
          // Past the limit: the expiration URL, not counted.
          return result(
            claimed || (answer.status === 302 && answer.location === 'https://example.com/over'),
            answer,
          );
        },
      },
      {
        name: 'visit with a password',
        weight: 3,
        run: async () => {
          const address = visitor();
          const page = await visit(password.alias, address);
          if (page.status !== 200) return result(false, page);
          const wrong = Math.random() < 0.1;
          const answer = await post(
            `/${password.alias}/password`,
            {
              password: wrong ? 'guess' : 'soak secret',
              q: hidden(page.body, 'q'),
              ref: hidden(page.body, 'ref'),
            },
            address,
          );
          if (answer.status === 302) count(password.id);
          return result(answer.status === (wrong ? 403 : 302), answer);
        },
      },
      {
        name: 'visit sensitive, and password then sensitive',
        weight: 3,
        run: async () => {
          const withPassword = Math.random() < 0.5;
          const target = withPassword ? both : sensitive;
          const address = visitor();
          let page = await visit(target.alias, address);
          if (withPassword && page.status === 200) {
            page = await post(
              `/${target.alias}/password`,
              { password: 'soak secret', q: hidden(page.body, 'q'), ref: hidden(page.body, 'ref') },
              address,
            );
          }
          if (page.status !== 200) return result(false, page);
          const answer = await post(
            `/${target.alias}/sensitive-consent`,
            { q: hidden(page.body, 'q'), ref: hidden(page.body, 'ref'), token: hidden(page.body, 'token') },
            address,
          );
          if (answer.status === 302) count(target.id);
          return result(answer.status === 302, answer);
        },
      },
      {
        name: 'visit with pixels',
        weight: 3,
        run: async () => {
          const answer = await visit(pixels.alias);
          if (answer.status === 200) count(pixels.id);
          return result(answer.status === 200 && answer.body.includes('http-equiv="refresh"'), answer);
        },
      },
      {
        name: 'visit as a bot, expired, disabled, unknown, preview, stats page',
        weight: 5,
        run: async () => {
          const choice = Math.floor(Math.random() * 6);
          const [answer, expected] = await [
            async () => [await visit(pick(plain).alias, { 'User-Agent': BOT }), 302] as const,
            async () => [await visit(expired.alias), 410] as const,
            async () => [await visit(disabled.alias), 404] as const,
            async () => [await visit(`missing-${randomBytes(4).toString('hex')}`), 404] as const,
            async () => [await call(origin, 'GET', `/${pick(plain).alias}/+`), 200] as const,
            async () => [await call(origin, 'GET', `/${pick(plain).alias}/stats`), 200] as const,
          ][choice]();
          return result(answer.status === expected, answer);
        },
      },
      {
        name: 'API writes',
        weight: 15,
        run: async () => {
          const choice = Math.random();
          if (choice < 0.4 || created.length < 10) {
            const answer = await call(origin, 'POST', '/api/v1/links', {
              headers: auth,
              body: {
                url: `https://example.com/new/${randomBytes(4).toString('hex')}`,
                title: 'Soak',
                space_id: space.id,
                pixel_ids: [pixel.id],
              },
            });
            if (answer.status === 201)
              created.push((JSON.parse(answer.body) as { data: { id: number } }).data.id);
            return result(answer.status === 201, answer);
          }
          if (choice < 0.8) {
            const id = pick(created);
            const answer = await call(origin, 'PATCH', `/api/v1/links/${id}`, {
              headers: auth,
              body: {
                url: `https://example.com/edited/${randomBytes(4).toString('hex')}`,
                clicks_limit: 100,
              },
            });
            // A link deleted by another operation meanwhile is rightly a 404.
            return result(answer.status === 200 || (answer.status === 404 && deleted.has(id)), answer);
          }
          if (choice < 0.9) {
            const id = created.splice(Math.floor(Math.random() * created.length), 1)[0];
            deleted.add(id);
            const answer = await call(origin, 'DELETE', `/api/v1/links/${id}`, { headers: auth });
            return result(answer.status === 200, answer);
          }
          const answer = await call(origin, 'PATCH', `/api/v1/spaces/${space.id}`, {
            headers: auth,
            body: { color: 1 + Math.floor(Math.random() * 6) },
          });
          return result(answer.status === 200, answer);
        },
      },
      {
        name: 'API reads',
        weight: 15,
        run: async () => {
          const path = pick([
            '/api/v1/links?per_page=25',
            '/api/v1/links?status=1&sort_by=clicks',
            `/api/v1/links?space_id=${space.id}&search=soak&search_by=url`,
            `/api/v1/links/${pick(plain).id}`,
            '/api/v1/spaces',
            '/api/v1/pixels',
            '/api/v1/domains',
            '/api/v1/account',
          ]);
          const answer = await call(origin, 'GET', path, { headers: auth });
          return result(answer.status === 200, answer);
        },
      },
      {
        name: 'stats reads',
        weight: 10,
        run: async () => {
          const name = pick(['clicks', 'country', 'browser', 'referrer', 'device']);
          const answer = await call(
            origin,
            'GET',
            `/api/v1/stats/${pick([...plain, rotating, limited]).id}?name=${name}`,
            { headers: auth },
          );
          return result(answer.status === 200, answer);
        },
      },
    ];
    const totalWeight = operations.reduce((sum, operation) => sum + operation.weight, 0);
    const choose = () => {
      let at = Math.random() * totalWeight;
      for (const operation of operations) {
        at -= operation.weight;
        if (at < 0) return operation;
      }
      return operations[0];
    };

    const stats = new Map<string, { sent: number; errors: number }>();
    const firstErrors: string[] = [];
    let sent = 0;
    let errors = 0;
    const started = Date.now();
    const endAt = started + options.minutes * 60_000;
    let warm: Probe | null = null;
    const idle = readProbe(probeFile);
    child.kill('SIGUSR2');
    say(
      `${options.minutes} minutes at ${options.rate} operations a second; the service listens on ${origin}`,
    );

    // A fixed rate, as long as the service keeps up: at most MAX_IN_FLIGHT operations wait for their answers, and
    // when that many do, the next one waits too (the report says how often), so that a slow machine slows the load
    // instead of piling up a queue that outlives the run.
    const inFlight = new Set<Promise<void>>();
    let next = Date.now();
    let lastReport = Date.now();
    let held = 0;
    while (Date.now() < endAt) {
      next += 1000 / options.rate;
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
      if (inFlight.size >= MAX_IN_FLIGHT) {
        held += 1;
        await Promise.race(inFlight);
        next = Date.now();
      }
      const operation = choose();
      const entry = stats.get(operation.name) ?? { sent: 0, errors: 0 };
      stats.set(operation.name, entry);
      entry.sent += 1;
      sent += 1;
      const running = operation
        .run()
        .catch((error: unknown) => ({ ok: false, detail: String(error) }))
        .then(({ ok, detail }) => {
          if (ok) return;
          errors += 1;
          entry.errors += 1;
          if (firstErrors.length < 10) {
            firstErrors.push(`${operation.name}: ${detail}`);
            say(`error at ${Math.round((Date.now() - started) / 1000)} s: ${operation.name}: ${detail}`);
          }
        });
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
      if (warm === null && Date.now() - started >= WARM_UP_MS) warm = readProbe(probeFile);
      if (Date.now() - lastReport >= 60_000) {
        lastReport = Date.now();
        const probe = readProbe(probeFile);
        say(
          `${Math.round((Date.now() - started) / 1000)} s: ${sent} sent, ${errors} errors, RSS ${probe?.rssMb ?? '?'} MB, event-loop p99 ${probe?.delay.p99 ?? '?'} ms`,
        );
      }
    }
    await Promise.all(inFlight);
    const end = readProbe(probeFile);
    const seconds = (Date.now() - started) / 1000;

    // SIGTERM: the service writes every click it still holds, then exits 0.
    child.kill('SIGTERM');
    const code = await exited;
    agent.destroy();
    const ids = [...counted.keys()];
    const { rows } = await database.db.query<{ counter: string; rows: string }>(
      `SELECT (SELECT coalesce(sum(clicks), 0) FROM link_counters WHERE link_id = ANY($1)) AS counter,
              (SELECT count(*) FROM clicks WHERE link_id = ANY($1)) AS rows`,
      [ids],
    );
    await database.closeConnections();
    const answered = [...counted.values()].reduce((sum, value) => sum + value, 0);
    const recorded = { counter: Number(rows[0].counter), rows: Number(rows[0].rows) };
    const startMb = warm?.rssMb ?? idle?.rssMb ?? 0;
    const endMb = end?.rssMb ?? 0;
    const growth = startMb === 0 ? NaN : (endMb - startMb) / startMb;

    const checks = [
      { name: 'errors', value: String(errors), pass: errors === 0 },
      {
        name: 'resident memory',
        value: `${idle?.rssMb ?? '?'} MB idle, ${startMb} MB after ${WARM_UP_MS / 1000} s of load, ${endMb} MB at the end (${(growth * 100).toFixed(1)}%)`,
        pass: growth < 0.2,
      },
      {
        name: 'event-loop delay',
        value: `p50 ${end?.delay.p50} ms, p99 ${end?.delay.p99} ms, max ${end?.delay.max} ms`,
        pass: end !== null,
      },
      {
        name: 'clicks',
        value: `${answered} visits answered as counted, ${recorded.counter} counted, ${recorded.rows} click rows`,
        pass: answered === recorded.counter && answered === recorded.rows,
      },
      { name: 'exit on SIGTERM', value: String(code), pass: code === 0 },
    ];
    const lines = [
      `Soak: ${seconds.toFixed(0)} s, ${sent} operations (${(sent / seconds).toFixed(0)}/s of the ${options.rate}/s asked; ` +
        `${held} times all ${MAX_IN_FLIGHT} in flight), ${new Date().toISOString().slice(0, 10)}`,
      '',
      '| check | result | pass |',
      '| --- | --- | --- |',
      ...checks.map((check) => `| ${check.name} | ${check.value} | ${check.pass ? 'yes' : 'NO'} |`),
      '',
      '| operation | sent | errors |',
      '| --- | ---: | ---: |',
      ...[...stats].map(([name, entry]) => `| ${name} | ${entry.sent} | ${entry.errors} |`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (firstErrors.length > 0) say(`first errors:\n  ${firstErrors.join('\n  ')}`);
    process.exitCode = checks.every((check) => check.pass) ? 0 : 1;
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[soak] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
