import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { onSignedOut } from '../api/client';
import { isApiError } from '../api/errors';
import { createSession, endSession, readSession, type Session } from '../api/session';
import type { Scope } from '../api/types';
import { hasScope } from './scopes';

/** Why the sign-in screen shows: nothing said yet, the API ended the session, or the user signed out. */
export type SignedOutReason = 'start' | 'expired' | 'signed-out';

export type SessionState =
  | { status: 'loading' }
  | { status: 'unreachable' }
  | { status: 'signed-out'; reason: SignedOutReason }
  | { status: 'signed-in'; session: Session };

/** What a sign-in that did not succeed tells the form: a key refused, or another failure with its status. */
export type SignInResult = { ok: true } | { ok: false; status: number };

interface SessionContextValue {
  state: SessionState;
  signIn: (key: string) => Promise<SignInResult>;
  signOut: () => Promise<void>;
  retry: () => void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    readSession().then(
      (session) => {
        if (!current) return;
        setState(session ? { status: 'signed-in', session } : { status: 'signed-out', reason: 'start' });
      },
      () => {
        if (current) setState({ status: 'unreachable' });
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  // Any 401 while signed in means the session is gone (expired, or its key revoked): back to sign-in.
  useEffect(
    () =>
      onSignedOut(() =>
        setState((previous) =>
          previous.status === 'signed-in' ? { status: 'signed-out', reason: 'expired' } : previous,
        ),
      ),
    [],
  );

  const signIn = useCallback(async (key: string): Promise<SignInResult> => {
    try {
      const session = await createSession(key);
      setState({ status: 'signed-in', session });
      return { ok: true };
    } catch (error) {
      return { ok: false, status: isApiError(error) ? error.status : 0 };
    }
  }, []);

  // Signed out only once the service has ended the session: a failed request leaves the cookie valid.
  const signOut = useCallback(async () => {
    await endSession();
    setState({ status: 'signed-out', reason: 'signed-out' });
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  }, []);

  const value = useMemo(() => ({ state, signIn, signOut, retry }), [state, signIn, signOut, retry]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionState(): SessionContextValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSessionState needs a SessionProvider');
  return value;
}

/** The signed-in session; the views under the app shell are only rendered with one. */
export function useSession(): Session {
  const { state } = useSessionState();
  if (state.status !== 'signed-in') throw new Error('useSession needs a signed-in session');
  return state.session;
}

/** Whether the session may do what `scope` allows; write controls are hidden where it may not. */
export function useCan(): (scope: Scope) => boolean {
  const { scopes } = useSession();
  return useCallback((scope: Scope) => hasScope(scopes, scope), [scopes]);
}
