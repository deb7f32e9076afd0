import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROWSER_UA, type BenchContext, type Scenario } from '../context';
import { measureCpu } from '../cpu';
import { api, quantile, send, type Answer } from '../http';
import { runLoad } from '../load';
import { grouped } from '../report';
import { compare, Tally, timedRow, verdict, type Comparison } from './common';

/** Quick runs share one service: links of the scenario's own, since the others judge the clicks of theirs. */
const QUICK_LINKS = 20;
/** One client address asking for this many codes at a time, continuously... */
const QR_CONCURRENCY = 4;
/** ...as fast as its visitor limit lets it (600 a minute, the default). */
const QR_PER_SECOND = 10;
const PNG_SIGNATURE = '89504e470d0a1a0a';

/** A QR code as a visitor's browser asks for it. */
function fetchQr(origin: string, path: string, agent: Agent): Promise<Answer> {
  return send(origin, { path, headers: { 'User-Agent': BROWSER_UA } }, agent);
}

/** What is wrong with a QR answer, or null: a PNG of the size asked for, or an SVG. */
function qrProblem(answer: Answer, format: 'png' | 'svg', size: number): string | null {
  if (answer.status !== 200) return `status ${answer.status}`;
  const contentType = String(answer.headers['content-type'] ?? '');
  if (format === 'svg') {
    const text = answer.body;
    if (!contentType.startsWith('image/svg+xml')) return `content type ${contentType}`;
    return text.startsWith(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"`)
      ? null
      : 'not an SVG of the size asked for';
  }
  if (contentType !== 'image/png') return `content type ${contentType}`;
  const body = answer.bytes;
  if (body.length < 33 || body.subarray(0, 8).toString('hex') !== PNG_SIGNATURE) return 'not a PNG';
  if (body.subarray(12, 16).toString('latin1') !== 'IHDR') return 'no PNG header';
  const [width, height] = [body.readUInt32BE(16), body.readUInt32BE(20)];
  return width === size && height === size ? null : `a PNG of ${width}×${height}, not ${size}`;
}

/**
 * One client that asks for the largest codes the public route draws, a new colour each time (nothing cached
 * helps), a few at a time and as often as its visitor limit allows, until stopped.
 */
class QrClient {
  answers = 0;
  readonly problems = new Map<string, number>();
  readonly latenciesMs: number[] = [];
  private running = false;
  private done: Promise<void> = Promise.resolve();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: QR_CONCURRENCY });

  constructor(
    private readonly origin: string,
    private readonly alias: string,
    private readonly size: number,
  ) {}

  start(): void {
    this.running = true;
    let sent = 0;
    const started = performance.now();
    const loop = async () => {
      while (this.running) {
        const index = sent;
        sent += 1;
        const due = started + (index * 1000) / QR_PER_SECOND;
        if (due > performance.now()) await sleep(due - performance.now());
        if (!this.running) return;
        const color = (index * 2654435761) % 0x1000000;
        const path = `/${this.alias}/qr?format=png&size=${this.size}&color=${color.toString(16).padStart(6, '0')}`;
        try {
          const answer = await fetchQr(this.origin, path, this.agent);
          this.answers += 1;
          this.latenciesMs.push(answer.ms);
          const problem = qrProblem(answer, 'png', this.size);
          if (problem !== null) this.problems.set(problem, (this.problems.get(problem) ?? 0) + 1);
        } catch (error) {
          const problem = String(error);
          this.problems.set(problem, (this.problems.get(problem) ?? 0) + 1);
        }
      }
    };
    this.done = Promise.all(Array.from({ length: QR_CONCURRENCY }, loop)).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
    this.agent.destroy();
  }

  facts(): string {
    return (
      `QR: ${grouped(this.answers)} PNG of ${this.size} px, p50 ${quantile(this.latenciesMs, 0.5).toFixed(0)} ms, ` +
      `p99 ${quantile(this.latenciesMs, 0.99).toFixed(0)} ms`
    );
  }
}

