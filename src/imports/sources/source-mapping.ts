import { continentOf, isCountryCode } from '../../targeting/allowed-values';
import type { SourceRollups } from './source';

/*
 * What the adapters of shorteners that keep counts rather than visits (Bitly, Kutt) share in mapping them to
 * rollups, and what every adapter of an API shares in mapping a link's fields.
 */

/** A total of one value of a dimension, before it is put on a day. */
export type DimensionTotal = Omit<SourceRollups['days'][number], 'day'>;

/** A source's count of one value (a country, a referring domain). */
export interface ValueCount {
  value: string;
  clicks: number;
}

/** Clicks put at moments (milliseconds since the epoch, each a UTC hour's start), summed by moment, oldest first. */
export function hourTotals(placed: Iterable<{ at: number; clicks: number }>): SourceRollups['hours'] {
  const hours = new Map<number, number>();
  for (const { at, clicks } of placed) if (clicks > 0) hours.set(at, (hours.get(at) ?? 0) + clicks);
  return [...hours.entries()]
    .sort(([a], [b]) => a - b)
    .map(([at, clicks]) => ({ hour: new Date(at), clicks }));
}

/** The counts with clicks, in whole clicks: a source's zero, negative or non-numeric counts are none. */
export function positiveCounts(counts: readonly ValueCount[]): ValueCount[] {
  return counts
    .filter(({ clicks }) => Number.isFinite(clicks) && clicks > 0)
    .map(({ value, clicks }) => ({ value, clicks: Math.floor(clicks) }));
}

/**
 * Counts by country (ISO 3166-1 alpha-2, any case; anything else left out) as country totals, then their
 * continents' sums, as the stats keep them. `counts` are positive whole clicks ({@link positiveCounts}).
 */
export function countryTotals(counts: readonly ValueCount[]): DimensionTotal[] {
  const totals: DimensionTotal[] = [];
  const continents = new Map<string, number>();
  for (const { value, clicks } of counts) {
    const code = String(value).toUpperCase();
    if (!isCountryCode(code)) continue;
    totals.push({ dimension: 'country', value: code, clicks });
    const continent = continentOf(code);
    if (continent !== null) continents.set(continent, (continents.get(continent) ?? 0) + clicks);
  }
  for (const [value, clicks] of continents) totals.push({ dimension: 'continent', value, clicks });
  return totals;
}

/** A link's title as a create takes it (255 characters at most); absent, it is fetched from the target page. */
export function titleField(title: string | null | undefined): { title?: string } {
  return title ? { title: title.slice(0, 255) } : {};
}
