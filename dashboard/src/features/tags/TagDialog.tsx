import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Tag, TagColor } from '../../api/types';
import { ColorField } from '../../components/ColorField';
import { NameField } from '../../components/Field';
import { FormDialog } from '../../components/FormDialog';
import { useSubmit } from '../../hooks/useSubmit';
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
  const submission = useSubmit(TAG_FIELDS);
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState<TagColor>(tag?.color ?? 1);

  const save = async () => {
    const body = { name: name.trim(), color };
    const saved = tag
      ? await call(api.PUT('/api/v1/tags/{id}', { params: { path: { id: tag.id } }, body }))
      : await call(api.POST('/api/v1/tags', { body }));
    onSaved(saved.data);
  };

  return (
    <FormDialog
      title={tag ? t.tags.editTitle(tag.name) : t.tags.new}
      submission={submission}
      onSave={save}
      onClose={onClose}
    >
      <NameField field={submission.field('name')} value={name} onChange={setName} maxLength={MAX_TAG_NAME} />
      {tag && <p className="hint">{t.tags.renameHint}</p>}
      <ColorField value={color} onChange={setColor} errors={submission.errors.color} />
    </FormDialog>
  );
}
