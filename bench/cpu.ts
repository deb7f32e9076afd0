import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time, from /proc (Linux): what a request costs each process, which, unlike req/s, hardly depends on what
 * else the machine is doing. Every reading is in milliseconds and null where /proc cannot be read.
 */

/** Clock ticks per second of /proc's counters (USER_HZ): 100 on every Linux build that matters. */
const TICK_MS = 10;

/** User and system time of one process: fields 14 and 15 of /proc/<pid>/stat, after the command's parentheses. */
function processTicks(pid: number | string): { name: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    return { name, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const use = processTicks(pid);
  return use === null ? null : use.ticks * TICK_MS;
}

/**
 * Every PostgreSQL process of the machine: the backends serving the service and the server's own (WAL writer,
 * checkpointer, autovacuum). A backend that exits between two readings takes its time with it, so the service's
 * pool keeps its connections open for the run.
 */
export function postgresCpuMs(): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const use = processTicks(entry);
    if (use !== null && (use.name === 'postgres' || use.name.startsWith('postgres:'))) ticks += use.ticks;
  }
  return ticks * TICK_MS;
}

/**
 * Busy time of this machine, every core: /proc/stat's user, nice, system, irq and softirq (not idle, iowait, or
 * the steal time a virtual machine's host gave to others).
 */
export function machineCpuMs(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq) * TICK_MS;
  } catch {
    return null;
  }
}

/** CPU microseconds per request of a timed run: of the server process, of PostgreSQL, of the whole machine. */
export interface CpuPerRequest {
  server: number | null;
  postgres: number | null;
  machine: number | null;
}

/** Starts a measurement of the server `pid`; the returned function ends it, given the requests answered. */
export function measureCpu(pid: number | undefined): (requests: number) => CpuPerRequest {
  const before = { server: processCpuMs(pid), postgres: postgresCpuMs(), machine: machineCpuMs() };
  return (requests) => {
    const per = (start: number | null, end: number | null) =>
      start === null || end === null || requests === 0 ? null : ((end - start) * 1000) / requests;
    return {
      server: per(before.server, processCpuMs(pid)),
      postgres: per(before.postgres, postgresCpuMs()),
      machine: per(before.machine, machineCpuMs()),
    };
  };
}
