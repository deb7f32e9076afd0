import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Role } from '../../api/types';
import { FormDialog, useDialogForm } from '../../components/FormDialog';
import { useT } from '../../i18n/I18nProvider';
import { EmailField } from '../people/fields';
import { useMemberRefusals } from './refusals';
import { RoleField } from './roles';

/** What an invitation gives once: where the invited person accepts. */
export interface Invited {
  email: string;
  acceptUrl: string;
}

/** Invites a person by email with a role; the link to accept is in the answer only, shown next. */
export function InviteDialog({
  onClose,
  onInvited,
}: {
  onClose: () => void;
  onInvited: (invited: Invited) => void;
}) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');

  const save = async () => {
    const made = await call(api.POST('/api/v1/invitations', { body: { email: email.trim(), role } }));
    onInvited({ email: made.data.email ?? email.trim(), acceptUrl: made.data.accept_url });
  };
  const form = useDialogForm(['email', 'role'], save, useMemberRefusals(true));

  return (
    <FormDialog title={t.members.new} form={form} onClose={onClose} saveLabel={t.members.inviteSubmit}>
      <EmailField field={form.field('email')} value={email} onChange={setEmail} />
      <RoleField field={form.field('role')} value={role} onChange={setRole} />
    </FormDialog>
  );
}
