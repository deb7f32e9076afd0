import type { StatsRow } from '../../api/types';
import type { Bar } from '../../components/BarChart';

/** The API's click buckets by the width of their label: `Y-m-d H`, `Y-m-d`, `Y-m`, `Y`. */
type Granularity = 'hour' | 'day' | 'month' | 'year';

const BY_LENGTH: Record<number, Granularity> = { 13: 'hour', 10: 'day', 7: 'month', 4: 'year' };
const MAX_BARS = 1000;

const pad = (value: number) => String(value).padStart(2, '0');

function labelsBetween(granularity: Granularity, from: string, to: string): string[] {
  const labels: string[] = [];
  if (granularity === 'hour') {
    for (let hour = 0; hour < 24; hour++) labels.push(`${from} ${pad(hour)}`);
    return labels;
  }
  const day = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || Number.isNaN(end.getTime())) return labels;
  while (day <= end && labels.length <= MAX_BARS) {
    const year = day.getUTCFullYear();
    const month = `${year}-${pad(day.getUTCMonth() + 1)}`;
    if (granularity === 'day') {
      labels.push(`${month}-${pad(day.getUTCDate())}`);
      day.setUTCDate(day.getUTCDate() + 1);
    } else if (granularity === 'month') {
      labels.push(month);
      day.setUTCDate(1);
      day.setUTCMonth(day.getUTCMonth() + 1);
    } else {
      labels.push(String(year));
      day.setUTCMonth(0, 1);
      day.setUTCFullYear(year + 1);
    }
  }
  return labels;
}

/**
 * The chart's bars for the API's buckets, with the empty buckets between `from` and `to` filled in as zero: the
 * API lists only the buckets that had clicks, and a chart with gaps closed up would mislead.
 */
export function clickBars(rows: readonly StatsRow[], from: string, to: string): Bar[] {
  const counts = new Map(rows.map((row) => [row.value ?? '', row.count]));
  const first = rows[0]?.value;
  const granularity = first == null ? undefined : BY_LENGTH[first.length];
  const labels = granularity === undefined ? [] : labelsBetween(granularity, from, to);
  const all =
    labels.length > 0 && labels.length <= MAX_BARS && rows.every((row) => labels.includes(row.value ?? ''))
      ? labels
      : rows.map((row) => row.value ?? '');
  return all.map((label) => ({ label, value: counts.get(label) ?? 0 }));
}

/** A day as the API writes it, `Y-m-d`, in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return utcDay(date);
}
