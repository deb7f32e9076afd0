import { useState } from 'react';
import { saveRow } from '../../api/client';
import type { Tag, TagColor } from '../../api/types';
import { ColorField } from '../../components/ColorField';
import { NameField } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { useT } from '../../i18n/I18nProvider';
import { MAX_TAG_NAME } from './tagNames';

const TAG_FIELDS = ['name', 'color'] as const;

interface TagDialogProps {
  tag: Tag | null;
  onClose: () => void;
  onSaved: (tag: Tag) => void;
}

/** A tag's name and colour; a new name is the tag's name on every link that holds it. */
export function TagDialog({ tag, onClose, onSaved }: TagDialogProps) {
  const t = useT();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState<TagColor>(tag?.color ?? 1);

  const save = async () => {
    const saved = await saveRow('/api/v1/tags', tag, { name: name.trim(), color });
    onSaved(saved.data);
  };
  const form = useDialogForm(TAG_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.tags, tag)} form={form} onClose={onClose}>
      <NameField field={form.field('name')} value={name} onChange={setName} maxLength={MAX_TAG_NAME} />
      {tag && <p className="hint">{t.tags.renameHint}</p>}
      <ColorField value={color} onChange={setColor} errors={form.errors.color} />
    </FormDialog>
  );
}
