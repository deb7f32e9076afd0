import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { onSignedOut } from '../api/client';
import { endSession, readSession, switchWorkspace, type Session } from '../api/session';
import type { Scope } from '../api/types';
import { hasScope } from './scopes';

/**
 * Why the sign-in screen shows: nothing said yet, the API ended the session, the user signed out, or a new password
 * was set (which ends every session of the user).
 */
export type SignedOutReason = 'start' | 'expired' | 'signed-out' | 'password-reset';

export type SessionState =
  | { status: 'loading' }
  | { status: 'unreachable' }
  | { status: 'signed-out'; reason: SignedOutReason }
  | { status: 'signed-in'; session: Session };

interface SessionContextValue {
  state: SessionState;
  /** A sign-in of any kind (password, key, passkey, invitation, registration) succeeded: its session. */
  signedIn: (session: Session) => void;
  /** The session ended without a sign-out: back to the sign-in screen, saying why. */
  signedOut: (reason: SignedOutReason) => void;
  signOut: () => Promise<void>;
  /** Moves the session to another workspace; every screen loads again, for it. */
  switchTo: (workspaceId: number) => Promise<Session>;
  /** Reads the session again (after the user changed their name, say) without leaving the screen. */
  refresh: () => Promise<void>;
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

  // Any 401 while signed in means the session is gone (expired, ended elsewhere, its key revoked): back to sign-in.
  useEffect(
    () =>
      onSignedOut(() =>
        setState((previous) =>
          previous.status === 'signed-in' ? { status: 'signed-out', reason: 'expired' } : previous,
        ),
      ),
    [],
  );

  const signedIn = useCallback((session: Session) => setState({ status: 'signed-in', session }), []);
  const signedOut = useCallback((reason: SignedOutReason) => setState({ status: 'signed-out', reason }), []);

  // Signed out only once the service has ended the session: a failed request leaves the cookie valid.
  const signOut = useCallback(async () => {
    await endSession();
    setState({ status: 'signed-out', reason: 'signed-out' });
  }, []);

  const switchTo = useCallback(async (workspaceId: number) => {
    const session = await switchWorkspace(workspaceId);
    setState({ status: 'signed-in', session });
    return session;
  }, []);

  const refresh = useCallback(async () => {
    const session = await readSession();
    setState(session ? { status: 'signed-in', session } : { status: 'signed-out', reason: 'expired' });
  }, []);

  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  }, []);

  const value = useMemo(
    () => ({ state, signedIn, signedOut, signOut, switchTo, refresh, retry }),
    [state, signedIn, signedOut, signOut, switchTo, refresh, retry],
  );
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
