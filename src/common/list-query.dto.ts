import { DEFAULT_PER_PAGE, PER_PAGE_VALUES, type PageRequest } from './pagination';
import { FormEnum, FormInt, FormIntIn, FormString, Nullable } from './validation';

export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** The list parameters every collection shares. An empty value means the default. */
export class ListQueryDto {
  @Nullable()
  @FormEnum(SORT_DIRECTIONS, 'SortDirection', { description: 'Sort direction.' })
  sort?: SortDirection | null;

  @Nullable()
  @FormIntIn(PER_PAGE_VALUES, 'PerPage', { description: 'Results per page: 10, 25, 50 or 100.' })
  per_page?: number | null;

  @Nullable()
  @FormInt({ min: 1, max: 2_147_483_647, description: 'Page number, from 1.' })
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
 * `resource` names their enums in the OpenAPI document (`SpaceSearchBy`).
 */
export function SearchableListQueryDto<SearchBy extends string, SortBy extends string>(
  resource: string,
  searchBy: readonly SearchBy[],
  sortBy: readonly SortBy[],
) {
  class SearchableListQuery extends ListQueryDto {
    @Nullable()
    @FormString({ max: 255, description: 'Case-insensitive substring of the `search_by` column.' })
    search?: string | null;

    @Nullable()
    @FormEnum(searchBy, `${resource}SearchBy`)
    search_by?: SearchBy | null;

    @Nullable()
    @FormEnum(sortBy, `${resource}SortBy`, { description: '`id` orders by creation.' })
    sort_by?: SortBy | null;
  }
  return SearchableListQuery;
}
