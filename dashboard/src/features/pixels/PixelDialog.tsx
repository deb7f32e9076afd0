import { useState } from 'react';
import { saveRow } from '../../api/client';
import type { Pixel, PixelType } from '../../api/types';
import { Field, NameField } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { useI18n } from '../../i18n/I18nProvider';
import { PixelTypeOptions } from './pixelTypes';

const PIXEL_FIELDS = ['name', 'type', 'value'] as const;

interface PixelDialogProps {
  pixel: Pixel | null;
  onClose: () => void;
  onSaved: (pixel: Pixel) => void;
}

export function PixelDialog({ pixel, onClose, onSaved }: PixelDialogProps) {
  const { t } = useI18n();
  const [name, setName] = useState(pixel?.name ?? '');
  const [type, setType] = useState<PixelType>(pixel?.type ?? 'google-analytics');
  const [value, setValue] = useState(pixel?.value ?? '');

  const save = async () => {
    const saved = await saveRow('/api/v1/pixels', pixel, { name: name.trim(), type, value: value.trim() });
    onSaved(saved.data);
  };
  const form = useDialogForm(PIXEL_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.pixels, pixel)} form={form} onClose={onClose}>
      <NameField field={form.field('name')} value={name} onChange={setName} />
      <Field label={t.pixels.type} {...form.field('type')}>
        {(control) => (
          <select {...control} value={type} onChange={(event) => setType(event.target.value as PixelType)}>
            <PixelTypeOptions />
          </select>
        )}
      </Field>
      <Field label={t.pixels.value} {...form.field('value')} hint={t.pixels.valueHint}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={255}
            spellCheck={false}
            autoCapitalize="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
