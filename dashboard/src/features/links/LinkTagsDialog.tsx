import { useState } from 'react';
import { api, call } from '../../api/client';
import { errorsUnder } from '../../api/errors';
import type { Link } from '../../api/types';
import { FormDialog, useDialogForm } from '../../components/FormDialog';
import { useT } from '../../i18n/I18nProvider';
import { TagInput } from '../tags/TagInput';
import type { TagColors } from '../tags/tagNames';

const TAGS_FIELDS = ['tags'] as const;

interface LinkTagsDialogProps {
  link: Link;
  colors: TagColors;
  onClose: () => void;
  onSaved: (link: Link) => void;
}

/** A link's tags edited from its row: the change sends the tags alone, so nothing else of the link is touched. */
export function LinkTagsDialog({ link, colors, onClose, onSaved }: LinkTagsDialogProps) {
  const t = useT();
  const [tags, setTags] = useState<string[]>(link.tags);

  const save = async () => {
    const saved = await call(
      api.PATCH('/api/v1/links/{id}', { params: { path: { id: link.id } }, body: { tags } }),
    );
    onSaved(saved.data);
  };
  const form = useDialogForm(TAGS_FIELDS, save);

  return (
    <FormDialog title={t.links.tagsTitle(link.short_url)} form={form} onClose={onClose}>
      <TagInput
        label={t.linkForm.tags}
        value={tags}
        onChange={setTags}
        colors={colors}
        hint={t.tags.inputHint}
        errors={errorsUnder(form.errors, 'tags')}
        onEdit={form.field('tags').onEdit}
        focusFirst
      />
    </FormDialog>
  );
}
