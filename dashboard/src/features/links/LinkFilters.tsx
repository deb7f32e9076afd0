import {
  LinkSearchByValues,
  LinkSortByValues,
  LinkStatusFilterValues,
  PerPageValues,
  SortDirectionValues,
} from '../../api/enums';
import type { paths } from '../../api/schema';
import { FilterFold } from '../../components/FilterFold';
import { filterSelects, labelledOptions, namedOptions } from '../../components/FilterSelect';
import { joinValues, oneOf, positiveInt, splitValues } from '../../hooks/useListParams';
import { useT } from '../../i18n/I18nProvider';
import { TagInput } from '../tags/TagInput';
import type { TagColors } from '../tags/tagNames';
import type { Choices } from './useChoices';

export const LINK_DEFAULTS = {
  search: '',
  search_by: 'title',
  status: '0',
  space_id: '',
  domain_id: '',
  pixel_id: '',
  /** Links holding any of these tags: the parameter given once a tag (`tag=news&tag=tech`). */
  tag: '',
  /** 1: the archived links alone; empty: every other. */
  archived: '',
  /** `broken`: the links whose destination the service found broken. */
  health: '',
  sort_by: 'id',
  sort: 'desc',
  per_page: '25',
  page: '1',
} as const;

type FilterName = keyof typeof LINK_DEFAULTS;
type LinkListValues = Readonly<Record<FilterName, string>>;

type LinksQuery = NonNullable<paths['/api/v1/links']['get']['parameters']['query']>;

/**
 * The list's `archived` for the archive alone: 1, which the API reads. The OpenAPI document gives the parameter an
 * object's schema, which no value fits; the value is typed as the document has it, here alone.
 */
const ARCHIVED_ONLY = 1 as unknown as LinksQuery['archived'];

/** The list's query as the API takes it; values from a hand-edited address fall back to the defaults. */
export function linkQuery(values: LinkListValues) {
  const spaceId = values.space_id === '0' ? 0 : positiveInt(values.space_id);
  const tags = splitValues(values.tag)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return {
    search: values.search.trim() === '' ? undefined : values.search.trim(),
    search_by: oneOf(values.search_by, LinkSearchByValues, 'title'),
    status: oneOf(values.status, LinkStatusFilterValues, 0),
    space_id: spaceId,
    domain_id: positiveInt(values.domain_id),
    pixel_id: positiveInt(values.pixel_id),
    tag: tags.length === 0 ? undefined : tags,
    archived: values.archived === '1' ? ARCHIVED_ONLY : undefined,
    health: values.health === 'broken' ? ('broken' as const) : undefined,
    sort_by: oneOf(values.sort_by, LinkSortByValues, 'id'),
    sort: oneOf(values.sort, SortDirectionValues, 'desc'),
    per_page: oneOf(values.per_page, PerPageValues, 25),
    page: positiveInt(values.page) ?? 1,
  };
}

/** The filters of the links' own, which the narrow layout folds; the search and the order stay in sight. */
const FOLDED: readonly FilterName[] = [
  'archived',
  'status',
  'health',
  'space_id',
  'domain_id',
  'pixel_id',
  'tag',
];

/** How many of the folded filters narrow the list now, for the fold's button to say. */
export function activeFilters(values: LinkListValues): number {
  return FOLDED.filter((name) => values[name] !== LINK_DEFAULTS[name]).length;
}

/** What the list's filters find, as a bulk change's `filter` takes them: the list's query without order or page. */
export function linkFilter(values: LinkListValues) {
  const { search, search_by, status, space_id, domain_id, pixel_id, tag, health } = linkQuery(values);
  return {
    search,
    search_by,
    status,
    space_id,
    domain_id,
    pixel_id,
    tag,
    archived: values.archived === '1' ? (1 as const) : undefined,
    health,
  };
}

interface LinkFiltersProps {
  values: LinkListValues;
  update: (changes: Partial<LinkListValues>) => void;
  /** The list page's choices, loaded once for its filters and its rows. */
  choices: Choices;
  colors: TagColors;
}

/**
 * The links' own filters: the archive or the other links, the status, broken links alone, the space, domain and
 * pixel where the account has some, and tags.
 */
export function LinkFilters({ values, update, choices, colors }: LinkFiltersProps) {
  const t = useT();
  const { spaces, domains, pixels } = choices;

  // A filter of the dashboard's own labels fits the longest; one of the account's names (spaces...) may be cut.
  const filterSelect = filterSelects(values, update);
  /** A filter of two choices: the links of its default (no value, `otherwise`), or those of `value` alone. */
  const either = (label: string, name: FilterName, otherwise: string, value: string, only: string) =>
    filterSelect(
      label,
      name,
      [
        { value: '', label: otherwise },
        { value, label: only },
      ],
      true,
    );
  const all = { value: '', label: t.common.all };

  return (
    <FilterFold active={activeFilters(values)}>
      {either(t.links.view, 'archived', t.links.views.current, '1', t.links.views.archived)}
      {filterSelect(
        t.links.status,
        'status',
        labelledOptions(LinkStatusFilterValues, t.links.statusFilter),
        true,
      )}
      {either(t.links.health, 'health', t.links.healthFilter.all, 'broken', t.links.healthFilter.broken)}
      {spaces.length > 0 &&
        filterSelect(t.links.space, 'space_id', [
          all,
          { value: '0', label: t.links.noSpace },
          ...namedOptions(spaces),
        ])}
      {domains.length > 1 && filterSelect(t.links.domain, 'domain_id', [all, ...namedOptions(domains)])}
      {pixels.length > 0 && filterSelect(t.links.pixel, 'pixel_id', [all, ...namedOptions(pixels)])}
      <TagInput
        label={t.links.tags}
        className="filter filter-tags"
        value={splitValues(values.tag)}
        onChange={(names) => update({ tag: joinValues(names) })}
        colors={colors}
      />
    </FilterFold>
  );
}
