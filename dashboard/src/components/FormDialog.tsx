import type { ReactNode } from 'react';
import type { OwnWords } from '../api/describe';
import { useSubmit, type Submission } from '../hooks/useSubmit';
import { useT } from '../i18n/I18nProvider';
import { Dialog } from './Dialog';
import { SubmitForm } from './SubmitForm';

/** A form dialog's state: the submission of its fields, and the save its submit button runs. */
export interface DialogForm extends Submission {
  save: () => Promise<void>;
}

/** The state of a dialog's form of `fields`, which `save` sends; `own` as `useSubmit` takes it. */
export function useDialogForm(
  fields: readonly string[],
  save: () => Promise<void>,
  own?: OwnWords,
): DialogForm {
  return { ...useSubmit(fields, own), save };
}

/** A create-or-edit dialog's title: its catalogue section's edit title of the row, or its `new` for a new one. */
export function editOrNewTitle(
  texts: { new: string; editTitle: (name: string) => string },
  row: { name: string } | null,
): string {
  return row ? texts.editTitle(row.name) : texts.new;
}

interface FormDialogProps {
  title: string;
  form: DialogForm;
  onClose: () => void;
  children: ReactNode;
  saveLabel?: string;
}

/** A small create or edit form in a dialog, the API's 422 messages beside its fields. */
export function FormDialog({ title, form, onClose, children, saveLabel }: FormDialogProps) {
  const t = useT();
  return (
    <Dialog title={title} onClose={onClose}>
      <SubmitForm
        submission={form}
        onSave={form.save}
        actions={
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              {t.common.cancel}
            </button>
            <button type="submit" className="primary" disabled={form.saving}>
              {saveLabel ?? t.common.save}
            </button>
          </div>
        }
      >
        {children}
      </SubmitForm>
    </Dialog>
  );
}
