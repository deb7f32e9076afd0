import { useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { isApiError } from '../../api/errors';
import type { Session } from '../../api/session';
import { useSessionState } from '../../session/SessionProvider';
import { Field } from '../../components/Field';
import { useT } from '../../i18n/I18nProvider';

/** What a field takes from `useSubmit().field(name)`: the API's messages on it, and what forgets them. */
interface Submitted {
  errors: string[] | undefined;
  onEdit: () => void;
}

interface TextFieldProps {
  field: Submitted;
  value: string;
  onChange: (value: string) => void;
  label?: string;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

/** An email address, as a person signs in with it. */
export function EmailField({ field, value, onChange, label, hint, inputRef }: TextFieldProps) {
  const t = useT();
  return (
    <Field label={label ?? t.signIn.email} hint={hint} {...field}>
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          type="email"
          required
          maxLength={255}
          autoComplete="email"
          autoCapitalize="off"
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * A password: the one in use (`current`), or a new one, with the API's rules as its hint so that a password manager
 * and the reader both know them before a 422 does.
 */
export function PasswordField({
  field,
  value,
  onChange,
  label,
  hint,
  current = false,
}: TextFieldProps & { current?: boolean }) {
  const t = useT();
  return (
    <Field
      label={label ?? (current ? t.signIn.password : t.people.newPassword)}
      hint={hint ?? (current ? undefined : t.people.passwordHint)}
      {...field}
    >
      {(control) => (
        <input
          {...control}
          type="password"
          required
          maxLength={256}
          autoComplete={current ? 'current-password' : 'new-password'}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** The password in use, which a change of the email or the password, or of the second factors, needs. */
export function CurrentPasswordField({ field, value, onChange, hint }: TextFieldProps) {
  const t = useT();
  return (
    <PasswordField
      current
      label={t.people.currentPassword}
      hint={hint}
      field={field}
      value={value}
      onChange={onChange}
    />
  );
}

/** The person's name, as the workspace's members list shows it. */
export function PersonNameField({ field, value, onChange }: TextFieldProps) {
  const t = useT();
  return (
    <Field label={t.people.name} {...field}>
      {(control) => (
        <input
          {...control}
          required
          maxLength={255}
          autoComplete="name"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * A code of the authenticator app or, at sign-in, one of the recovery codes, which are not numbers: `numeric`
 * brings up a phone's number pad where only the app's code is taken.
 */
export function CodeField({
  field,
  value,
  onChange,
  label,
  hint,
  inputRef,
  numeric = false,
}: TextFieldProps & { numeric?: boolean }) {
  const t = useT();
  return (
    <Field label={label ?? t.signIn.otp} hint={hint} {...field}>
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          name="otp"
          required
          maxLength={32}
          inputMode={numeric ? 'numeric' : undefined}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** The token of a link (an invitation, a password reset), from the address it was opened at. */
export function useLinkToken(): string {
  return useSearchParams()[0].get('token') ?? '';
}

/**
 * A field that a form shows only once the API asks for it (a 422 on `name` to a request without it): the code of
 * two-factor, the email of an invitation that names none. The request was right so far, so the ask is the next step
 * rather than a mistake: the field appears, without an error, and takes focus.
 */
export function useAskedField(name: string) {
  const [asked, setAsked] = useState(false);
  const ref = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    if (asked) ref.current?.focus();
  }, [asked]);

  /** Whether `error` asks for the field, which the request went without (`sent` empty); the field shows then. */
  const asks = (error: unknown, sent: string): boolean => {
    const asking = isApiError(error) && error.status === 422 && error.fields[name] !== undefined;
    if (!asking || sent !== '' || asked) return false;
    setAsked(true);
    return true;
  };

  return { asked, ref, asks };
}

/** A screen before the app that ends signed in (an invitation, a registration) opens the app at its start. */
export function useSignedInHere(): (session: Session) => void {
  const { signedIn } = useSessionState();
  const [, navigate] = useLocation();
  return (session) => {
    navigate('/', { replace: true });
    signedIn(session);
  };
}
