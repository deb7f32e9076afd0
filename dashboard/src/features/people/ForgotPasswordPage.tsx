import { useState } from 'react';
import { api, call } from '../../api/client';
import { AuthCard } from '../../app/AuthCard';
import { SubmitForm } from '../../components/SubmitForm';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { BackToSignIn } from './BackToSignIn';
import { EmailField } from './fields';

/** /forgot-password: asks for a reset link. The answer is the same whether the email has an account or not. */
export default function ForgotPasswordPage() {
  const t = useT();
  const submission = useSubmit(['email']);
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);

  const save = async () => {
    await call(api.POST('/api/v1/password/forgot', { body: { email: email.trim() } }));
    setSent(true);
  };

  return (
    <AuthCard title={t.people.forgotTitle}>
      {sent ? (
        <p role="status" className="notice">
          {t.people.forgotSent}
        </p>
      ) : (
        <>
          <p>{t.people.forgotIntro}</p>
          <SubmitForm submission={submission} onSave={save} submitLabel={t.people.forgotSubmit}>
            <EmailField field={submission.field('email')} value={email} onChange={setEmail} />
          </SubmitForm>
        </>
      )}
      <BackToSignIn />
    </AuthCard>
  );
}
