import { useState } from 'react';
import { useLocation } from 'wouter';
import { api, call } from '../../api/client';
import { AuthCard } from '../../app/AuthCard';
import { SubmitForm } from '../../components/SubmitForm';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { useSessionState } from '../../session/SessionProvider';
import { BackToSignIn, TokenErrors } from './BackToSignIn';
import { PasswordField, useLinkToken } from './fields';

/**
 * /reset-password?token=…: the new password of a reset link. Every session of the user ends with it, this one too,
 * so the sign-in screen follows, saying so.
 */
export default function ResetPasswordPage() {
  const t = useT();
  const token = useLinkToken();
  const { signedOut } = useSessionState();
  const [, navigate] = useLocation();
  const submission = useSubmit(['password', 'token']);
  const [password, setPassword] = useState('');

  const save = async () => {
    await call(api.POST('/api/v1/password/reset', { body: { token, password } }));
    navigate('/', { replace: true });
    signedOut('password-reset');
  };

  return (
    <AuthCard title={t.people.resetTitle}>
      {token === '' ? (
        <TokenErrors errors={[t.people.noToken]} askAgain />
      ) : (
        <>
          <p>{t.people.resetIntro}</p>
          <TokenErrors errors={submission.errors.token} askAgain />
          <SubmitForm submission={submission} onSave={save} submitLabel={t.people.resetSubmit}>
            <PasswordField field={submission.field('password')} value={password} onChange={setPassword} />
          </SubmitForm>
        </>
      )}
      <BackToSignIn />
    </AuthCard>
  );
}
