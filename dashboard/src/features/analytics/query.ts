import type { paths } from '../../api/schema';

/** The query of `GET /api/v1/stats`, which every request of the screen narrows. */
export type WorkspaceQuery = NonNullable<paths['/api/v1/stats']['get']['parameters']['query']>;

/** The screen's filters as its controls hold them: empty means not narrowed. */
export interface AnalyticsFilters {
  space: string;
  domain: string;
  tag: string;
  /** `Y-m-d`, UTC; empty `from` reaches back to the day the workspace was made. */
  from: string;
  to: string;
}

/** What a comparison sets side by side: links, spaces, tags or domains, one series each. */
export const COMPARE_KINDS = ['link', 'space', 'tag', 'domain'] as const;
export type CompareKind = (typeof COMPARE_KINDS)[number];

/** The most items a comparison holds, as `link_ids[]` takes at most five. */
export const MAX_COMPARED = 5;

export interface CompareItem {
  kind: CompareKind;
  /** A link's, space's or domain's id, or a tag's name. */
  value: string;
  label: string;
}

function period(filters: Pick<AnalyticsFilters, 'from' | 'to'>): WorkspaceQuery {
  return {
    ...(filters.from === '' ? {} : { from: filters.from }),
    ...(filters.to === '' ? {} : { to: filters.to }),
  };
}

/** The filters as the API's parameters: `space_id`, `domain_id`, `tag`, `from` and `to`, each only when set. */
export function workspaceQuery(filters: AnalyticsFilters): WorkspaceQuery {
  const tag = filters.tag.trim();
  return {
    ...(filters.space === '' ? {} : { space_id: Number(filters.space) }),
    ...(filters.domain === '' ? {} : { domain_id: Number(filters.domain) }),
    ...(tag === '' ? {} : { tag: [tag] }),
    ...period(filters),
  };
}

/** One compared item's clicks over time: the item's own filter, over the screen's period. */
export function comparisonQuery(item: CompareItem, filters: AnalyticsFilters): WorkspaceQuery {
  const narrow: Record<CompareKind, WorkspaceQuery> = {
    link: { link_ids: [Number(item.value)] },
    space: { space_id: Number(item.value) },
    tag: { tag: [item.value] },
    domain: { domain_id: Number(item.value) },
  };
  return { name: 'click', ...narrow[item.kind], ...period(filters) };
}

/** A stable key of a query, for loading it again when it changes. */
export function queryKey(query: WorkspaceQuery): string {
  return JSON.stringify(query);
}
