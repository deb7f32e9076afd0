import { Router } from 'wouter';
import { LoadingFrame } from '../components/LoadState';
import { NotificationsProvider } from '../components/Notifications';
import { I18nProvider, useT } from '../i18n/I18nProvider';
import { SessionProvider, useSessionState } from '../session/SessionProvider';
import { AppRoutes } from './AppRoutes';
import { Shell } from './Shell';
import { SignIn } from './SignIn';

/** Where the service serves the dashboard; every screen's address is under it. */
export const BASE_PATH = '/app';

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

/** The sign-in screen until a session exists, then the app; at start, what GET /api/v1/session says. */
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
      return <SignIn reason={state.reason} />;
    case 'signed-in':
      return (
        <Router base={BASE_PATH}>
          <Shell>
            <AppRoutes />
          </Shell>
        </Router>
      );
  }
}
