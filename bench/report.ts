import type { CpuPerRequest } from './cpu';

/** One line of the bench's table. Timing targets and correctness checks are judged apart. */
export interface Row {
  scenario: string;
  rps?: number;
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
  baselineRps?: number;
  /** Empty when the scenario has no target. */
  target: string;
  /** Whether the timing targets were met; null when none is judged. */
  met: boolean | null;
  /** Whether the correctness checks held; null when none applies. */
  correct: boolean | null;
  /** What was checked, with the numbers: clicks answered versus recorded, totals, order. */
  check: string;
  peakMemoryMb?: number | null;
  /** CPU per request of the timed runs of the service and of the baseline. */
  cpu?: { service: CpuPerRequest; baseline: CpuPerRequest | null };
}

/** Resident memory every scenario must stay under. */
export const MEMORY_LIMIT_MB = 300;

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits);
}

/**
 * `node N, pg N, all N; base N, all N`: CPU microseconds per request of the service process, of PostgreSQL and of
 * the whole machine (the load generator included), then of the baseline process and the machine in its run.
 */
function cpuText(cpu: Row['cpu']): string {
  if (cpu === undefined) return '';
  const us = (value: number | null) => (value === null ? '?' : value.toFixed(0));
  const { service, baseline } = cpu;
  const text = `node ${us(service.server)}, pg ${us(service.postgres)}, all ${us(service.machine)}`;
  return baseline === null ? text : `${text}; base ${us(baseline.server)}, all ${us(baseline.machine)}`;
}

export function grouped(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A Markdown table, so that it can be pasted into the docs as printed. */
export function formatTable(rows: readonly Row[]): string {
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'baseline req/s',
    'ratio',
    'RSS MB',
    'target',
    'result',
    'CPU µs/request',
    'check',
  ];
  const right = new Set([1, 2, 3, 4, 5, 6, 7]);
  const cells = rows.map((row) => [
    row.scenario,
    row.rps === undefined ? '' : grouped(row.rps),
    fixed(row.p50Ms, 1),
    fixed(row.p95Ms, 1),
    fixed(row.p99Ms, 1),
    row.baselineRps === undefined ? '' : grouped(row.baselineRps),
    row.rps === undefined || row.baselineRps === undefined ? '' : (row.rps / row.baselineRps).toFixed(3),
    row.peakMemoryMb === undefined || row.peakMemoryMb === null ? '' : row.peakMemoryMb.toFixed(0),
    row.target,
    row.met === null ? '' : row.met ? 'pass' : 'FAIL',
    cpuText(row.cpu),
    `${row.correct === null ? '' : row.correct ? 'ok: ' : 'WRONG: '}${row.check}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column].length)),
  );
  const line = (values: string[]) =>
    `| ${values
      .map((value, column) =>
        right.has(column) ? value.padStart(widths[column]) : value.padEnd(widths[column]),
      )
      .join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (right.has(column) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}
