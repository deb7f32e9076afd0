import { useCallback, useState } from 'react';
import { describeError, type OwnWords } from '../api/describe';
import { isApiError, withoutFields, type FieldErrors } from '../api/errors';
import { useT } from '../i18n/I18nProvider';

export interface Submission {
  saving: boolean;
  /** The API's 422 messages by field. */
  errors: FieldErrors;
  /** Why the last save failed, for the reader. */
  message: string | null;
  /** Runs `save`; a failure is kept in `errors` and `message` instead of being thrown. */
  submit: (save: () => Promise<void>) => Promise<void>;
  /** A field's messages, and what forgets them once the field is changed: they spoke of the value sent. */
  field: (name: string) => { errors: string[] | undefined; onEdit: () => void };
  /** The fields the form shows beside their controls; the API's messages on other names are listed above. */
  fields: readonly string[];
}

/** `own` says some failures in the form's words (a refusal it can explain better than the API's status). */
export function useSubmit(fields: readonly string[] = [], own?: OwnWords): Submission {
  const t = useT();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  const submit = useCallback(
    async (save: () => Promise<void>) => {
      setSaving(true);
      setErrors({});
      setMessage(null);
      try {
        await save();
      } catch (error) {
        setMessage(describeError(t, error, own));
        if (isApiError(error) && error.status === 422) setErrors(error.fields);
      } finally {
        setSaving(false);
      }
    },
    [t, own],
  );

  const field = useCallback(
    (name: string) => ({
      errors: errors[name],
      onEdit: () => setErrors((previous) => withoutFields(previous, [name])),
    }),
    [errors],
  );

  return { saving, errors, message, submit, field, fields };
}
