import { useState } from 'react';
import { register } from '../../api/session';
import { AuthCard } from '../../app/AuthCard';
import { SubmitForm } from '../../components/SubmitForm';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { BackToSignIn } from './BackToSignIn';
import { EmailField, PasswordField, PersonNameField, useSignedInHere } from './fields';

/** /register, where the service lets anyone make an account: a user and a workspace of their own, signed in. */
export default function RegisterPage() {
  const t = useT();
  const signedInHere = useSignedInHere();
  const submission = useSubmit(['name', 'email', 'password']);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const save = async () => {
    signedInHere(await register({ name: name.trim(), email: email.trim(), password }));
  };

  return (
    <AuthCard title={t.people.registerTitle}>
      <p>{t.people.registerIntro}</p>
      <SubmitForm submission={submission} onSave={save} submitLabel={t.people.registerSubmit}>
        <PersonNameField field={submission.field('name')} value={name} onChange={setName} />
        <EmailField field={submission.field('email')} value={email} onChange={setEmail} />
        <PasswordField field={submission.field('password')} value={password} onChange={setPassword} />
      </SubmitForm>
      <BackToSignIn />
    </AuthCard>
  );
}
