import { lazy, Suspense, useId, useState } from 'react';
import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { saveBlob } from '../../download';
import { describeError } from '../../api/describe';
import { Field } from '../../components/Field';
import { LoadError, Loading } from '../../components/LoadState';
import { PageTitle } from '../../components/PageTitle';
import { useI18n } from '../../i18n/I18nProvider';
import { linksOf, LiveScreen, useLiveLoad } from '../../session/LiveProvider';
import { useCan } from '../../session/SessionProvider';
import { clickBars, daysBefore, utcDay } from './buckets';
import { DIMENSIONS, displayValue, type Dimension } from './dimensions';
import { usePeriodPage } from './usePeriodPage';
import { VisitsTable } from './VisitsTable';
import { ClicksOverTime } from './ClicksOverTime';

const RANGES = ['today', '7d', '30d', '12m', 'all', 'custom'] as const;
type Range = (typeof RANGES)[number];

interface Period {
  /** Absent: the day the link was made. */
  from: string | undefined;
  to: string;
}

function periodOf(range: Range, today: string, custom: Period): Period {
  switch (range) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: daysBefore(today, 6), to: today };
    case '30d':
      return { from: daysBefore(today, 29), to: today };
    case '12m':
      return { from: daysBefore(today, 364), to: today };
    case 'all':
      return { from: undefined, to: today };
    case 'custom':
      return custom;
  }
}

/** The map and its data, fetched once the screen is open: most of the screen shows without waiting for them. */
const CountryMap = lazy(() => import('../analytics/CountryMap').then((m) => ({ default: m.CountryMap })));

/**
 * /links/:id/stats: clicks over time for a range, visits by country on a map, and each dimension the API records as
 * a ranked list; read again as the link is visited or changed.
 */
export default function StatsPage({ id }: { id: number }) {
  return (
    <LiveScreen relevant={(event) => linksOf(event).includes(id)}>
      <LinkStats id={id} />
    </LiveScreen>
  );
}

