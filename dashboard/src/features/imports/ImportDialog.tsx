import { useState } from 'react';
import { api, call } from '../../api/client';
import { ImportOnConflictValues, ImportSourceValues } from '../../api/enums';
import type { ImportJob, ImportOnConflict, ImportSource } from '../../api/types';
import { Checkbox, Field } from '../../components/Field';
import { Options } from '../../components/FilterSelect';
import { FormDialog, useDialogForm, type DialogForm } from '../../components/FormDialog';
import { UrlInput } from '../../components/UrlInput';
import { useI18n } from '../../i18n/I18nProvider';
import {
  importBody,
  NO_OPTIONS,
  OPTION_MAX_LENGTH,
  SECRET_OPTIONS,
  SOURCE_NAMES,
  SOURCE_OPTIONS,
  type OptionValues,
  type SourceOption,
} from './sources';

const IMPORT_FIELDS = [
  'source',
  'url',
  'api_key',
  'access_token',
  'database_url',
  'table_prefix',
  'dry_run',
  'on_conflict',
] as const;

interface ImportDialogProps {
  onClose: () => void;
  onSaved: (started: ImportJob) => void;
}

/** Starts an import: the source, the options it needs, a dry run, and what to do with a taken alias. */
export function ImportDialog({ onClose, onSaved }: ImportDialogProps) {
  const { t } = useI18n();
  const [source, setSource] = useState<ImportSource>('phpshort');
  const [options, setOptions] = useState<OptionValues>(NO_OPTIONS);
  const [dryRun, setDryRun] = useState(false);
  const [onConflict, setOnConflict] = useState<ImportOnConflict>('skip');

  const save = async () => {
    const body = importBody(source, options, dryRun, onConflict);
    const started = await call(api.POST('/api/v1/imports', { body }));
    onSaved(started.data);
  };
  const form = useDialogForm(IMPORT_FIELDS, save);

  return (
    <FormDialog title={t.imports.new} form={form} onClose={onClose} saveLabel={t.imports.start}>
      <ChoiceField
        label={t.imports.source}
        field={form.field('source')}
        value={source}
        options={ImportSourceValues.map((value) => ({ value, label: SOURCE_NAMES[value] }))}
        onChange={setSource}
      />
      {SOURCE_OPTIONS[source].map((option) => (
        <OptionField
          key={option.name}
          option={option}
          field={form.field(option.name)}
          value={options[option.name]}
          onChange={(value) => setOptions((previous) => ({ ...previous, [option.name]: value }))}
        />
      ))}
      <Checkbox label={t.imports.dryRun} checked={dryRun} errors={form.errors.dry_run} onChange={setDryRun} />
      <ChoiceField
        label={t.imports.onConflict}
        field={form.field('on_conflict')}
        value={onConflict}
        options={ImportOnConflictValues.map((value) => ({ value, label: t.imports.onConflicts[value] }))}
        onChange={setOnConflict}
      />
    </FormDialog>
  );
}

type FieldState = ReturnType<DialogForm['field']>;

interface ChoiceFieldProps<T extends string> {
  label: string;
  field: FieldState;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}

/** One of a few values, the API's messages about it beside it. */
function ChoiceField<T extends string>({ label, field, value, options, onChange }: ChoiceFieldProps<T>) {
  return (
    <Field label={label} {...field}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value as T)}>
          <Options options={options} />
        </select>
      )}
    </Field>
  );
}

interface OptionFieldProps {
  option: SourceOption;
  field: FieldState;
  value: string;
  onChange: (value: string) => void;
}

/**
 * One option of the source: a URL field for its address, a password field for a credential. None is `required` to
 * the browser: the API says which are missing, beside them.
 */
function OptionField({ option, field, value, onChange }: OptionFieldProps) {
  const { t } = useI18n();
  const hint = option.hint === undefined ? undefined : t.imports.hints[option.hint];
  const required = option.required ? true : undefined;
  const maxLength = OPTION_MAX_LENGTH[option.name];
  return (
    <Field label={t.imports.options[option.name]} hint={hint} {...field}>
      {(control) =>
        option.name === 'url' ? (
          <UrlInput
            {...control}
            aria-required={required}
            maxLength={maxLength}
            value={value}
            onChange={onChange}
          />
        ) : (
          <input
            {...control}
            type={SECRET_OPTIONS.has(option.name) ? 'password' : 'text'}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-required={required}
            maxLength={maxLength}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}
