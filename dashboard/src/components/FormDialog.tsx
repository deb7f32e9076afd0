import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import type { FieldErrors } from '../api/errors';
import { useT } from '../i18n/I18nProvider';
import type { Submission } from '../hooks/useSubmit';
import { Dialog } from './Dialog';
import { FormAlert } from './Field';

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
  const formRef = useRef<HTMLFormElement>(null);
  const { saving, errors, message, submit, fields } = submission;

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(onSave);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form ref={formRef} className="form" onSubmit={onSubmit} aria-busy={saving}>
        <FormAlert message={message} errors={othersThan(errors, fields)} />
        {children}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="submit" className="primary" disabled={saving}>
            {saveLabel ?? t.common.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function othersThan(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(
      ([name]) => !fields.some((field) => name === field || name.startsWith(`${field}.`)),
    ),
  );
}
