import {
  LinkSearchByValues,
  LinkSortByValues,
  LinkStatusFilterValues,
  PerPageValues,
  SortDirectionValues,
} from '../../api/enums';
import { FilterSelect, namedOptions, type Option } from '../../components/FilterSelect';
import { oneOf, positiveInt } from '../../hooks/useListParams';
import { useT } from '../../i18n/I18nProvider';
import { useChoices } from './useChoices';

export const LINK_DEFAULTS = {
  search: '',
  search_by: 'title',
  status: '0',
  space_id: '',
  domain_id: '',
  pixel_id: '',
  sort_by: 'id',
  sort: 'desc',
  per_page: '25',
  page: '1',
} as const;

type LinkListValues = Readonly<Record<keyof typeof LINK_DEFAULTS, string>>;

/** The list's query as the API takes it; values from a hand-edited address fall back to the defaults. */
export function linkQuery(values: LinkListValues) {
  const spaceId = values.space_id === '0' ? 0 : positiveInt(values.space_id);
  return {
    search: values.search.trim() === '' ? undefined : values.search.trim(),
    search_by: oneOf(values.search_by, LinkSearchByValues, 'title'),
    status: oneOf(values.status, LinkStatusFilterValues, 0),
    space_id: spaceId,
    domain_id: positiveInt(values.domain_id),
    pixel_id: positiveInt(values.pixel_id),
    sort_by: oneOf(values.sort_by, LinkSortByValues, 'id'),
    sort: oneOf(values.sort, SortDirectionValues, 'desc'),
    per_page: oneOf(values.per_page, PerPageValues, 25),
    page: positiveInt(values.page) ?? 1,
  };
}

interface LinkFiltersProps {
  values: LinkListValues;
  update: (changes: Partial<LinkListValues>) => void;
}

/** The links' own filters: the status, and the space, domain and pixel where the account has some. */
export function LinkFilters({ values, update }: LinkFiltersProps) {
  const t = useT();
  const { spaces, domains, pixels } = useChoices();

  // A filter of the dashboard's own labels fits the longest; one of the account's names (spaces...) may be cut.
  const filterSelect = (label: string, name: keyof typeof LINK_DEFAULTS, options: Option[], fit = false) => (
    <FilterSelect
      label={label}
      value={values[name]}
      options={options}
      onChange={(value) => update({ [name]: value })}
      fit={fit}
    />
  );

  return (
    <>
      {filterSelect(
        t.links.status,
        'status',
        LinkStatusFilterValues.map((value) => ({
          value: String(value),
          label: t.links.statusFilter[value],
        })),
        true,
      )}
      {spaces.length > 0 &&
        filterSelect(t.links.space, 'space_id', [
          { value: '', label: t.common.all },
          { value: '0', label: t.links.noSpace },
          ...namedOptions(spaces),
        ])}
      {domains.length > 1 &&
        filterSelect(t.links.domain, 'domain_id', [
          { value: '', label: t.common.all },
          ...namedOptions(domains),
        ])}
      {pixels.length > 0 &&
        filterSelect(t.links.pixel, 'pixel_id', [
          { value: '', label: t.common.all },
          ...namedOptions(pixels),
        ])}
    </>
  );
}
