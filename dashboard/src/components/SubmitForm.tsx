import { useLayoutEffect, useRef, type FormEvent, type ReactNode } from 'react';
import type { FieldErrors } from '../api/errors';
import type { Submission } from '../hooks/useSubmit';
import { FormAlert } from './Field';

interface SubmitFormProps {
  submission: Submission;
  onSave: () => Promise<void>;
  children?: ReactNode;
  /** The form's buttons, after its fields; without them, one submit button saying `submitLabel`. */
  actions?: ReactNode;
  submitLabel?: string;
  className?: string;
}

/**
 * A form that sends itself through `submission`: the API's 422 messages beside their fields (the first of them
 * focused), the others and the reason of any other failure above the fields, read out at once.
 */
export function SubmitForm({
  submission,
  onSave,
  children,
  actions,
  submitLabel,
  className = 'form',
}: SubmitFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const { saving, errors, message, submit, fields } = submission;

  useLayoutEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit(onSave);
  };

  return (
    <form ref={formRef} className={className} onSubmit={onSubmit} aria-busy={saving}>
      <FormAlert message={message} errors={othersThan(errors, fields)} />
      {children}
      {actions ?? (
        <div className="form-actions">
          <button type="submit" className="primary" disabled={saving}>
            {submitLabel}
          </button>
        </div>
      )}
    </form>
  );
}

function othersThan(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(
      ([name]) => !fields.some((field) => name === field || name.startsWith(`${field}.`)),
    ),
  );
}
