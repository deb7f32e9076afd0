import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadTool } from './options';

/** One timed run of many connections against a server: the same settings for the baseline and the service. */
export interface LoadSpec {
  origin: string;
  /** Each request takes one of these at random. */
  paths: readonly string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** Answers are counted by these Location values too (the rotating link's targets). */
  locations?: readonly string[];
}

export interface LoadResult {
  /** Answers received, of any status. */
  answers: number;
  /** Answers by status class: [1xx, 2xx, 3xx, 4xx, 5xx]. */
  byClass: [number, number, number, number, number];
  /** Answers per entry of `locations`. */
  byLocation: number[];
  /** Connections that failed or requests that timed out: each may have reached the server unseen. */
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** The slowest answer. */
  maxMs: number;
}

const WRK_SCRIPT = join(__dirname, 'wrk.lua');
const REQUEST_TIMEOUT_S = 10;

export function runLoad(tool: LoadTool, spec: LoadSpec, scratch: string): Promise<LoadResult> {
  if (!spec.origin.startsWith('http://127.0.0.1:')) throw new Error(`The bench only loads 127.0.0.1`);
  return tool === 'wrk' ? runWrk(spec, scratch) : runAutocannon(spec);
}

interface WrkSummary {
  requests: number;
  duration_us: number;
  p50_us: number;
  p99_us: number;
  max_us: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  c1: number;
  c2: number;
  c3: number;
  c4: number;
  c5: number;
  locations: number[];
}

async function runWrk(spec: LoadSpec, scratch: string): Promise<LoadResult> {
  const pathsFile = join(scratch, 'wrk-paths.txt');
  writeFileSync(pathsFile, `${spec.paths.join('\n')}\n`);
  const threads = Math.min(2, spec.connections);
  const args = [
    `-t${threads}`,
    `-c${spec.connections}`,
    `-d${spec.seconds}s`,
    `--timeout`,
    `${REQUEST_TIMEOUT_S}s`,
    '-s',
    WRK_SCRIPT,
    ...Object.entries(spec.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    spec.origin,
  ];
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      'wrk',
      args,
      {
        env: {
          ...process.env,
          BENCH_PATHS_FILE: pathsFile,
          BENCH_LOCATIONS: (spec.locations ?? []).join('\n'),
        },
        timeout: (spec.seconds + 60) * 1000,
        maxBuffer: 1 << 20,
      },
      (error, out, err) => (error ? reject(new Error(`wrk failed: ${error.message}\n${err}`)) : resolve(out)),
    );
  });
  const line = stdout.split('\n').find((text) => text.startsWith('BENCH_RESULT '));
  if (line === undefined) throw new Error(`wrk printed no result:\n${stdout}`);
  const summary = JSON.parse(line.slice('BENCH_RESULT '.length)) as WrkSummary;
  const seconds = summary.duration_us / 1e6;
  return {
    answers: summary.requests,
    byClass: [summary.c1, summary.c2, summary.c3, summary.c4, summary.c5],
    byLocation: summary.locations,
    errors: summary.connect + summary.read + summary.write + summary.timeout,
    seconds,
    rps: summary.requests / seconds,
    p50Ms: summary.p50_us / 1000,
    p99Ms: summary.p99_us / 1000,
    maxMs: summary.max_us / 1000,
  };
}

interface ParsedHeaders {
  headers?: string[];
}

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const locations = spec.locations ?? [];
  const byLocation = locations.map(() => 0);
  const paths = spec.paths;
  const result = await autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: REQUEST_TIMEOUT_S,
    headers: spec.headers,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)] }),
      },
    ],
    setupClient:
      locations.length === 0
        ? undefined
        : (client) => {
            // The raw parser event: a flat [name, value, ...] list.
            (client as unknown as NodeJS.EventEmitter).on('headers', ({ headers = [] }: ParsedHeaders) => {
              for (let index = 0; index < headers.length; index += 2) {
                if (headers[index].toLowerCase() !== 'location') continue;
                const at = locations.indexOf(headers[index + 1]);
                if (at !== -1) byLocation[at] += 1;
              }
            });
          },
  });
  const counts = result as unknown as Record<'1xx' | '2xx' | '3xx' | '4xx' | '5xx', number>;
  const answers = counts['1xx'] + counts['2xx'] + counts['3xx'] + counts['4xx'] + counts['5xx'];
  return {
    answers,
    byClass: [counts['1xx'], counts['2xx'], counts['3xx'], counts['4xx'], counts['5xx']],
    byLocation,
    errors: result.errors + result.timeouts,
    seconds: result.duration,
    rps: answers / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
  };
}
