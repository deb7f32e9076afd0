import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { describeError } from '../api/describe';
import { useNotify } from '../components/Notifications';
import { useT } from '../i18n/I18nProvider';
import { useCan, useSession, useSessionState } from '../session/SessionProvider';
import { LiveIndicator } from './LiveIndicator';
import { NAV_ITEMS } from './navigation';
import { Preferences } from './Preferences';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** The frame of every signed-in screen: skip link, top bar with navigation and sign-out, the main region. */
export function Shell({ children }: { children: ReactNode }) {
  const t = useT();
  const can = useCan();
  const session = useSession();
  const { signOut } = useSessionState();
  const notify = useNotify();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(location);
  // A navigation closes the menu on narrow screens.
  if (openedAt !== location) {
    setOpenedAt(location);
    setMenuOpen(false);
  }

  const items = NAV_ITEMS.filter((item) => can(item.scope));
  const current = (href: string) => location === href || location.startsWith(`${href}/`);

  const leave = async () => {
    try {
      await signOut();
    } catch (error) {
      notify(describeError(t, error));
    }
  };

  return (
    <>
      <a href="#main" className="skip-link">
        {t.app.skip}
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          {t.app.name}
        </Link>
        <LiveIndicator />
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="primary-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {t.app.menu}
        </button>
        <nav id="primary-nav" aria-label={t.app.nav} className="primary-nav" data-open={menuOpen}>
          <ul>
            {items.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {t.nav[item.label]}
                </Link>
              </li>
            ))}
          </ul>
          <div className="topbar-tools">
            <Preferences />
            {session.workspaces.length > 1 && <WorkspaceSwitcher />}
            {session.user !== null ? (
              <p className="session-key">
                <Link
                  href="/profile"
                  title={session.user.email}
                  aria-label={`${session.user.name}, ${t.app.profile}`}
                  aria-current={current('/profile') ? 'page' : undefined}
                >
                  {session.user.name}
                </Link>
              </p>
            ) : (
              session.key !== null && (
                <p className="session-key" title={session.key.prefix ?? undefined}>
                  {t.app.signedInWith(session.key.name)}
                </p>
              )
            )}
            <button type="button" onClick={() => void leave()}>
              {t.app.signOut}
            </button>
          </div>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {session.user !== null && session.scopes.length === 0 && (
          // A workspace that asks for a second factor gives a session begun without one no scope at all.
          <p className="warning second-factor-needed">
            {t.app.secondFactorNeeded} <Link href="/profile">{t.app.openProfile}</Link>
          </p>
        )}
        {children}
      </main>
    </>
  );
}
