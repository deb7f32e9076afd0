import { useState } from 'react';
import { api, call } from '../../api/client';
import type { User } from '../../api/types';
import { Card } from '../../components/Card';
import { useNotify } from '../../components/Notifications';
import { SubmitForm } from '../../components/SubmitForm';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { useSessionState } from '../../session/SessionProvider';
import { CurrentPasswordField, EmailField, PasswordField, PersonNameField } from '../people/fields';

/** The name and the email; a new email needs the current password, asked for once the email is changed. */
export function DetailsCard({ user }: { user: User }) {
  const t = useT();
  const notify = useNotify();
  const { refresh } = useSessionState();
  const submission = useSubmit(['name', 'email', 'current_password']);
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [current, setCurrent] = useState('');
  const [saved, setSaved] = useState(user);
  const emailChanged = email.trim() !== saved.email;

  const save = async () => {
    const body = {
      name: name.trim(),
      ...(emailChanged ? { email: email.trim(), current_password: current } : {}),
    };
    setSaved((await call(api.PATCH('/api/v1/user', { body }))).data);
    setCurrent('');
    notify(t.profile.detailsSaved);
    // The top bar names the person as the session does; a failure to read it again leaves the old name there.
    void refresh().catch(() => undefined);
  };

  return (
    <Card title={t.profile.details}>
      <SubmitForm submission={submission} onSave={save} submitLabel={t.common.save}>
        <PersonNameField field={submission.field('name')} value={name} onChange={setName} />
        <EmailField
          field={submission.field('email')}
          value={email}
          onChange={setEmail}
          hint={t.profile.emailHint}
        />
        {emailChanged && (
          <CurrentPasswordField
            field={submission.field('current_password')}
            value={current}
            onChange={setCurrent}
          />
        )}
      </SubmitForm>
    </Card>
  );
}

/** A new password, with the current one; the person's other sessions end with it. */
export function PasswordCard({ onChanged }: { onChanged: () => void }) {
  const t = useT();
  const notify = useNotify();
  const submission = useSubmit(['current_password', 'password']);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');

  const save = async () => {
    await call(api.PATCH('/api/v1/user', { body: { password, current_password: current } }));
    setCurrent('');
    setPassword('');
    notify(t.profile.passwordChanged);
    onChanged();
  };

  return (
    <Card title={t.profile.password}>
      <SubmitForm submission={submission} onSave={save} submitLabel={t.profile.changePassword}>
        <CurrentPasswordField
          field={submission.field('current_password')}
          value={current}
          onChange={setCurrent}
        />
        <PasswordField field={submission.field('password')} value={password} onChange={setPassword} />
      </SubmitForm>
    </Card>
  );
}
