import type { ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';
import type { Submission } from '../hooks/useSubmit';
import { Dialog } from './Dialog';
import { SubmitForm } from './SubmitForm';

interface FormDialogProps {
  title: string;
  submission: Submission;
  onSave: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
  saveLabel?: string;
}

/** A small create or edit form in a dialog, the API's 422 messages beside its fields. */
export function FormDialog({ title, submission, onSave, onClose, children, saveLabel }: FormDialogProps) {
  const t = useT();
  return (
    <Dialog title={title} onClose={onClose}>
      <SubmitForm
        submission={submission}
        onSave={onSave}
        actions={
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              {t.common.cancel}
            </button>
            <button type="submit" className="primary" disabled={submission.saving}>
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
