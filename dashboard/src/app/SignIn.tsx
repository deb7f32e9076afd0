import { useLayoutEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { describeError } from '../api/describe';
import { isApiError } from '../api/errors';
import { isAuthenticatorError, passkeysSupported, signInWithPasskey } from '../api/people';
import { createSession, readProviders, signInWithPassword, SSO_PATH } from '../api/session';
import { SubmitForm } from '../components/SubmitForm';
import { CodeField, EmailField, PasswordField, useAskedField } from '../features/people/fields';
import { useLoad } from '../hooks/useLoad';
import { useSubmit } from '../hooks/useSubmit';
import { useI18n, useT } from '../i18n/I18nProvider';
import { useSessionState, type SignedOutReason } from '../session/SessionProvider';
import { AuthCard } from './AuthCard';

type Method = 'password' | 'key';

const NOTICES: Record<SignedOutReason, 'expired' | 'signedOut' | 'passwordReset' | null> = {
  start: null,
  expired: 'expired',
  'signed-out': 'signedOut',
  'password-reset': 'passwordReset',
};

/**
 * A person signs in with their email and password (and a code when two-factor is on), or a passkey, or SSO where
 * the service has it; an API key is the other way in, one click away.
 */
export function SignIn({ reason }: { reason: SignedOutReason }) {
  const t = useT();
  const [method, setMethod] = useState<Method>('password');
  const notice = NOTICES[reason];
  return (
    <AuthCard title={t.signIn.title}>
      {notice !== null && (
        <p role="status" className="notice">
          {t.signIn[notice]}
        </p>
      )}
      {method === 'password' ? <PasswordSignIn /> : <KeySignIn />}
      <OtherWays method={method} onMethod={setMethod} />
    </AuthCard>
  );
}

const PASSWORD_FIELDS = ['email', 'password', 'otp'] as const;

function PasswordSignIn() {
  const t = useT();
  const { signedIn } = useSessionState();
  const submission = useSubmit(PASSWORD_FIELDS);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  // Asked for once the API says the account has two-factor on: a 422 on `otp` to a sign-in without one.
  const otpStep = useAskedField('otp');

  const save = async () => {
    const code = otp.trim();
    try {
      signedIn(
        await signInWithPassword({ email: email.trim(), password, ...(code === '' ? {} : { otp: code }) }),
      );
    } catch (error) {
      if (!otpStep.asks(error, code)) throw error;
    }
  };

  return (
    <SubmitForm submission={submission} onSave={save} submitLabel={t.signIn.submit}>
      <EmailField field={submission.field('email')} value={email} onChange={setEmail} />
      <PasswordField current field={submission.field('password')} value={password} onChange={setPassword} />
      <p className="form-link">
        <Link href="/forgot-password">{t.signIn.forgot}</Link>
      </p>
      {otpStep.asked && (
        <CodeField
          field={submission.field('otp')}
          value={otp}
          onChange={setOtp}
          hint={t.signIn.otpHint}
          inputRef={otpStep.ref}
        />
      )}
    </SubmitForm>
  );
}

/**
 * Asks for an API key and trades it for a session once. The key is read from the field at submit, and nothing
 * else keeps it: not React state, not storage. A refused key stays in the field, so that a typo can be mended.
 */
function KeySignIn() {
  const t = useT();
  const { signedIn } = useSessionState();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Chosen from the other ways in: the field is where the reader goes next.
  useLayoutEffect(() => inputRef.current?.focus(), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('api-key');
    if (!(input instanceof HTMLInputElement)) return;
    const key = input.value.trim();
    if (key === '') {
      setError(t.signIn.empty);
      input.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      signedIn(await createSession(key));
      return;
    } catch (failure) {
      const status = isApiError(failure) ? failure.status : 0;
      setError(status === 401 || status === 403 ? t.signIn.rejected : describeError(t, failure));
    }
    setBusy(false);
    input.focus();
    input.select();
  };

  return (
    <form className="form" onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <div className="field">
        <label htmlFor={inputId}>{t.signIn.key}</label>
        <input
          ref={inputRef}
          id={inputId}
          name="api-key"
          type="password"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          required
          aria-describedby={`${inputId}-hint ${inputId}-source`}
          aria-invalid={error !== null || undefined}
        />
        <p id={`${inputId}-hint`} className="hint">
          {t.signIn.hint}
        </p>
        <p id={`${inputId}-source`} className="hint">
          {t.signIn.keySource} <code>npm run cli -- key:create --account 1</code>
        </p>
      </div>
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {t.signIn.submit}
      </button>
    </form>
  );
}

/** The other ways in: the other method of this screen, a passkey, SSO and a registration where the service has them. */
function OtherWays({ method, onMethod }: { method: Method; onMethod: (method: Method) => void }) {
  const { t } = useI18n();
  const providers = useLoad('providers', readProviders).data;
  return (
    <nav className="sign-in-others" aria-label={t.signIn.others}>
      <ul>
        <li>
          {method === 'password' ? (
            <button type="button" className="link-button" onClick={() => onMethod('key')}>
              {t.signIn.withKey}
            </button>
          ) : (
            <button type="button" className="link-button" onClick={() => onMethod('password')}>
              {t.signIn.withPassword}
            </button>
          )}
        </li>
        {passkeysSupported() && (
          <li>
            <PasskeySignIn />
          </li>
        )}
        {providers?.oidc === 1 && (
          <li>
            <a href={SSO_PATH}>{t.signIn.withSso}</a>
          </li>
        )}
        {providers?.registration === 1 && (
          <li>
            <Link href="/register">{t.signIn.register}</Link>
          </li>
        )}
      </ul>
    </nav>
  );
}

function PasskeySignIn() {
  const t = useT();
  const { signedIn } = useSessionState();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      signedIn(await signInWithPasskey());
      return;
    } catch (failure) {
      setError(
        isAuthenticatorError(failure)
          ? t.signIn.passkeyFailed
          : isApiError(failure) && failure.status === 404
            ? t.signIn.passkeyUnavailable
            : isApiError(failure) && failure.status === 422
              ? t.signIn.passkeyRejected
              : describeError(t, failure),
      );
    }
    setBusy(false);
  };

  return (
    <>
      <button type="button" className="link-button" disabled={busy} onClick={() => void start()}>
        {t.signIn.withPasskey}
      </button>
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </>
  );
}
