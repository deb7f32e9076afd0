import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import type { Member, Role } from '../../api/types';
import { FormDialog } from '../../components/FormDialog';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { memberRefusals } from './refusals';
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
  const own = useMemo(() => memberRefusals(t, true), [t]);
  const submission = useSubmit(['role'], own);
  const [role, setRole] = useState<Role>(member.role);

  const save = async () => {
    const path = { id: member.id };
    onSaved((await call(api.PATCH('/api/v1/members/{id}', { params: { path }, body: { role } }))).data);
  };

  return (
    <FormDialog
      title={t.members.editTitle(member.name)}
      submission={submission}
      onSave={save}
      onClose={onClose}
    >
      <RoleField field={submission.field('role')} value={role} onChange={setRole} />
    </FormDialog>
  );
}
