import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Member, Role } from '../../api/types';
import { FormDialog, useDialogForm } from '../../components/FormDialog';
import { useT } from '../../i18n/I18nProvider';
import { useMemberRefusals } from './refusals';
import { RoleField } from './roles';

/** A member's role, changed. */
export function MemberDialog({
  member,
  onClose,
  onSaved,
}: {
  member: Member;
  onClose: () => void;
  onSaved: (member: Member) => void;
}) {
  const t = useT();
  const [role, setRole] = useState<Role>(member.role);

  const save = async () => {
    const path = { id: member.id };
    onSaved((await call(api.PATCH('/api/v1/members/{id}', { params: { path }, body: { role } }))).data);
  };
  const form = useDialogForm(['role'], save, useMemberRefusals(true));

  return (
    <FormDialog title={t.members.editTitle(member.name)} form={form} onClose={onClose}>
      <RoleField field={form.field('role')} value={role} onChange={setRole} />
    </FormDialog>
  );
}
