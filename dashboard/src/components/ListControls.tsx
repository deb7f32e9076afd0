import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { PerPageValues } from '../api/enums';
import { useDebouncedValue } from '../hooks/useDebouncedValue';
import { useT } from '../i18n/I18nProvider';
import { Field } from './Field';
import { FilterSelect, type Option } from './FilterSelect';

const SEARCH_DELAY_MS = 300;

export interface ListValues {
  search: string;
  search_by: string;
  sort_by: string;
  sort: string;
  per_page: string;
}

interface ListControlsProps {
  label: string;
  values: Readonly<ListValues>;
  update: (changes: Partial<ListValues>) => void;
  searchBy?: Option[];
  sortBy: Option[];
  children?: ReactNode;
}

/** Search (sent once typing pauses), the search column, the order and the page size of a list. */
export function ListControls({ label, values, update, searchBy, sortBy, children }: ListControlsProps) {
  const t = useT();
  const [search, setSearch] = useState(values.search);
  const [addressed, setAddressed] = useState(values.search);
  // The address changed by other means (Back, a link to the bare list): the field follows it.
  if (values.search !== addressed) {
    setAddressed(values.search);
    setSearch(values.search);
  }
  const settled = useDebouncedValue(search, SEARCH_DELAY_MS);

  // Typing reaches the address, and so the API, once it pauses; only a new pause sends, never a change of address.
  const send = useEffectEvent((value: string) => {
    if (value !== values.search) update({ search: value });
  });
  useEffect(() => send(settled), [settled]);

  // Their labels are the dashboard's own: each control is as wide as its longest one, in every language.
  const select = (name: keyof ListValues, text: string, options: Option[]) => (
    <FilterSelect
      label={text}
      value={values[name]}
      options={options}
      onChange={(value) => update({ [name]: value })}
      fit
    />
  );

  return (
    <div role="search" className="filters" aria-label={label}>
      <Field label={t.common.search} className="filter filter-search">
        {(control) => (
          <input
            {...control}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        )}
      </Field>
      {searchBy && searchBy.length > 1 && select('search_by', t.common.searchIn, searchBy)}
      {children}
      {select('sort_by', t.common.sortBy, sortBy)}
      {select('sort', t.common.order, [
        { value: 'desc', label: t.common.desc },
        { value: 'asc', label: t.common.asc },
      ])}
      {select(
        'per_page',
        t.common.perPage,
        PerPageValues.map((value) => ({ value: String(value), label: String(value) })),
      )}
    </div>
  );
}
