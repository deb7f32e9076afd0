import { useId } from 'react';
import { api, call } from '../../api/client';
import type { ListedClick, PageMeta } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { LoadError, Loading } from '../../components/LoadState';
import { Pagination } from '../../components/Pagination';
import { useI18n } from '../../i18n/I18nProvider';
import { useLiveLoad } from '../../session/LiveProvider';
import { DIMENSIONS, displayValue, type Dimension } from './dimensions';
import { usePeriodPage } from './usePeriodPage';

const VISITS_PAGE = 25;

/** How deep the API lists a link's clicks (`page` times `per_page`): older ones are in the export. */
const MAX_LISTED_CLICKS = 10_000;

/** What the table shows of each visit after its time: the page's dimensions, but the continent its country names. */
const VISIT_COLUMNS = DIMENSIONS.filter((dimension) => dimension !== 'continent');

/** The columns of hosts and URLs, which break anywhere rather than widen the table. */
const URL_COLUMNS: ReadonlySet<Dimension> = new Set(['referrer', 'target']);

/** A visit as a row of the table: its place in the period's list names it. */
type VisitRow = ListedClick & { id: number };

/** The pages the API serves: the last one within {@link MAX_LISTED_CLICKS}, however many clicks there are. */
function reachable(meta: PageMeta): PageMeta {
  return { ...meta, last_page: Math.min(meta.last_page, Math.floor(MAX_LISTED_CLICKS / meta.per_page)) };
}

interface VisitsTableProps {
  linkId: number;
  /** Absent: the day the link was made. */
  from: string | undefined;
  to: string;
  /** The link as the page names it, for the table's caption. */
  name: string;
}

/** The period's visits themselves, newest first, a page at a time: what each visitor was and where it was sent. */
export function VisitsTable({ linkId, from, to, name }: VisitsTableProps) {
  const { t, number, language, dateTime } = useI18n();
  const headingId = useId();
  const key = `${linkId}:${from ?? ''}:${to}`;
  const [page, setPage] = usePeriodPage(key);
  const visits = useLiveLoad(`visits:${key}:${page}`, (signal) =>
    call(
      api.GET('/api/v1/stats/{linkId}/clicks', {
        params: { path: { linkId }, query: { from, to, per_page: VISITS_PAGE, page } },
        signal,
      }),
    ),
  );
  const data = visits.data;
  const first = data?.meta.from ?? 1;
  const rows: VisitRow[] = (data?.data ?? []).map((visit, index) => ({ ...visit, id: first + index }));
  const columns: Column<VisitRow>[] = [
    {
      label: t.stats.visitColumns.created_at,
      // Shown in the reader's time zone; the exact UTC time (the period's days are UTC) on hover.
      cell: (visit) => (
        <time dateTime={visit.created_at} title={visit.created_at}>
          {dateTime(visit.created_at)}
        </time>
      ),
      className: 'nowrap',
    },
    ...VISIT_COLUMNS.map((column) => ({
      label: t.stats.visitColumns[column],
      cell: (visit: VisitRow) => displayValue(column, visit[column], language, t),
      className: URL_COLUMNS.has(column) ? 'visit-url' : undefined,
    })),
  ];
  const deeper = data !== undefined && data.meta.total > MAX_LISTED_CLICKS;

  return (
    <section className="card visits" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.stats.visits}</h2>
      {visits.error !== undefined && <LoadError error={visits.error} onRetry={visits.reload} />}
      {data === undefined && visits.loading && <Loading />}
      {data !== undefined &&
        (data.data.length === 0 && page === 1 ? (
          <p className="empty">{t.stats.noClicks}</p>
        ) : (
          <div className="list-region" aria-busy={visits.loading}>
            <DataTable
              caption={t.stats.visitsOf(name)}
              columns={columns}
              rows={rows}
              className="visits-table"
            />
          </div>
        ))}
      {data !== undefined && (
        <Pagination meta={reachable(data.meta)} onPage={setPage} label={t.stats.pagesOf(t.stats.visits)} />
      )}
      {deeper && <p className="muted">{t.stats.visitsDeeper(number(MAX_LISTED_CLICKS))}</p>}
    </section>
  );
}
