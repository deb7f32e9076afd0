import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Space, SpaceColor } from '../../api/types';
import { ColorField } from '../../components/ColorField';
import { NameField } from '../../components/Field';
import { FormDialog } from '../../components/FormDialog';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';

const SPACE_FIELDS = ['name', 'color'] as const;

interface SpaceDialogProps {
  space: Space | null;
  onClose: () => void;
  onSaved: (space: Space) => void;
}

export function SpaceDialog({ space, onClose, onSaved }: SpaceDialogProps) {
  const { t } = useI18n();
  const submission = useSubmit(SPACE_FIELDS);
  const title = space ? t.spaces.editTitle(space.name) : t.spaces.new;
  const [name, setName] = useState(space?.name ?? '');
  const [color, setColor] = useState<SpaceColor>(space?.color ?? 1);

  const save = async () => {
    const body = { name: name.trim(), color };
    const saved = space
      ? await call(api.PUT('/api/v1/spaces/{id}', { params: { path: { id: space.id } }, body }))
      : await call(api.POST('/api/v1/spaces', { body }));
    onSaved(saved.data);
  };

  return (
    <FormDialog title={title} submission={submission} onSave={save} onClose={onClose}>
      <NameField field={submission.field('name')} value={name} onChange={setName} />
      <ColorField value={color} onChange={setColor} errors={submission.errors.color} />
    </FormDialog>
  );
}
