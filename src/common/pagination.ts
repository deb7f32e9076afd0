import type { Request } from 'express';

export const PER_PAGE_VALUES = [10, 25, 50, 100] as const;
export const DEFAULT_PER_PAGE = 10;

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PaginatedEnvelope<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
  status: 200;
}

/** The request's own absolute URL without its query string, as Laravel's paginator reports `path`. */
export function requestPath(request: Request): string {
  const pathname = request.originalUrl.split('?')[0];
  return `${request.protocol}://${request.get('host') ?? 'localhost'}${pathname}`;
}

/** Laravel's length-aware paginator: page links keep the request's other query parameters. */
export function paginatedEnvelope<T>(
  request: Request,
  pageRequest: PageRequest,
  page: Page<T>,
): PaginatedEnvelope<T> {
  const path = requestPath(request);
  const query = new URLSearchParams(request.originalUrl.split('?')[1] ?? '');
  query.delete('page');
  const urlOf = (pageNumber: number) => {
    const params = new URLSearchParams(query);
    params.set('page', String(pageNumber));
    return `${path}?${params.toString()}`;
  };
  const { page: current, perPage } = pageRequest;
  const lastPage = Math.max(1, Math.ceil(page.total / perPage));
  const from = page.items.length > 0 ? (current - 1) * perPage + 1 : null;
  return {
    data: page.items,
    links: {
      first: urlOf(1),
      last: urlOf(lastPage),
      prev: current > 1 ? urlOf(current - 1) : null,
      next: current < lastPage ? urlOf(current + 1) : null,
    },
    meta: {
      current_page: current,
      from,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total,
    },
    status: 200,
  };
}