function LinkStats({ id }: { id: number }) {
  const { t } = useI18n();
  const can = useCan();
  const [today] = useState(() => utcDay(new Date()));
  const [range, setRange] = useState<Range>('30d');
  const [custom, setCustom] = useState<Period>({ from: daysBefore(today, 29), to: today });
  const [exportError, setExportError] = useState<string | null>(null);
  const period = periodOf(range, today, custom);

  const link = useLiveLoad(can('links.read') ? `link:${id}` : null, (signal) =>
    call(api.GET('/api/v1/links/{id}', { params: { path: { id } }, signal })),
  );
  const clicks = useLiveLoad(`clicks:${id}:${period.from ?? ''}:${period.to}`, (signal) =>
    call(
      api.GET('/api/v1/stats/{linkId}', {
        params: { path: { linkId: id }, query: { name: 'click', from: period.from, to: period.to } },
        signal,
      }),
    ),
  );
  const linkData = link.data?.data;
  const from = period.from ?? (linkData ? utcDay(new Date(linkData.created_at)) : period.to);
  const bars = clicks.data ? clickBars(clicks.data.data, from, period.to) : [];
  const total = bars.reduce((sum, bar) => sum + bar.value, 0);
  const name = linkData?.short_url ?? `#${id}`;

  const exportClicks = async () => {
    setExportError(null);
    try {
      const blob = await call(
        api.GET('/api/v1/stats/{linkId}/export', { params: { path: { linkId: id } }, parseAs: 'blob' }),
      );
      saveBlob(blob, `clicks-${linkData?.alias ?? id}.csv`);
    } catch (error) {
      setExportError(describeError(t, error));
    }
  };

  return (
    <section className="page stats-page">
      <header className="page-header">
        <PageTitle text={t.stats.title(name)} />
        <div className="page-actions">
          <button type="button" onClick={() => void exportClicks()}>
            {t.stats.exportClicks}
          </button>
          {can('links.write') && (
            <RouteLink href={`/links/${id}/edit`} className="button">
              {t.common.edit}
            </RouteLink>
          )}
        </div>
      </header>
      {exportError !== null && (
        <p role="alert" className="error-text">
          {exportError}
        </p>
      )}
      {linkData && (
        <p className="destination">
          {t.stats.destination}: {linkData.url}
        </p>
      )}

      <div className="filters" role="group" aria-label={t.stats.period}>
        <Field label={t.stats.range} className="filter">
          {(control) => (
            <select {...control} value={range} onChange={(event) => setRange(event.target.value as Range)}>
              {RANGES.map((option) => (
                <option key={option} value={option}>
                  {t.stats.ranges[option]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {range === 'custom' && (
          <>
            <Field label={t.stats.from} className="filter">
              {(control) => (
                <input
                  {...control}
                  type="date"
                  max={custom.to}
                  value={custom.from ?? ''}
                  onChange={(event) =>
                    event.target.value && setCustom({ ...custom, from: event.target.value })
                  }
                />
              )}
            </Field>
            <Field label={t.stats.to} className="filter">
              {(control) => (
                <input
                  {...control}
                  type="date"
                  min={custom.from}
                  max={today}
                  value={custom.to}
                  onChange={(event) => event.target.value && setCustom({ ...custom, to: event.target.value })}
                />
              )}
            </Field>
          </>
        )}
      </div>

      <section className="card" aria-labelledby="clicks-heading">
        <h2 id="clicks-heading">{t.stats.clicksOverTime}</h2>
        {clicks.error !== undefined && <LoadError error={clicks.error} onRetry={clicks.reload} />}
        {clicks.loading && clicks.data === undefined && <Loading />}
        {clicks.data !== undefined && (
          <ClicksOverTime title={t.stats.chartTitle(name)} bars={bars} total={total} />
        )}
      </section>

      <Suspense fallback={<Loading />}>
        <CountryMap
          loadKey={`${id}:${period.from ?? ''}:${period.to}`}
          load={(rows, signal) =>
            call(
              api.GET('/api/v1/stats/{linkId}', {
                params: { path: { linkId: id }, query: { ...rows, from: period.from, to: period.to } },
                signal,
              }),
            )
          }
        />
      </Suspense>

      <div className="dimension-grid">
        {DIMENSIONS.map((dimension) => (
          <DimensionList key={dimension} linkId={id} dimension={dimension} period={period} total={total} />
        ))}
      </div>

      <VisitsTable linkId={id} from={period.from} to={period.to} name={name} />
    </section>
  );
}

const DIMENSION_PAGE = 10;

interface DimensionListProps {
  linkId: number;
  dimension: Dimension;
  period: Period;
  total: number;
}

/** One dimension's values, most clicks first, a page at a time. */
function DimensionList({ linkId, dimension, period, total }: DimensionListProps) {
  const { t, number, language } = useI18n();
  const headingId = useId();
  const key = `${linkId}:${dimension}:${period.from ?? ''}:${period.to}`;
  const [page, setPage] = usePeriodPage(key);
  const rows = useLiveLoad(`${key}:${page}`, (signal) =>
    call(
      api.GET('/api/v1/stats/{linkId}', {
        params: {
          path: { linkId },
          query: { name: dimension, from: period.from, to: period.to, per_page: DIMENSION_PAGE, page },
        },
        signal,
      }),
    ),
  );
  const data = rows.data;
  const meta = data && 'meta' in data ? data.meta : undefined;

  return (
    <section className="card dimension" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.stats.dimensions[dimension]}</h2>
      {rows.error !== undefined && <LoadError error={rows.error} onRetry={rows.reload} />}
      {data === undefined && rows.loading && <Loading />}
      {data !== undefined &&
        (data.data.length === 0 ? (
          <p className="empty">{t.stats.noClicks}</p>
        ) : (
          <ol className="ranked" start={meta?.from ?? 1} aria-busy={rows.loading}>
            {data.data.map((row) => {
              const share = total > 0 ? Math.min(1, row.count / total) : 0;
              return (
                <li key={row.value ?? ''}>
                  <span className="ranked-value">{displayValue(dimension, row.value, language, t)}</span>
                  <span className="ranked-count">{number(row.count)}</span>
                  <svg
                    className="ranked-bar"
                    viewBox="0 0 100 4"
                    preserveAspectRatio="none"
                    aria-hidden="true"
                  >
                    <rect width={share * 100} height="4" />
                  </svg>
                </li>
              );
            })}
          </ol>
        ))}
      {meta !== undefined && meta.last_page > 1 && (
        <nav className="pagination small" aria-label={t.stats.pagesOf(t.stats.dimensions[dimension])}>
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t.common.previous}
          </button>
          <span>{t.common.pageOf(number(meta.current_page), number(meta.last_page))}</span>
          <button type="button" disabled={page >= meta.last_page} onClick={() => setPage(page + 1)}>
            {t.common.next}
          </button>
        </nav>
      )}
    </section>
  );
}
