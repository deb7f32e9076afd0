import { lazy, Suspense } from 'react';
import { Route, Router, Switch } from 'wouter';
import { LoadingFrame } from '../components/LoadState';
import { NotificationsProvider } from '../components/Notifications';
import { I18nProvider, useT } from '../i18n/I18nProvider';
import { LiveProvider } from '../session/LiveProvider';
import { SessionProvider, useSessionState } from '../session/SessionProvider';
import { AppRoutes } from './AppRoutes';
import { Shell } from './Shell';
import { SignIn } from './SignIn';

/** Where the service serves the dashboard; every screen's address is under it. */
export const BASE_PATH = '/app';

// The screens before sign-in that a link opens (an invitation, a password reset) or that few need: each its own chunk.
const AcceptInvitationPage = lazy(() => import('../features/people/AcceptInvitationPage'));
const ResetPasswordPage = lazy(() => import('../features/people/ResetPasswordPage'));
const ForgotPasswordPage = lazy(() => import('../features/people/ForgotPasswordPage'));
const RegisterPage = lazy(() => import('../features/people/RegisterPage'));

/** Any address, even one outside the base path: what is not a screen before sign-in is the app or the sign-in. */
const ANY_ADDRESS = /^/;

export function App() {
  return (
    <I18nProvider>
      <NotificationsProvider>
        <SessionProvider>
          <Gate />
        </SessionProvider>
      </NotificationsProvider>
    </I18nProvider>
  );
}

/**
 * The sign-in screen until a session exists, then the app; at start, what GET /api/v1/session says. The screens a
 * link opens are shown signed in or not: an invitation is accepted by a newcomer or by someone signed in.
 */
function Gate() {
  const t = useT();
  const { state, retry } = useSessionState();
  switch (state.status) {
    case 'loading':
      return <LoadingFrame />;
    case 'unreachable':
      return (
        <main id="main" className="splash">
          <h1>{t.app.name}</h1>
          <p role="alert">{t.app.unreachable}</p>
          <button type="button" onClick={retry}>
            {t.common.retry}
          </button>
        </main>
      );
    case 'signed-out':
    case 'signed-in':
      return (
        <Router base={BASE_PATH}>
          <Suspense fallback={<LoadingFrame />}>
            <Switch>
              <Route path="/accept-invitation" component={AcceptInvitationPage} />
              <Route path="/reset-password" component={ResetPasswordPage} />
              {state.status === 'signed-out' && (
                <Route path="/forgot-password" component={ForgotPasswordPage} />
              )}
              {state.status === 'signed-out' && <Route path="/register" component={RegisterPage} />}
              <Route path={ANY_ADDRESS}>
                {state.status === 'signed-in' ? (
                  // Another workspace is another set of data: every screen mounts and loads again, and the
                  // workspace's events come on a stream of its own.
                  <LiveProvider key={state.session.workspace.id}>
                    <Shell>
                      <AppRoutes />
                    </Shell>
                  </LiveProvider>
                ) : (
                  <SignIn reason={state.reason} />
                )}
              </Route>
            </Switch>
          </Suspense>
        </Router>
      );
  }
}
