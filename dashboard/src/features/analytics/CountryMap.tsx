import { WorldMap, type CountryCount } from '../../components/WorldMap';
import { useI18n } from '../../i18n/I18nProvider';
import { countryName } from '../../i18n/names';
import type { StatsRow } from '../../api/types';
import { useLiveLoad } from '../../session/LiveProvider';
import { displayValue } from '../stats/dimensions';
import { LoadedCard } from './LoadedCard';

/** The most countries one request lists: every country with clicks but in the rarest of workspaces. */
const COUNTRIES = 100 as const;

/** The API's country rows (`GB:United Kingdom`) as the map's counts, the unknown country left out. */
export function countryCounts(rows: readonly StatsRow[], name: (value: string) => string): CountryCount[] {
  return rows.flatMap((row) => {
    const code = row.value?.split(':', 1)[0] ?? '';
    return /^[A-Z]{2}$/.test(code) ? [{ code, name: name(row.value ?? code), count: row.count }] : [];
  });
}

/** The country rows of a stats route (the workspace's, a link's), narrowed by the screen's filters. */
export type CountryRows = (
  rows: { name: 'country'; per_page: typeof COUNTRIES },
  signal: AbortSignal,
) => Promise<{ data: StatsRow[] }>;

/**
 * Visits by country over the screen's filters: a world map, a legend, and a table of the same counts. `loadKey` names
 * what `load` reads, which is read again when it changes.
 */
export function CountryMap({ loadKey, load }: { loadKey: string; load: CountryRows }) {
  const { t, number, language } = useI18n();
  const loaded = useLiveLoad(`map:${loadKey}`, (signal) =>
    load({ name: 'country', per_page: COUNTRIES }, signal),
  );
  const rows = countryCounts(loaded.data?.data ?? [], (value) => displayValue('country', value, language, t));
  return (
    <LoadedCard
      title={t.analytics.map}
      loaded={loaded}
      empty={t.stats.noClicks}
      isEmpty={() => rows.length === 0}
    >
      {() => (
        <WorldMap
          title={t.analytics.mapTitle}
          rows={rows}
          describe={(name, count) => t.analytics.countryClicks(name, count, number(count))}
          countryHeading={t.analytics.country}
          countHeading={t.stats.clicks}
          legendTitle={t.analytics.legend}
          none={t.analytics.noneShade}
          between={t.analytics.between}
          formatNumber={number}
          nameOf={(code) => countryName(language, code)}
        />
      )}
    </LoadedCard>
  );
}
