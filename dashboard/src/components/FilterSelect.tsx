import { Field } from './Field';

export interface Option {
  value: string;
  label: string;
}

/**
 * The account's rows (spaces, domains...) as choices by id, `current` first when it is not among them (a link's
 * space that a restricted key cannot list, say), so that a form shows what the link has.
 */
export function namedOptions(
  rows: readonly { id: number; name: string }[],
  current?: { id: number; name: string } | null,
): Option[] {
  const shown = current && !rows.some((row) => row.id === current.id) ? [current, ...rows] : rows;
  return shown.map((row) => ({ value: String(row.id), label: row.name }));
}

/** The values of an enum as choices, each named by `labels` (a catalogue's names of them). */
export function labelledOptions<V extends string | number>(
  values: readonly V[],
  labels: Readonly<Record<V, string>>,
): Option[] {
  return values.map((value) => ({ value: String(value), label: labels[value] }));
}

/** The `<option>`s of a list of choices. */
export function Options({ options }: { options: readonly Option[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}

interface FilterSelectProps {
  label: string;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
  /** As wide as its longest label: for the dashboard's own labels, not for the account's names, which may be long. */
  fit?: boolean;
}

/** One filter or order of a list: a labelled choice that takes effect at once. */
export function FilterSelect({ label, value, options, onChange, fit = false }: FilterSelectProps) {
  return (
    <Field label={label} className={fit ? 'filter filter-fit' : 'filter'}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <Options options={options} />
        </select>
      )}
    </Field>
  );
}

/**
 * The filters of a list's address parameters: `filter(label, name, options)` is the choice of the parameter `name`,
 * changed at once. `fit` as for FilterSelect, for each filter unless it says otherwise.
 */
export function filterSelects<K extends string>(
  values: Readonly<Record<K, string>>,
  update: (changes: Partial<Record<K, string>>) => void,
  fitEach = false,
) {
  return (label: string, name: K, options: readonly Option[], fit = fitEach) => (
    <FilterSelect
      label={label}
      value={values[name]}
      options={options}
      onChange={(value) => update({ [name]: value } as Partial<Record<K, string>>)}
      fit={fit}
    />
  );
}
