import { useState } from 'react';
import { saveRow } from '../../api/client';
import type { UtmTemplate } from '../../api/types';
import { Field, NameField } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { useT } from '../../i18n/I18nProvider';
import { MAX_UTM_VALUE, UTM_FIELDS, utmBody, utmValuesOf, type UtmField } from './utm';

const TEMPLATE_FIELDS = ['name', ...UTM_FIELDS] as const;
const MAX_TEMPLATE_NAME = 100;

interface UtmTemplateDialogProps {
  template: UtmTemplate | null;
  onClose: () => void;
  onSaved: (template: UtmTemplate) => void;
}

/** A template's name and its parameters, one of them at least. */
export function UtmTemplateDialog({ template, onClose, onSaved }: UtmTemplateDialogProps) {
  const t = useT();
  const [name, setName] = useState(template?.name ?? '');
  const [values, setValues] = useState(() => utmValuesOf(template));

  const set = (field: UtmField, value: string) => setValues((previous) => ({ ...previous, [field]: value }));

  const save = async () => {
    const saved = await saveRow('/api/v1/utm-templates', template, { name: name.trim(), ...utmBody(values) });
    onSaved(saved.data);
  };
  const form = useDialogForm(TEMPLATE_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.utm, template)} form={form} onClose={onClose}>
      <NameField field={form.field('name')} value={name} onChange={setName} maxLength={MAX_TEMPLATE_NAME} />
      <fieldset>
        <legend>{t.utm.parameters}</legend>
        <p className="hint">{t.utm.parametersHint}</p>
        {UTM_FIELDS.map((field) => (
          <Field key={field} label={t.linkForm.extras[field]} {...form.field(field)}>
            {(control) => (
              <input
                {...control}
                maxLength={MAX_UTM_VALUE}
                value={values[field]}
                onChange={(event) => set(field, event.target.value)}
              />
            )}
          </Field>
        ))}
      </fieldset>
    </FormDialog>
  );
}
