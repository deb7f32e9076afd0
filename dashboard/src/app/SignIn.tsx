import { useEffect, useId, useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { useSessionState, type SignedOutReason } from '../session/SessionProvider';
import { Preferences } from './Preferences';

/**
 * Asks for an API key and trades it for a session once. The key is read from the field at submit, and nothing
 * else keeps it: not React state, not storage. A refused key stays in the field, so that a typo can be mended.
 */
export function SignIn({ reason }: { reason: SignedOutReason }) {
  const { t } = useI18n();
  const { signIn } = useSessionState();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
    const result = await signIn(key);
    if (result.ok) return;
    setBusy(false);
    setError(
      result.status === 401 || result.status === 403
        ? t.signIn.rejected
        : result.status === 429
          ? t.errors.rateLimited
          : result.status === 0
            ? t.errors.network
            : t.errors.server,
    );
    input.focus();
    input.select();
  };

  useEffect(() => {
    document.title = `${t.signIn.title} · ${t.app.name}`;
  }, [t]);

  return (
    <main id="main" className="sign-in">
      <div className="sign-in-card">
        <p className="brand">{t.app.name}</p>
        <h1>{t.signIn.title}</h1>
        {reason === 'expired' && (
          <p role="status" className="notice">
            {t.signIn.expired}
          </p>
        )}
        {reason === 'signed-out' && (
          <p role="status" className="notice">
            {t.signIn.signedOut}
          </p>
        )}
        <form className="form" onSubmit={(event) => void submit(event)} aria-busy={busy}>
          <div className="field">
            <label htmlFor={inputId}>{t.signIn.key}</label>
            <input
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
        <Preferences />
      </div>
    </main>
  );
}
