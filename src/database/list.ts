import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { PageRequest } from '../common/pagination';
import { substringPattern } from '../common/search';

/** What a list request asks of a collection: the contract's `search`, `search_by`, `sort_by`, `sort` and page. */
export interface ListRequest<SearchBy extends string, SortBy extends string> {
  search?: string | null;
  search_by?: SearchBy | null;
  sort_by?: SortBy | null;
  pageRequest(): PageRequest;
  direction(): 'ASC' | 'DESC';
}

/**
 * How a collection searches and sorts: the SQL of each `search_by` column (the first is the default), and of each
 * `sort_by` key but `id`, over the query builder's alias. Ties are broken by id, in the same direction.
 */
export interface ListColumns<SearchBy extends string, SortBy extends string> {
  search: Readonly<Record<SearchBy, string>>;
  sort: Readonly<Record<Exclude<SortBy, 'id'>, string>>;
}

/**
 * Applies a list request to a query builder that already holds the collection's own conditions (the account, its
 * filters): the search as a case-insensitive substring, the order, and the page. The same for every collection, so
 * that spaces, domains and pixels list alike.
 */
export function listed<Entity extends ObjectLiteral, SearchBy extends string, SortBy extends string>(
  builder: SelectQueryBuilder<Entity>,
  columns: ListColumns<SearchBy, SortBy>,
  request: ListRequest<SearchBy, SortBy>,
): SelectQueryBuilder<Entity> {
  if (request.search !== undefined && request.search !== null) {
    const by = request.search_by ?? (Object.keys(columns.search)[0] as SearchBy);
    builder.andWhere(`${columns.search[by]} ILIKE :pattern ESCAPE '\\'`, {
      pattern: substringPattern(request.search),
    });
  }
  const direction = request.direction();
  const id = `${builder.alias}.id`;
  const sortBy = request.sort_by ?? 'id';
  if (sortBy === 'id') builder.orderBy(id, direction);
  else builder.orderBy(columns.sort[sortBy as Exclude<SortBy, 'id'>], direction).addOrderBy(id, direction);
  const { page, perPage } = request.pageRequest();
  return builder.offset((page - 1) * perPage).limit(perPage);
}
