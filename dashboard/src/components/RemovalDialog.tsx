import type { ReactNode } from 'react';
import type { OwnWords } from '../api/describe';
import { ConfirmDialog } from './ConfirmDialog';
import { useNotify } from './Notifications';

/** The destructive action of a row (delete, revoke, remove): its button, its question and what it does. */
export interface Removal<T> {
  label: string;
  title: string;
  confirm: (row: T) => ReactNode;
  done: (name: string) => string;
  run: (row: T) => Promise<unknown>;
  /** Some refusals in the page's own words. */
  own?: OwnWords;
}

interface RemovalDialogProps<T> {
  removal: Removal<T>;
  row: T;
  /** How the row is named in the message once it is gone. */
  name: string;
  onClose: () => void;
  /** After the removal: close the dialog, load the list again. */
  onRemoved: () => void;
}

/** Asks before a row's removal, runs it, and says it is done; a refusal stays in the dialog. */
export function RemovalDialog<T>({ removal, row, name, onClose, onRemoved }: RemovalDialogProps<T>) {
  const notify = useNotify();
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
      {removal.confirm(row)}
    </ConfirmDialog>
  );
}
