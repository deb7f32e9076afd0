import { useState } from 'react';
import { FormDialog, useDialogForm } from '../../components/FormDialog';
import { useT } from '../../i18n/I18nProvider';
import { CurrentPasswordField } from '../people/fields';

interface PasswordConfirmDialogProps {
  title: string;
  /** What the action does, said before the password is asked. */
  intro?: string;
  saveLabel: string;
  /** The action, with the password typed; a 422 on `current_password` shows beside the field. */
  onConfirm: (currentPassword: string) => Promise<void>;
  onClose: () => void;
}

/** An action on the person's sign-in (turning two-factor off, new recovery codes) that the current password confirms. */
export function PasswordConfirmDialog({
  title,
  intro,
  saveLabel,
  onConfirm,
  onClose,
}: PasswordConfirmDialogProps) {
  const t = useT();
  const [password, setPassword] = useState('');
  const form = useDialogForm(['current_password'], () => onConfirm(password));
  return (
    <FormDialog title={title} form={form} onClose={onClose} saveLabel={saveLabel}>
      {intro !== undefined && <p>{intro}</p>}
      <CurrentPasswordField
        hint={t.profile.confirmPassword}
        field={form.field('current_password')}
        value={password}
        onChange={setPassword}
      />
    </FormDialog>
  );
}
