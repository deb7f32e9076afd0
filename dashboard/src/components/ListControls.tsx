import type { ReactNode } from 'react';
import { PerPageValues } from '../api/enums';
import { useSettledText } from '../hooks/useSettledText';
import { useT } from '../i18n/I18nProvider';
import { Field } from './Field';
import { filterSelects, type Option } from './FilterSelect';

export interface ListValues {
  search: string;
  search_by: string;
  sort_by: string;
  sort: string;
  per_page: string;
}

interface ListControlsProps {
  label: string;
  values: Readonly<ListValues>;
  update: (changes: Partial<ListValues>) => void;
  /** Whether the list has a search; a list the API does not search has none. */
  searchable?: boolean;
  searchBy?: Option[] | undefined;
  /** The columns to sort by; a list the API sorts only by date has none. */
  sortBy?: Option[] | undefined;
  children?: ReactNode;
}

/** Search (sent once typing pauses), the search column, the order and the page size of a list. */
export function ListControls({
  label,
  values,
  update,
  searchable = true,
  searchBy,
  sortBy,
  children,
}: ListControlsProps) {
  const t = useT();
  const [search, setSearch] = useSettledText(values.search, (value) => update({ search: value }));

  // Their labels are the dashboard's own: each control is as wide as its longest one, in every language.
  const select = filterSelects(values, update, true);

  return (
    <div role="search" className="filters" aria-label={label}>
      {searchable && (
        <Field label={t.common.search} className="filter filter-search">
          {(control) => (
            <input
              {...control}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          )}
        </Field>
      )}
      {searchBy && searchBy.length > 1 && select(t.common.searchIn, 'search_by', searchBy)}
      {children}
      {sortBy && select(t.common.sortBy, 'sort_by', sortBy)}
      {select(t.common.order, 'sort', [
        { value: 'desc', label: t.common.desc },
        { value: 'asc', label: t.common.asc },
      ])}
      {select(
        t.common.perPage,
        'per_page',
        PerPageValues.map((value) => ({ value: String(value), label: String(value) })),
      )}
    </div>
  );
}
