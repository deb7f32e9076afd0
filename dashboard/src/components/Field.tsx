import { useId, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';

/** What a field passes to its control so that the label, the hint and the errors are tied to it. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  label: ReactNode;
  errors?: readonly string[] | undefined;
  /** Called when the control changes, so that the API's messages about the value sent can be forgotten. */
  onEdit?: (() => void) | undefined;
  hint?: ReactNode;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A labelled control with its hint and, after a 422, the API's messages for it beside it. */
export function Field({ label, errors, onEdit, hint, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-errors`;
  const hasErrors = errors !== undefined && errors.length > 0;
  const describedBy = [hint ? hintId : null, hasErrors ? errorId : null].filter(Boolean).join(' ');
  return (
    // The control's change bubbles up here, whatever the control.
    <div className={className ? `field ${className}` : 'field'} onChange={onEdit}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(hasErrors ? { 'aria-invalid': true } : {}),
      })}
      {hint ? (
        <p id={hintId} className="hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: readonly string[] | undefined }) {
  if (errors === undefined || errors.length === 0) return null;
  return (
    <ul id={id} className="field-errors">
      {errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

interface CheckboxProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
  errors?: readonly string[] | undefined;
  disabled?: boolean;
  name?: string;
}

export function Checkbox({ label, checked, onChange, hint, errors, disabled, name }: CheckboxProps) {
  const id = useId();
  const hasErrors = errors !== undefined && errors.length > 0;
  const describedBy = [hint ? `${id}-hint` : null, hasErrors ? `${id}-errors` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field field-check">
      <input
        id={id}
        type="checkbox"
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={describedBy || undefined}
        aria-invalid={hasErrors || undefined}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </div>
  );
}

/** The errors of a 422 that no field on screen shows, and the reason the save failed, read out at once. */
export function FormAlert({
  message,
  errors,
}: {
  message: string | null;
  errors?: Record<string, string[]>;
}) {
  const entries = Object.entries(errors ?? {});
  if (message === null && entries.length === 0) return null;
  return (
    <div role="alert" className="form-alert">
      {message !== null && <p>{message}</p>}
      {entries.length > 0 && (
        <ul>
          {entries.map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join(' ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A resource's name: required, as long as the API takes, the API's messages on `name` beside it. */
export function NameField({
  field,
  value,
  onChange,
  maxLength = 255,
}: {
  field: { errors: string[] | undefined; onEdit: () => void };
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
}) {
  const t = useT();
  return (
    <Field label={t.common.name} {...field}>
      {(control) => (
        <input
          {...control}
          required
          maxLength={maxLength}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