/** The largest size the public route draws: 2048 unless its refusal names a smaller bound. */
async function largestPublicSize(origin: string, alias: string, agent: Agent): Promise<number> {
  const answer = await fetchQr(origin, `/${alias}/qr?format=png&size=2048`, agent);
  if (answer.status === 200) return 2048;
  const bound = /not be greater than (\d+)/.exec(answer.body);
  if (bound === null) throw new Error(`GET /${alias}/qr?size=2048 answered ${answer.status}`);
  return Number(bound[1]);
}

/** The plain links the baseline knows too; in a quick run, links of its own. */
async function linksToVisit(context: BenchContext): Promise<string[]> {
  const { service, apiKey, options } = context;
  if (!options.quick) return context.plainAliases;
  const aliases = Array.from({ length: QUICK_LINKS }, (_, index) => `qrp${Date.now().toString(36)}${index}`);
  for (const alias of aliases) {
    await api(service.origin, apiKey, {
      method: 'POST',
      path: '/api/v1/links',
      body: { url: `https://example.com/qr/${alias}`, alias, title: 'Bench QR pressure' },
    });
  }
  return aliases;
}

/**
 * Redirects of plain links, measured calm and then while one client asks for the largest QR codes continuously:
 * the redirects' p50 and p99 must hold. Quick: every QR answer is a valid image and every redirect answers.
 */
export const qrPressure: Scenario = {
  async run(context) {
    const { options, service, scratch } = context;
    const aliases = await linksToVisit(context);
    const probe = new Agent({ keepAlive: false });
    const size = await largestPublicSize(service.origin, aliases[0], probe);
    const problems: string[] = [];
    const svg = await fetchQr(service.origin, `/${aliases[0]}/qr?size=${size}`, probe);
    const svgProblem = qrProblem(svg, 'svg', size);
    if (svgProblem !== null) problems.push(`SVG: ${svgProblem}`);

    const spec = {
      paths: aliases.map((alias) => `/${alias}`),
      headers: { 'User-Agent': BROWSER_UA },
      connections: options.connections,
    };
    const tally = new Tally();
    let calm: Comparison | null = null;
    if (!options.quick) calm = await compare(context, spec, tally);

    const client = new QrClient(service.origin, aliases[1], size);
    client.start();
    // Let the client reach its pace before the redirects are timed.
    if (!options.quick) await sleep(1000);
    const cpu = measureCpu(service.pid);
    const pressed = await runLoad(
      options.load,
      { ...spec, origin: service.origin, seconds: options.duration },
      scratch,
    );
    const pressedCpu = cpu(pressed.answers);
    await client.stop();
    tally.addLoad(pressed, spec.connections);
    const underPressure: Comparison = {
      service: pressed,
      baseline: calm?.baseline ?? null,
      serviceCpu: pressedCpu,
      baselineCpu: calm?.baselineCpu ?? null,
    };

    return (exitCode) => {
      if (client.answers === 0) problems.push('no QR code answered');
      for (const [problem, count] of client.problems) problems.push(`QR: ${grouped(count)}× ${problem}`);
      if (tally.others.size > 0) problems.push(`redirects answered otherwise: ${tally.othersText()}`);
      if (tally.redirects === 0) problems.push('no redirect answered');
      if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
      const facts = `3xx ${grouped(tally.redirects)}; ${client.facts()}`;
      const rows = [
        {
          ...timedRow(
            `redirect under QR load (${QR_CONCURRENCY}×${size} px PNG, ≤${QR_PER_SECOND}/s)`,
            options.quick ? null : underPressure,
            { maxP99Ms: 10 },
          ),
          ...verdict(problems, facts),
        },
      ];
      if (calm !== null) {
        rows.unshift({
          ...timedRow('redirect beside it, calm', calm, { maxP99Ms: 10 }),
          ...verdict([], `${grouped(aliases.length)} plain links`),
        });
      }
      return Promise.resolve(rows);
    };
  },
};
