import { PerPageValues, SortDirectionValues } from '../api/enums';
import type { ListValues } from '../components/ListControls';
import { oneOf, positiveInt } from './useListParams';

/** The defaults of a list's address parameters; a list page adds its own filters beside them. */
export const LIST_DEFAULTS = {
  search: '',
  search_by: '',
  sort_by: 'id',
  sort: 'desc',
  per_page: '25',
  page: '1',
} as const;

/** A list's common query, each value checked against what the API takes. */
export function listQuery<SearchBy extends string, SortBy extends string>(
  values: Readonly<ListValues & { page: string }>,
  searchBy: readonly SearchBy[],
  sortBy: readonly [SortBy, ...SortBy[]],
) {
  const search = values.search.trim();
  const firstSearchBy = searchBy[0];
  return {
    search: search === '' ? undefined : search,
    search_by:
      search === '' || firstSearchBy === undefined
        ? undefined
        : oneOf(values.search_by, searchBy, firstSearchBy),
    sort_by: oneOf(values.sort_by, sortBy, sortBy[0]),
    ...pageQuery(values),
  };
}

/** A list's order (by date, for a list sorted by nothing else), page size and page, as the API takes them. */
export function pageQuery(values: Readonly<{ sort: string; per_page: string; page: string }>) {
  return {
    sort: oneOf(values.sort, SortDirectionValues, 'desc'),
    per_page: oneOf(values.per_page, PerPageValues, 25),
    page: positiveInt(values.page) ?? 1,
  };
}
