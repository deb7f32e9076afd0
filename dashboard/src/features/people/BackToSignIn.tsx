import { Link } from 'wouter';
import { useT } from '../../i18n/I18nProvider';

/** The way back from a screen before sign-in: `/` is the sign-in screen while signed out. */
export function BackToSignIn() {
  const t = useT();
  return (
    <p className="form-link">
      <Link href="/">{t.people.backToSignIn}</Link>
    </p>
  );
}

/** The refusal of a link's token (used, expired, revoked), and where to get another one when there is a way. */
export function TokenErrors({ errors, askAgain }: { errors: string[] | undefined; askAgain?: boolean }) {
  const t = useT();
  if (errors === undefined) return null;
  return (
    <div role="alert" className="form-alert">
      {errors.map((message) => (
        <p key={message}>{message}</p>
      ))}
      {askAgain === true && (
        <p>
          <Link href="/forgot-password">{t.people.askAgain}</Link>
        </p>
      )}
    </div>
  );
}
