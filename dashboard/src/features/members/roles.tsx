import { RoleValues } from '../../api/enums';
import type { Role } from '../../api/types';
import { Field } from '../../components/Field';
import { labelledOptions, Options } from '../../components/FilterSelect';
import { useT } from '../../i18n/I18nProvider';

/** A member's role, each named in the reader's language; the roles' scopes are said in the members page's intro. */
export function RoleField({
  field,
  value,
  onChange,
}: {
  field: { errors: string[] | undefined; onEdit: () => void };
  value: Role;
  onChange: (role: Role) => void;
}) {
  const t = useT();
  return (
    <Field label={t.members.role} {...field}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value as Role)}>
          <Options options={labelledOptions(RoleValues, t.members.roles)} />
        </select>
      )}
    </Field>
  );
}
