import { useState } from 'react';
import { useLocation } from 'wouter';
import { describeError } from '../api/describe';
import { Field } from '../components/Field';
import { useNotify } from '../components/Notifications';
import { useI18n } from '../i18n/I18nProvider';
import { hasScope } from '../session/scopes';
import { useSession, useSessionState } from '../session/SessionProvider';
import { NAV_ITEMS } from './navigation';

/**
 * The user's workspaces, to act in another: every screen loads again for it. The screen stays when the new role
 * may read it (Links shows the other workspace's links); one about a single row of the old workspace does not.
 */
export function WorkspaceSwitcher() {
  const { t } = useI18n();
  const session = useSession();
  const { switchTo } = useSessionState();
  const notify = useNotify();
  const [location, navigate] = useLocation();
  const [busy, setBusy] = useState(false);

  const choose = async (id: number) => {
    setBusy(true);
    try {
      const next = await switchTo(id);
      const screen = NAV_ITEMS.find((item) => location === item.href);
      if (screen === undefined || !hasScope(next.scopes, screen.scope)) navigate('/', { replace: true });
      notify(t.app.switched(next.workspace.name));
    } catch (error) {
      notify(describeError(t, error));
      setBusy(false);
    }
  };

  return (
    <Field label={t.app.workspace} className="compact">
      {(control) => (
        <select
          {...control}
          value={session.workspace.id}
          disabled={busy}
          onChange={(event) => void choose(Number(event.target.value))}
        >
          {session.workspaces.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {workspace.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
