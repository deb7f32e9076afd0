import { useState } from 'react';
import { api, call } from '../../api/client';
import { FilterSelect } from '../../components/FilterSelect';
import { LoadError, Loading } from '../../components/LoadState';
import { useLoad } from '../../hooks/useLoad';
import { useI18n } from '../../i18n/I18nProvider';
import { useLiveLoad } from '../../session/LiveProvider';
import { useCan } from '../../session/SessionProvider';
import type { Choices } from '../links/useChoices';
import { clickBars } from '../stats/buckets';
import { ComparisonChart, type Series } from './ComparisonChart';
import {
  COMPARE_KINDS,
  comparisonQuery,
  MAX_COMPARED,
  type AnalyticsFilters,
  type CompareItem,
  type CompareKind,
} from './query';

/** The links offered for a comparison: those with the most clicks. */
const LINK_CHOICES = 25;

/** One series per item, each loaded with the item's own filter, in the order the items were picked. */
export async function loadSeries(
  items: readonly CompareItem[],
  filters: AnalyticsFilters,
  signal: AbortSignal,
): Promise<Series[]> {
  return Promise.all(
    items.map(async (item) => {
      const answer = await call(
        api.GET('/api/v1/stats', { params: { query: comparisonQuery(item, filters) }, signal }),
      );
      const rows = answer.data;
      const from = filters.from === '' ? (rows[0]?.value ?? filters.to) : filters.from;
      return { label: item.label, bars: clickBars(rows, from, filters.to) };
    }),
  );
}

/** Up to five links, spaces, tags or domains side by side: a line each over the screen's period. */
export function Comparison({ filters, choices }: { filters: AnalyticsFilters; choices: Choices }) {
  const { t, number } = useI18n();
  const can = useCan();
  const [kind, setKind] = useState<CompareKind>('link');
  const [items, setItems] = useState<CompareItem[]>([]);
  const links = useLoad(kind === 'link' && can('links.read') ? 'analytics:compare-links' : null, (signal) =>
    call(
      api.GET('/api/v1/links', {
        params: { query: { sort_by: 'clicks', sort: 'desc', per_page: LINK_CHOICES } },
        signal,
      }),
    ),
  );
  const offered: Record<CompareKind, { value: string; label: string }[]> = {
    link: (links.data?.data ?? []).map((link) => ({ value: String(link.id), label: link.short_url })),
    space: choices.spaces.map((space) => ({ value: String(space.id), label: space.name })),
    tag: choices.tags.map((tag) => ({ value: tag.name, label: tag.name })),
    domain: choices.domains.map((domain) => ({ value: String(domain.id), label: domain.name })),
  };
  const key =
    items.length === 0 ? null : `analytics:compare:${JSON.stringify(items)}:${filters.from}:${filters.to}`;
  // The series follow the visits; the links offered stay as they were, not to move a box about to be ticked.
  const series = useLiveLoad(key, (signal) => loadSeries(items, filters, signal));
  const picked = (value: string) => items.some((item) => item.value === value);
  const toggle = (option: { value: string; label: string }) =>
    setItems(
      picked(option.value)
        ? items.filter((item) => item.value !== option.value)
        : [...items, { kind, ...option }],
    );

  return (
    <section className="card comparison-card" aria-labelledby="analytics-compare">
      <h2 id="analytics-compare">{t.analytics.compare}</h2>
      <div className="filters">
        <FilterSelect
          label={t.analytics.compareWhat}
          value={kind}
          options={COMPARE_KINDS.map((value) => ({ value, label: t.analytics.kinds[value] }))}
          onChange={(value) => {
            setKind(value as CompareKind);
            setItems([]);
          }}
          fit
        />
      </div>
      <fieldset className="compare-choices">
        <legend>{t.analytics.pick(MAX_COMPARED)}</legend>
        {offered[kind].length === 0 && <p className="empty">{t.common.noResults}</p>}
        <ul>
          {offered[kind].map((option) => (
            <li key={option.value}>
              <label>
                <input
                  type="checkbox"
                  checked={picked(option.value)}
                  disabled={!picked(option.value) && items.length >= MAX_COMPARED}
                  onChange={() => toggle(option)}
                />{' '}
                {option.label}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {series.error !== undefined && <LoadError error={series.error} onRetry={series.reload} />}
      {items.length > 0 && series.loading && series.data === undefined && <Loading />}
      {items.length > 0 && series.data !== undefined && (
        <ComparisonChart
          title={t.analytics.compareTitle(items.map((item) => item.label).join(', '))}
          series={series.data}
          labelHeading={t.stats.when}
          showTable={t.stats.showTable}
          formatNumber={number}
        />
      )}
    </section>
  );
}
