import type { ReactNode } from 'react';
import { PageTitle } from '../components/PageTitle';
import { useT } from '../i18n/I18nProvider';
import { Preferences } from './Preferences';

/**
 * The frame of the screens shown before the app: sign-in, a forgotten password, an invitation, a registration. The
 * brand, the screen's title, its content and the language and theme pickers, in a card at the centre.
 */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <main id="main" className="sign-in" tabIndex={-1}>
      <div className="sign-in-card">
        <p className="brand">{t.app.name}</p>
        <PageTitle text={title} />
        {children}
        <Preferences />
      </div>
    </main>
  );
}
