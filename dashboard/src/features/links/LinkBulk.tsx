import { useId, useState } from 'react';
import { api, call } from '../../api/client';
import { isApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import type { Space } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import { useI18n } from '../../i18n/I18nProvider';
import { TagInput } from '../tags/TagInput';
import type { TagColors } from '../tags/tagNames';

export type BulkAction = 'move' | 'tagsAdd' | 'tagsRemove' | 'archive' | 'unarchive' | 'delete';

type Changes = components['schemas']['BulkLinkChangesDto'];
type Filter = components['schemas']['LinkFiltersDto'];
/** What a bulk request names: ids picked by hand, or the list's filters. */
export type BulkLinks = { ids: number[] } | { filter: Filter };

/** One request for the whole selection; answers how many links it changed or deleted. */
export async function sendBulk(links: BulkLinks, action: BulkAction, changes: Changes): Promise<number> {
  if (action === 'delete') {
    const answer = await call(api.DELETE('/api/v1/links/bulk', { body: links }));
    return answer.data.deleted;
  }
  const answer = await call(api.PATCH('/api/v1/links/bulk', { body: { ...links, changes } }));
  return answer.data.updated;
}

/** A 422's own sentences (the selection is too large, a link is gone): they say what to change. */
const refusal = (error: unknown) =>
  isApiError(error) && error.status === 422 && Object.keys(error.fields).length > 0
    ? Object.values(error.fields).flat().join(' ')
    : isApiError(error) && error.status === 422
      ? error.message
      : null;

interface BulkBarProps {
  count: number;
  /** Whether every link matching the filters is selected, rather than links picked by hand. */
  all: boolean;
  /** Whether the session may change links (the bar then offers only the export). */
  mayWrite: boolean;
  /** Whether the list shows the archive, where Unarchive is the action that applies. */
  archived: boolean;
  spaces: readonly Space[];
  onAction: (action: BulkAction) => void;
  onExport: () => void;
  onClear: () => void;
}

/** The actions on the selected links, shown once some are selected; its count is announced by the page. */
export function LinkBulkBar(props: BulkBarProps) {
  const { t, number } = useI18n();
  const { count, all, mayWrite } = props;
  const exportHint = useId();
  return (
    <section className="bulk-bar" aria-label={t.bulk.bar}>
      <p className="bulk-count">{t.bulk.selected(number(count))}</p>
      {mayWrite && (
        <>
          {props.spaces.length > 0 && (
            <button type="button" onClick={() => props.onAction('move')}>
              {t.bulk.move}
            </button>
          )}
          <button type="button" onClick={() => props.onAction('tagsAdd')}>
            {t.bulk.addTags}
          </button>
          <button type="button" onClick={() => props.onAction('tagsRemove')}>
            {t.bulk.removeTags}
          </button>
          <button type="button" onClick={() => props.onAction(props.archived ? 'unarchive' : 'archive')}>
            {props.archived ? t.bulk.unarchive : t.bulk.archive}
          </button>
          <button type="button" className="danger" onClick={() => props.onAction('delete')}>
            {t.bulk.delete}
          </button>
        </>
      )}
      {/* The export route takes the filters alone: links picked by hand cannot be named to it. */}
      <button
        type="button"
        aria-disabled={!all}
        aria-describedby={all ? undefined : exportHint}
        onClick={() => {
          if (all) props.onExport();
        }}
      >
        {t.bulk.export}
      </button>
      <button type="button" className="link-button" onClick={props.onClear}>
        {t.bulk.clear}
      </button>
      {!all && (
        <p id={exportHint} className="hint bulk-hint">
          {t.bulk.exportByFilter}
        </p>
      )}
    </section>
  );
}

interface BulkDialogProps {
  action: BulkAction;
  count: number;
  spaces: readonly Space[];
  colors: TagColors;
  /** Sends the request; the dialog shows its failure, and the page closes it on success. */
  onConfirm: (changes: Changes) => Promise<void>;
  onClose: () => void;
}

/** Asks before a bulk action, saying how many links it changes, with the space or the tags it asks for first. */
export function LinkBulkDialog({ action, count, spaces, colors, onConfirm, onClose }: BulkDialogProps) {
  const { t, number } = useI18n();
  const [spaceId, setSpaceId] = useState('0');
  const [tags, setTags] = useState<string[]>([]);
  const shown = number(count);
  const spaceName = spaces.find((space) => String(space.id) === spaceId)?.name ?? t.links.noSpace;
  const tagged = action === 'tagsAdd' || action === 'tagsRemove';

  const changes = (): Changes => {
    switch (action) {
      case 'move':
        // No space is sent as null: the API reads it as taking the links out of their space.
        return { space_id: spaceId === '0' ? null : Number(spaceId) };
      case 'tagsAdd':
        return { tags_add: tags };
      case 'tagsRemove':
        return { tags_remove: tags };
      case 'archive':
        return { archived: 1 };
      case 'unarchive':
        return { archived: 0 };
      case 'delete':
        return {};
    }
  };
  const question =
    action === 'move'
      ? t.bulk.questions.move(count, shown, spaceName)
      : t.bulk.questions[action](count, shown);
  const labels: Record<BulkAction, string> = {
    move: t.bulk.move,
    tagsAdd: t.bulk.addTags,
    tagsRemove: t.bulk.removeTags,
    archive: t.bulk.archive,
    unarchive: t.bulk.unarchive,
    delete: t.bulk.delete,
  };

  return (
    <ConfirmDialog
      title={labels[action]}
      confirmLabel={labels[action]}
      danger={action === 'delete'}
      confirmDisabled={tagged && tags.length === 0}
      onConfirm={() => onConfirm(changes())}
      onClose={onClose}
      own={refusal}
    >
      {action === 'move' && (
        <Field label={t.bulk.space}>
          {(control) => (
            <select {...control} value={spaceId} onChange={(event) => setSpaceId(event.target.value)}>
              <option value="0">{t.links.noSpace}</option>
              {spaces.map((space) => (
                <option key={space.id} value={String(space.id)}>
                  {space.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {tagged && <TagInput label={t.bulk.tags} value={tags} onChange={setTags} colors={colors} focusFirst />}
      <p aria-live="polite">{question}</p>
    </ConfirmDialog>
  );
}
