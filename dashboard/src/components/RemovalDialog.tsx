import type { OwnWords } from '../api/describe';
import type { Messages } from '../i18n/en';
import { ConfirmDialog } from './ConfirmDialog';
import { useNotify } from './Notifications';

/** The destructive action of a row (delete, revoke, remove): its button, its question and what it does. */
export interface Removal<T> {
  label: string;
  title: string;
  /** What becomes of the row, named as the list names it. */
  confirm: (name: string) => string;
  /** Said after the question for a row whose removal touches the reader (their own key, themselves). */
  warning?: (row: T) => string | false;
  done: (name: string) => string;
  run: (row: T) => Promise<unknown>;
  /** Some refusals in the page's own words. */
  own?: OwnWords;
}

/** What a resource's catalogue section says of deleting one of its rows: `resource()`'s texts and its question. */
interface DeletionTexts {
  deleteTitle: string;
  deleteConfirm: (name: string) => string;
  deleted: (name: string) => string;
}

/** The deletion of a resource's row, asked and told in its catalogue section's words. */
export function deletion<T>(
  t: Messages,
  texts: DeletionTexts,
  run: (row: T) => Promise<unknown>,
): Removal<T> {
  return {
    label: t.common.delete,
    title: texts.deleteTitle,
    confirm: texts.deleteConfirm,
    done: texts.deleted,
    run,
  };
}

interface RemovalDialogProps<T> {
  removal: Removal<T>;
  row: T;
  /** How the row is named in the question and in the message once it is gone. */
  name: string;
  onClose: () => void;
  /** After the removal: close the dialog, load the list again. */
  onRemoved: () => void;
}

/** Asks before a row's removal, runs it, and says it is done; a refusal stays in the dialog. */
export function RemovalDialog<T>({ removal, row, name, onClose, onRemoved }: RemovalDialogProps<T>) {
  const notify = useNotify();
  const warning = removal.warning?.(row);
  const confirm = async () => {
    await removal.run(row);
    onRemoved();
    notify(removal.done(name));
  };
  return (
    <ConfirmDialog
      title={removal.title}
      confirmLabel={removal.label}
      onConfirm={confirm}
      onClose={onClose}
      own={removal.own}
    >
      <p>{removal.confirm(name)}</p>
      {warning && <p className="warning">{warning}</p>}
    </ConfirmDialog>
  );
}
