import { DEFAULT_PER_PAGE, PER_PAGE_VALUES, type PageRequest } from './pagination';
import { FormEnum, FormInt, FormIntIn, Nullable } from './validation';

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
