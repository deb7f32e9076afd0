import { useEffect, useLayoutEffect, useId, useRef, useState, type ReactNode } from 'react';
import { api, call } from '../../api/client';
import { withoutFields } from '../../api/errors';
import type { UtmTemplate } from '../../api/types';
import { Field, FormAlert } from '../../components/Field';
import { namedOptions, Options } from '../../components/FilterSelect';
import { useNotify } from '../../components/Notifications';
import { withScheme } from '../../components/UrlInput';
import { useLoad } from '../../hooks/useLoad';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { UTM_FIELDS, utmBody, utmValuesOf, withUtm, type UtmValues } from './utm';

/** The most templates the picker offers, by name: a list page's most. */
const PICKER_SIZE = 100;
const MAX_TEMPLATE_NAME = 100;

interface UtmBuilderProps {
  /** The destination as typed. */
  url: string;
  values: UtmValues;
  /** A template's parameters, to replace the five fields' values. */
  onApply: (values: UtmValues) => void;
  /** The five fields. */
  children: ReactNode;
}

/**
 * The link form's UTM section: the workspace's templates to fill the fields from, the fields, where a visit will
 * go with them, and the fields saved as a new template.
 */
export function UtmBuilder({ url, values, onApply, children }: UtmBuilderProps) {
  const t = useT();
  const notify = useNotify();
  const templates = useLoad('utm-templates', (signal) =>
    call(
      api.GET('/api/v1/utm-templates', {
        params: { query: { sort_by: 'name', sort: 'asc', per_page: PICKER_SIZE } },
        signal,
      }),
    ),
  );
  const [chosen, setChosen] = useState('');
  const [naming, setNaming] = useState(false);
  const saveAsRef = useRef<HTMLButtonElement>(null);
  // Once the prompt goes, the keyboard goes on from the button that opened it.
  const refocus = useRef(false);
  const hintId = useId();
  const options = templates.data?.data ?? [];
  const nothingSet = UTM_FIELDS.every((name) => values[name].trim() === '');

  const apply = () => {
    const template = options.find((option) => String(option.id) === chosen);
    if (template === undefined) return;
    onApply(utmValuesOf(template));
    notify(t.utm.applied(template.name));
  };

  const closeNaming = () => {
    refocus.current = true;
    setNaming(false);
  };
  useEffect(() => {
    if (naming || !refocus.current) return;
    refocus.current = false;
    saveAsRef.current?.focus();
  }, [naming]);

  return (
    <>
      {options.length > 0 && (
        <div className="utm-picker">
          <Field label={t.utm.template}>
            {(control) => (
              <select {...control} value={chosen} onChange={(event) => setChosen(event.target.value)}>
                <option value="">{t.utm.choose}</option>
                <Options options={namedOptions(options)} />
              </select>
            )}
          </Field>
          <button type="button" disabled={chosen === ''} onClick={apply}>
            {t.utm.apply}
          </button>
        </div>
      )}
      <div className="field-row">{children}</div>
      <UtmPreview url={url} values={values} />
      {naming ? (
        <SaveTemplate
          values={values}
          onSaved={(template) => {
            templates.reload();
            setChosen(String(template.id));
            notify(t.utm.saved(template.name));
            closeNaming();
          }}
          onCancel={closeNaming}
        />
      ) : (
        <div className="utm-save-as">
          <button
            ref={saveAsRef}
            type="button"
            disabled={nothingSet}
            aria-describedby={nothingSet ? hintId : undefined}
            onClick={() => setNaming(true)}
          >
            {t.utm.saveAs}
          </button>
          {nothingSet && (
            <p id={hintId} className="hint">
              {t.utm.nothingToSave}
            </p>
          )}
        </div>
      )}
    </>
  );
}

/** The destination with the parameters merged in, as a visit will be sent there. */
function UtmPreview({ url, values }: { url: string; values: UtmValues }) {
  const t = useT();
  const target = url.trim() === '' ? null : withUtm(withScheme(url.trim()), values);
  return (
    <p className="utm-preview">
      <span className="utm-preview-label">{t.utm.preview}</span>{' '}
      {target === null ? <span className="hint">{t.utm.previewNone}</span> : <code>{target}</code>}
    </p>
  );
}

/**
 * The name of a new template of the fields' values, asked in place: the link form around it is no place for a
 * form of its own, so Enter here saves the template, not the link.
 */
function SaveTemplate({
  values,
  onSaved,
  onCancel,
}: {
  values: UtmValues;
  onSaved: (template: UtmTemplate) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const submission = useSubmit(['name']);
  const [name, setName] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => inputRef.current?.focus(), []);

  const save = () =>
    submission.submit(async () => {
      const saved = await call(
        api.POST('/api/v1/utm-templates', { body: { name: name.trim(), ...utmBody(values) } }),
      );
      onSaved(saved.data);
    });

  return (
    <div className="utm-save" role="group" aria-label={t.utm.saveAs}>
      <FormAlert message={submission.message} errors={withoutFields(submission.errors, ['name'])} />
      <Field label={t.utm.name} {...submission.field('name')}>
        {(control) => (
          <input
            {...control}
            ref={inputRef}
            maxLength={MAX_TEMPLATE_NAME}
            value={name}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                if (name.trim() !== '') void save();
              } else if (event.key === 'Escape') {
                event.preventDefault();
                onCancel();
              }
            }}
          />
        )}
      </Field>
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={submission.saving || name.trim() === ''}
          onClick={() => void save()}
        >
          {t.utm.saveTemplate}
        </button>
        <button type="button" onClick={onCancel}>
          {t.common.cancel}
        </button>
      </div>
    </div>
  );
}
