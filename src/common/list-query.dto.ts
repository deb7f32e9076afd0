import { DEFAULT_PER_PAGE, PER_PAGE_VALUES, type PageRequest } from './pagination';
import { FormEnum, FormInt, FormIntIn, FormString, Nullable } from './validation';

export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** The list parameters every collection shares. An empty value means the default. */
export class ListQueryDto {
  /** Sort direction. */
  @Nullable()
  @FormEnum(SORT_DIRECTIONS)
  sort?: SortDirection | null;

  /** Results per page: 10, 25, 50 or 100. */
  @Nullable()
  @FormIntIn(PER_PAGE_VALUES)
  per_page?: number | null;

  /** Page number, from 1. */
  @Nullable()
  @FormInt({ min: 1, max: 2_147_483_647 })
  page?: number | null;

  pageRequest(): PageRequest {
    return { page: this.page ?? 1, perPage: this.per_page ?? DEFAULT_PER_PAGE };
  }

  direction(): 'ASC' | 'DESC' {
    return this.sort === 'asc' ? 'ASC' : 'DESC';
  }
}

/**
 * The list parameters of a collection that is searched and sorted by columns of its own (the values of
 * `search_by` and `sort_by`): one definition for every such collection, each extending it with its filters.
 */
export function SearchableListQueryDto<SearchBy extends string, SortBy extends string>(
  searchBy: readonly SearchBy[],
  sortBy: readonly SortBy[],
) {
  class SearchableListQuery extends ListQueryDto {
    /** Case-insensitive substring of the `search_by` column. */
    @Nullable()
    @FormString({ max: 255 })
    search?: string | null;

    @Nullable()
    @FormEnum(searchBy)
    search_by?: SearchBy | null;

    /** `id` orders by creation. */
    @Nullable()
    @FormEnum(sortBy)
    sort_by?: SortBy | null;
  }
  return SearchableListQuery;
}
