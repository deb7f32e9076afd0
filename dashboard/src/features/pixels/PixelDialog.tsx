import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Pixel, PixelType } from '../../api/types';
import { Field, NameField } from '../../components/Field';
import { FormDialog } from '../../components/FormDialog';
import { useSubmit } from '../../hooks/useSubmit';
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
  const submission = useSubmit(PIXEL_FIELDS);
  const title = pixel ? t.pixels.editTitle(pixel.name) : t.pixels.new;
  const [name, setName] = useState(pixel?.name ?? '');
  const [type, setType] = useState<PixelType>(pixel?.type ?? 'google-analytics');
  const [value, setValue] = useState(pixel?.value ?? '');

  const save = async () => {
    const body = { name: name.trim(), type, value: value.trim() };
    const saved = pixel
      ? await call(api.PUT('/api/v1/pixels/{id}', { params: { path: { id: pixel.id } }, body }))
      : await call(api.POST('/api/v1/pixels', { body }));
    onSaved(saved.data);
  };

  return (
    <FormDialog title={title} submission={submission} onSave={save} onClose={onClose}>
      <NameField field={submission.field('name')} value={name} onChange={setName} />
      <Field label={t.pixels.type} {...submission.field('type')}>
        {(control) => (
          <select {...control} value={type} onChange={(event) => setType(event.target.value as PixelType)}>
            <PixelTypeOptions />
          </select>
        )}
      </Field>
      <Field label={t.pixels.value} {...submission.field('value')} hint={t.pixels.valueHint}>
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
