import { fork } from 'node:child_process';
import { join } from 'node:path';
import { BROWSER_UA, type Scenario } from '../context';
import { burst, quantile } from '../http';
import { grouped } from '../report';
import { compare, Tally, timedRow, verdict, type Comparison } from './common';

/** The largest body the service reads on the bulk and import routes (2 MiB); one byte more is a 413. */
const BULK_BODY_BYTES = 2 * 1024 * 1024;

/** Maximal requests of each kind kept in flight while the redirects are measured. */
const IN_FLIGHT = 4;

/** Redirects of the quick mode's burst, sent while the maximal requests run. */
const QUICK_REDIRECTS = 400;

const TOO_MANY_LINKS =
  '422 {"message":{"links":["The links field must have between 1 and 1000 items."]},"status":422}';
const TOO_LARGE = '413 {"message":"Payload too large.","status":413}';

interface Sent {
  status: number;
  body: string;
  ms: number;
}

/** What the client got for one kind of request. */
interface Answers {
  maximal: Sent[];
  oversized: Sent[];
  failures: string[];
}

type Report = Record<'bulk' | 'import', Answers>;

/** The hostile client (`bench/pressure-client.js`), in a process of its own; `stop()` ends it and gives its answers. */
function startPressure(origin: string, key: string, times: number | null) {
  const config = { origin, key, limit: BULK_BODY_BYTES, inFlight: IN_FLIGHT, times };
  const child = fork(join(__dirname, '..', 'pressure-client.js'), [JSON.stringify(config)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report = new Promise<Report>((resolve, reject) => {
    child.on('message', (message) => resolve(message as Report));
    child.on('error', reject);
    child.on('exit', (code) =>
      reject(new Error(`The pressure client exited ${String(code)} without a report`)),
    );
  });
  return {
    report,
    stop: () => {
      if (child.connected) child.send('stop');
      return report;
    },
  };
}

function ms(values: number[], q: number): string {
  return values.length === 0 ? '?' : quantile(values, q).toFixed(0);
}

/** Each answer unlike `expected`, counted. */
function others(sent: Sent[], expected: string): string[] {
  const counts = new Map<string, number>();
  for (const { status, body } of sent) {
    const answer = `${status} ${body}`;
    if (answer !== expected) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  }
  return [...counts].map(([answer, count]) => `${grouped(count)}× ${answer.slice(0, 120)}`);
}

/**
 * Redirects while four maximal bulk creates and four maximal imports are in flight all the time: the largest
 * bodies those routes read, each refused (422, too many links) without building what it holds, so that the
 * visitors meanwhile keep their p99 under 50 ms. Quick: the refusals (422 at the limit, 413 one byte past it) and
 * a burst of redirects sent meanwhile, every one answered.
 */
export const pressureRedirects: Scenario = {
  async run(context) {
    const { options, service, apiKey } = context;
    const headers = { 'User-Agent': BROWSER_UA };
    const paths = context.pressureAliases.map((alias) => `/${alias}`);
    const tally = new Tally();
    let comparison: Comparison | null = null;
    let report: Report;
    if (options.quick) {
      const pressure = startPressure(service.origin, apiKey, IN_FLIGHT * 2);
      tally.addBurst(
        await burst(service.origin, QUICK_REDIRECTS, options.connections, (index) => ({
          path: paths[index % paths.length],
          headers,
        })),
      );
      report = await pressure.report;
    } else {
      // Started with the service's runs (its warm-up included), not the baseline's.
      const started: { report?: Promise<Report> } = {};
      const spec = { paths, headers, connections: options.connections };
      comparison = await compare(context, spec, tally, async (runs) => {
        const pressure = startPressure(service.origin, apiKey, null);
        try {
          return await runs();
        } finally {
          started.report = pressure.stop();
        }
      });
      if (started.report === undefined) throw new Error('The pressure client never started');
      report = await started.report;
    }

    const problems: string[] = [];
    const facts: string[] = [`3xx ${grouped(tally.redirects)}`];
    for (const [name, answers] of Object.entries(report)) {
      const times = answers.maximal.map((sent) => sent.ms);
      facts.push(
        `${name}: ${grouped(answers.maximal.length)} maximal (p50 ${ms(times, 0.5)} ms, p99 ${ms(times, 0.99)} ms), ` +
          `+1 byte ${answers.oversized.map((sent) => sent.status).join(',')}`,
      );
      if (answers.maximal.length === 0) problems.push(`no maximal ${name} answered`);
      for (const other of others(answers.maximal, TOO_MANY_LINKS)) problems.push(`${name}: ${other}`);
      for (const other of others(answers.oversized, TOO_LARGE)) problems.push(`${name} +1 byte: ${other}`);
      if (answers.oversized.length !== 1)
        problems.push(`${name} +1 byte: ${answers.oversized.length} answers`);
      if (answers.failures.length > 0) {
        problems.push(`${answers.failures.length} ${name} requests failed: ${answers.failures[0]}`);
      }
    }
    if (tally.others.size > 0) problems.push(`redirects answered otherwise: ${tally.othersText()}`);
    if (tally.redirects === 0) problems.push('no redirect answered');
    if (options.quick && tally.redirects !== QUICK_REDIRECTS) {
      problems.push(`${grouped(QUICK_REDIRECTS - tally.redirects)} redirects unanswered`);
    }
    return (exitCode) => {
      if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
      const scenario = `redirect under ${IN_FLIGHT}+${IN_FLIGHT} maximal bulk/import`;
      return Promise.resolve([
        { ...timedRow(scenario, comparison, { maxP99Ms: 50 }), ...verdict(problems, facts.join('; ')) },
      ]);
    };
  },
};
