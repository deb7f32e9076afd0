import { useState } from 'react';
import { saveRow } from '../../api/client';
import type { Space, SpaceColor } from '../../api/types';
import { ColorField } from '../../components/ColorField';
import { NameField } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { useI18n } from '../../i18n/I18nProvider';

const SPACE_FIELDS = ['name', 'color'] as const;

interface SpaceDialogProps {
  space: Space | null;
  onClose: () => void;
  onSaved: (space: Space) => void;
}

export function SpaceDialog({ space, onClose, onSaved }: SpaceDialogProps) {
  const { t } = useI18n();
  const [name, setName] = useState(space?.name ?? '');
  const [color, setColor] = useState<SpaceColor>(space?.color ?? 1);

  const save = async () => {
    const saved = await saveRow('/api/v1/spaces', space, { name: name.trim(), color });
    onSaved(saved.data);
  };
  const form = useDialogForm(SPACE_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.spaces, space)} form={form} onClose={onClose}>
      <NameField field={form.field('name')} value={name} onChange={setName} />
      <ColorField value={color} onChange={setColor} errors={form.errors.color} />
    </FormDialog>
  );
}
