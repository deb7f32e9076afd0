import { useState } from 'react';
import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { ClicksOverTime } from '../stats/ClicksOverTime';
import { FilterSelect, namedOptions, type Option } from '../../components/FilterSelect';
import { PageTitle } from '../../components/PageTitle';
import { useI18n } from '../../i18n/I18nProvider';
import { changesLinks, LiveScreen, useLiveLoad } from '../../session/LiveProvider';
import { useCan } from '../../session/SessionProvider';
import { useChoices } from '../links/useChoices';
import { clickBars, daysBefore, utcDay } from '../stats/buckets';
import { DIMENSIONS, displayValue, type Dimension } from '../stats/dimensions';
import { Comparison } from './Comparison';
import { CountryMap } from './CountryMap';
import { DateField, LoadedCard } from './LoadedCard';
import { queryKey, workspaceQuery, type AnalyticsFilters, type WorkspaceQuery } from './query';

const DIMENSION_ROWS = 10;
const TOP_LINKS = 10;

/**
 * `/analytics`: the whole workspace's clicks, narrowed by space, domain, tag and period, on a map and compared; read
 * again as visits come and links change.
 */
export default function AnalyticsPage() {
  return (
    <LiveScreen relevant={(event) => event.type === 'link.clicked' || changesLinks(event)}>
      <WorkspaceAnalytics />
    </LiveScreen>
  );
}

function WorkspaceAnalytics() {
  const { t } = useI18n();
  const can = useCan();
  const choices = useChoices();
  const [today] = useState(() => utcDay(new Date()));
  const [filters, setFilters] = useState<AnalyticsFilters>({
    space: '',
    domain: '',
    tag: '',
    from: daysBefore(today, 29),
    to: today,
  });
  const update = (changes: Partial<AnalyticsFilters>) => setFilters({ ...filters, ...changes });
  const query = workspaceQuery(filters);
  const key = queryKey(query);

  const clicks = useLiveLoad(`analytics:click:${key}`, (signal) =>
    call(api.GET('/api/v1/stats', { params: { query: { ...query, name: 'click' } }, signal })),
  );
  const rows = clicks.data?.data ?? [];
  const bars = clickBars(
    rows,
    filters.from === '' ? (rows[0]?.value ?? filters.to) : filters.from,
    filters.to,
  );
  const total = bars.reduce((sum, bar) => sum + bar.value, 0);
  const anyOf = (options: Option[]): Option[] => [{ value: '', label: t.common.all }, ...options];

  return (
    <section className="page analytics-page">
      <header className="page-header">
        <PageTitle text={t.analytics.title} />
      </header>

      <div className="filters" role="group" aria-label={t.analytics.filters}>
        <FilterSelect
          label={t.links.space}
          value={filters.space}
          options={anyOf([{ value: '0', label: t.links.noSpace }, ...namedOptions(choices.spaces)])}
          onChange={(space) => update({ space })}
        />
        <FilterSelect
          label={t.links.domain}
          value={filters.domain}
          options={anyOf(namedOptions(choices.domains))}
          onChange={(domain) => update({ domain })}
        />
        <FilterSelect
          label={t.analytics.tag}
          value={filters.tag}
          options={anyOf(choices.tags.map((tag) => ({ value: tag.name, label: tag.name })))}
          onChange={(tag) => update({ tag })}
        />
        <DateField
          label={t.stats.from}
          hint={t.analytics.fromHint}
          max={filters.to}
          value={filters.from}
          onChange={(from) => update({ from })}
        />
        <DateField
          label={t.stats.to}
          min={filters.from}
          max={today}
          value={filters.to}
          onChange={(to) => to !== '' && update({ to })}
        />
      </div>

      <LoadedCard
        title={t.stats.clicksOverTime}
        loaded={clicks}
        empty={t.stats.noClicks}
        isEmpty={() => total === 0}
      >
        {() => <ClicksOverTime title={t.analytics.chartTitle} bars={bars} total={total} />}
      </LoadedCard>

      <CountryMap
        loadKey={`analytics:${key}`}
        load={(rows, signal) =>
          call(api.GET('/api/v1/stats', { params: { query: { ...query, ...rows } }, signal }))
        }
      />

      <div className="dimension-grid">
        {can('links.read') && <TopLinks query={query} />}
        {DIMENSIONS.map((dimension) => (
          <TopValues key={dimension} dimension={dimension} query={query} total={total} />
        ))}
      </div>

      <Comparison filters={filters} choices={choices} />
    </section>
  );
}

/** One dimension's ten values with the most clicks, each with its share of the period's clicks. */
function TopValues({
  dimension,
  query,
  total,
}: {
  dimension: Dimension;
  query: WorkspaceQuery;
  total: number;
}) {
  const { t, number, language } = useI18n();
  const loaded = useLiveLoad(`analytics:${dimension}:${queryKey(query)}`, (signal) =>
    call(
      api.GET('/api/v1/stats', {
        params: { query: { ...query, name: dimension, per_page: DIMENSION_ROWS } },
        signal,
      }),
    ),
  );
  return (
    <LoadedCard
      title={t.stats.dimensions[dimension]}
      className="dimension"
      loaded={loaded}
      empty={t.stats.noClicks}
      isEmpty={(answer) => answer.data.length === 0}
    >
      {(answer) => (
        <ol className="ranked" aria-busy={loaded.loading}>
          {answer.data.map((row) => (
            <li key={row.value ?? ''}>
              <span className="ranked-value">{displayValue(dimension, row.value, language, t)}</span>
              <span className="ranked-count">{number(row.count)}</span>
              <ShareBar share={total > 0 ? row.count / total : 0} />
            </li>
          ))}
        </ol>
      )}
    </LoadedCard>
  );
}

/** A value's share of the period's clicks, for the eye: the count beside it says it in numbers. */
function ShareBar({ share }: { share: number }) {
  return (
    <svg className="ranked-bar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
      <rect width={Math.min(100, share * 100)} height="4" />
    </svg>
  );
}

/** The links with the most clicks of all time among those the filters keep (a link's count is not by period). */
function TopLinks({ query }: { query: WorkspaceQuery }) {
  const { t, number } = useI18n();
  const filter = {
    space_id: query.space_id,
    domain_id: query.domain_id,
    tag: query.tag,
  };
  const links = useLiveLoad(`analytics:links:${JSON.stringify(filter)}`, (signal) =>
    call(
      api.GET('/api/v1/links', {
        params: { query: { ...filter, sort_by: 'clicks', sort: 'desc', per_page: TOP_LINKS } },
        signal,
      }),
    ),
  );
  return (
    <LoadedCard
      title={t.analytics.topLinks}
      className="dimension"
      loaded={links}
      empty={t.links.empty}
      isEmpty={(answer) => answer.data.length === 0}
    >
      {(answer) => (
        <ol className="ranked">
          {answer.data.map((link) => (
            <li key={link.id}>
              <RouteLink href={`/links/${link.id}/stats`} className="ranked-value">
                {link.short_url}
              </RouteLink>
              <span className="ranked-count">{number(link.clicks)}</span>
            </li>
          ))}
        </ol>
      )}
    </LoadedCard>
  );
}
