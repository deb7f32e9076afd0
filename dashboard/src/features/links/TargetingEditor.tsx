import { useMemo, type ReactNode } from 'react';
import {
  BrowserValues,
  ContinentValues,
  DeviceValues,
  OperatingSystemValues,
  TargetsTypeValues,
} from '../../api/enums';
import type { FieldErrors } from '../../api/errors';
import type { TargetsType } from '../../api/types';
import { Field, FieldErrors as ErrorList } from '../../components/Field';
import { labelledOptions, Options } from '../../components/FilterSelect';
import { NumberInput } from '../../components/NumberInput';
import { UrlInput } from '../../components/UrlInput';
import type { Messages } from '../../i18n/en';
import { useI18n } from '../../i18n/I18nProvider';
import { countries, languages } from '../../i18n/names';
import { changeType, MAX_TARGETS, newRow, type Targeting, type TargetRow } from './targeting';

interface Option {
  value: string;
  label: string;
}

type KeyedType = Exclude<TargetsType, 'rotations'>;

/** The values a key may take for each targets type, as the API's document lists them, named for the reader. */
function keyOptions(type: KeyedType, language: string, t: Messages): Option[] {
  switch (type) {
    case 'countries':
      return countries(language).map(({ code, name }) => ({ value: code, label: `${name} (${code})` }));
    case 'languages':
      return languages(language).map(({ code, name }) => ({ value: code, label: `${name} (${code})` }));
    case 'continents':
      return ContinentValues.map((code) => ({ value: code, label: `${t.continents[code]} (${code})` }));
    case 'devices':
      return labelledOptions(DeviceValues, t.devices);
    case 'operating_systems':
      return OperatingSystemValues.map((os) => ({ value: os, label: os }));
    case 'browsers':
      return BrowserValues.map((browser) => ({ value: browser, label: browser }));
  }
}

interface TargetingEditorProps {
  value: Targeting;
  onChange: (value: Targeting) => void;
  /** The API's 422 messages, named as it names them: `targets_type`, `targets`, `targets.0.key`... */
  errors: FieldErrors;
}

/**
 * Sends visitors elsewhere by who they are: rows of key → URL for a targets type, the first matching row winning,
 * or for rotations a list of URLs visited in turn.
 */
export function TargetingEditor({ value, onChange, errors }: TargetingEditorProps) {
  const { t, language } = useI18n();
  const { type, rows } = value;
  const options = useMemo(
    () => (type === '' || type === 'rotations' ? [] : keyOptions(type, language, t)),
    [type, language, t],
  );

  const update = (id: number, change: Partial<TargetRow>) =>
    onChange({ type, rows: rows.map((row) => (row.id === id ? { ...row, ...change } : row)) });
  const remove = (id: number) => onChange({ type, rows: rows.filter((row) => row.id !== id) });
  const add = () => onChange({ type, rows: [...rows, newRow()] });

  const rotations = type === 'rotations';

  return (
    <fieldset className="targeting">
      <legend>{t.targeting.title}</legend>
      <p className="hint">{t.targeting.intro}</p>
      <Field label={t.targeting.type} errors={errors.targets_type}>
        {(control) => (
          <select
            {...control}
            value={type}
            onChange={(event) => onChange(changeType(value, event.target.value as TargetsType | ''))}
          >
            <option value="">{t.targeting.none}</option>
            <Options options={labelledOptions(TargetsTypeValues, t.targeting.types)} />
          </select>
        )}
      </Field>
      {type !== '' && (
        <>
          <p className="hint">{rotations ? t.targeting.rotationsHint : t.targeting.rulesHint}</p>
          <ErrorList errors={errors.targets} />
          <ol className="target-rows">
            {rows.map((row, index) => (
              <li key={row.id}>
                <TargetRowFields
                  legend={rotations ? t.targeting.destination(index + 1) : t.targeting.rule(index + 1)}
                  rowErrors={errors[`targets.${index}`]}
                  onRemove={() => remove(row.id)}
                  removeLabel={t.targeting.remove}
                >
                  {!rotations && (
                    <Field label={t.targeting.types[type]} errors={errors[`targets.${index}.key`]}>
                      {(control) => (
                        <select
                          {...control}
                          required
                          value={row.key}
                          onChange={(event) => update(row.id, { key: event.target.value })}
                        >
                          <option value="">{t.targeting.choose}</option>
                          {row.key !== '' && !options.some((option) => option.value === row.key) && (
                            <option value={row.key}>{row.key}</option>
                          )}
                          <Options options={options} />
                        </select>
                      )}
                    </Field>
                  )}
                  <Field label={t.targeting.url} errors={errors[`targets.${index}.value`]}>
                    {(control) => (
                      <UrlInput
                        {...control}
                        required
                        value={row.url}
                        onChange={(url) => update(row.id, { url })}
                      />
                    )}
                  </Field>
                  {rotations && (
                    <Field
                      label={t.targeting.weight}
                      errors={errors[`targets.${index}.weight`]}
                      hint={t.targeting.weightHint}
                    >
                      {(control) => (
                        <NumberInput
                          {...control}
                          min={1}
                          max={100}
                          step={1}
                          placeholder="1"
                          value={row.weight}
                          onChange={(event) => update(row.id, { weight: event.target.value })}
                        />
                      )}
                    </Field>
                  )}
                </TargetRowFields>
              </li>
            ))}
          </ol>
          <button type="button" onClick={add} disabled={rows.length >= MAX_TARGETS}>
            {rotations ? t.targeting.addDestination : t.targeting.addRule}
          </button>
        </>
      )}
    </fieldset>
  );
}

interface TargetRowFieldsProps {
  legend: string;
  rowErrors: string[] | undefined;
  removeLabel: string;
  onRemove: () => void;
  children: ReactNode;
}

function TargetRowFields({ legend, rowErrors, removeLabel, onRemove, children }: TargetRowFieldsProps) {
  return (
    <fieldset className="target-row">
      <legend>{legend}</legend>
      <div className="target-row-fields">
        {children}
        <button type="button" className="link-button" onClick={onRemove}>
          {removeLabel} <span className="sr-only">{legend}</span>
        </button>
      </div>
      <ErrorList errors={rowErrors} />
    </fieldset>
  );
}
