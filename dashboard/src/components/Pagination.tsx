import type { PageMeta } from '../api/types';
import { useI18n } from '../i18n/I18nProvider';

interface PaginationProps {
  meta: PageMeta;
  onPage: (page: number) => void;
  label: string;
}

/** First, previous, next and last, with where the page stands: a list of a million rows is walked a page at a time. */
export function Pagination({ meta, onPage, label }: PaginationProps) {
  const { t, number } = useI18n();
  const { current_page: page, last_page: last, from, to, total } = meta;
  // An empty first page has nothing to walk: the list says why it is empty, once.
  if (from === null && page <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <p className="pagination-summary">
        {from !== null && to !== null ? t.common.showing(number(from), number(to), number(total)) : ''}
      </p>
      <div className="pagination-buttons">
        <button type="button" disabled={page <= 1} onClick={() => onPage(1)}>
          {t.common.first}
        </button>
        <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t.common.previous}
        </button>
        <span aria-current="page">{t.common.pageOf(number(page), number(last))}</span>
        <button type="button" disabled={page >= last} onClick={() => onPage(page + 1)}>
          {t.common.next}
        </button>
        <button type="button" disabled={page >= last} onClick={() => onPage(last)}>
          {t.common.last}
        </button>
      </div>
    </nav>
  );
}
