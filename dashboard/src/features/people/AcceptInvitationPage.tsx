import { useState } from 'react';
import { acceptInvitation } from '../../api/session';
import { AuthCard } from '../../app/AuthCard';
import { SignIn } from '../../app/SignIn';
import { SubmitForm } from '../../components/SubmitForm';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { useSessionState } from '../../session/SessionProvider';
import { BackToSignIn, TokenErrors } from './BackToSignIn';
import {
  EmailField,
  PasswordField,
  PersonNameField,
  useAskedField,
  useLinkToken,
  useSignedInHere,
} from './fields';

/**
 * /accept-invitation?token=…, signed in or not. A newcomer chooses a name and a password (and an email, for the
 * first owner's link, which names none); someone who has an account signs in first and joins with it.
 */
export default function AcceptInvitationPage() {
  const t = useT();
  const { state } = useSessionState();
  const token = useLinkToken();
  const [signingIn, setSigningIn] = useState(false);
  const user = state.status === 'signed-in' ? state.session.user : null;

  // Sign-in in place: once signed in, this same address offers to join with the account.
  if (signingIn && state.status !== 'signed-in') return <SignIn reason="start" />;

  return (
    <AuthCard title={t.people.acceptTitle}>
      {token === '' ? (
        <TokenErrors errors={[t.people.noToken]} />
      ) : user ? (
        <JoinAs name={user.name} token={token} />
      ) : (
        <>
          <NewcomerForm token={token} />
          <p className="form-link">
            {t.people.haveAccount}{' '}
            <button type="button" className="link-button" onClick={() => setSigningIn(true)}>
              {t.people.signInFirst}
            </button>
          </p>
        </>
      )}
      {user === null && <BackToSignIn />}
    </AuthCard>
  );
}

function JoinAs({ name, token }: { name: string; token: string }) {
  const t = useT();
  const signedInHere = useSignedInHere();
  const submission = useSubmit(['token']);
  return (
    <>
      <p>{t.people.acceptAs(name)}</p>
      <TokenErrors errors={submission.errors.token} />
      <SubmitForm
        submission={submission}
        onSave={async () => signedInHere(await acceptInvitation({ token }))}
        submitLabel={t.people.acceptJoin}
      />
    </>
  );
}

function NewcomerForm({ token }: { token: string }) {
  const t = useT();
  const signedInHere = useSignedInHere();
  const submission = useSubmit(['token', 'name', 'email', 'password']);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The first owner's link names no email: the API asks for one (422 on `email`).
  const emailStep = useAskedField('email');

  const save = async () => {
    const address = email.trim();
    const body = { token, name: name.trim(), password, ...(address === '' ? {} : { email: address }) };
    try {
      signedInHere(await acceptInvitation(body));
    } catch (error) {
      if (!emailStep.asks(error, address)) throw error;
    }
  };

  return (
    <>
      <p>{t.people.acceptIntro}</p>
      <TokenErrors errors={submission.errors.token} />
      <SubmitForm submission={submission} onSave={save} submitLabel={t.people.acceptSubmit}>
        <PersonNameField field={submission.field('name')} value={name} onChange={setName} />
        {emailStep.asked && (
          <EmailField
            field={submission.field('email')}
            value={email}
            onChange={setEmail}
            hint={t.people.acceptEmailHint}
            inputRef={emailStep.ref}
          />
        )}
        <PasswordField field={submission.field('password')} value={password} onChange={setPassword} />
      </SubmitForm>
    </>
  );
}
