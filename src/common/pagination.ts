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

/** The page with each item mapped (an entity to its response), its total as it was. */
export function mapPage<T, R>({ items, total }: Page<T>, map: (item: T) => R): Page<R> {
  return { items: items.map(map), total };
}

/** One of Laravel's page links, as `meta.links` lists them. */
export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface PaginatedEnvelope<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PageLink[];
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

/** How many pages Laravel's paginator shows on each side of the current one. */
const ON_EACH_SIDE = 3;

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/**
 * The page numbers of Laravel's URL window, with null for each `...`: every page while there are few, else the
 * first two, the pages around the current one and the last two.
 */
export function pageWindow(current: number, lastPage: number): (number | null)[] {
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  const window = ON_EACH_SIDE + 4;
  const start = [1, 2];
  const finish = [lastPage - 1, lastPage];
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), null, ...finish];
  if (current > lastPage - window) {
    return [...start, null, ...range(lastPage - (window + ON_EACH_SIDE - 1), lastPage)];
  }
  return [...start, null, ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), null, ...finish];
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
  const prev = current > 1 ? urlOf(current - 1) : null;
  const next = current < lastPage ? urlOf(current + 1) : null;
  // Laravel's labels, from its English pagination strings.
  const links: PageLink[] = [
    { url: prev, label: '&laquo; Previous', active: false },
    ...pageWindow(current, lastPage).map((number) =>
      number === null
        ? { url: null, label: '...', active: false }
        : { url: urlOf(number), label: String(number), active: number === current },
    ),
    { url: next, label: 'Next &raquo;', active: false },
  ];
  return {
    data: page.items,
    links: { first: urlOf(1), last: urlOf(lastPage), prev, next },
    meta: {
      current_page: current,
      from,
      last_page: lastPage,
      links,
      path,
      per_page: perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total,
    },
    status: 200,
  };
}
