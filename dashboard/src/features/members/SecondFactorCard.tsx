import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/describe';
import { Card } from '../../components/Card';
import { Checkbox } from '../../components/Field';
import { useNotify } from '../../components/Notifications';
import { useLoad } from '../../hooks/useLoad';
import { useT } from '../../i18n/I18nProvider';
import { useCan, useSession } from '../../session/SessionProvider';

/**
 * Whether the workspace asks every member for a second factor (an app's code or a passkey): the owner's choice, said
 * to everyone else who may read the account.
 */
export function SecondFactorCard() {
  const t = useT();
  const can = useCan();
  const { workspace } = useSession();
  const notify = useNotify();
  const requirement = useLoad(can('account.read') ? 'second-factor' : null, (signal) =>
    call(api.GET('/api/v1/account/two-factor', { signal })),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const data = requirement.data?.data;
  if (data === undefined) return null;
  const required = data.required === 1;

  const choose = async (next: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await call(api.PUT('/api/v1/account/two-factor', { body: { required: next ? 1 : 0 } }));
      notify(next ? t.members.nowRequired : t.members.nowOptional);
      requirement.reload();
    } catch (failure) {
      setError(describeError(t, failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t.members.secondFactor}>
      {workspace.role === 'owner' && can('members.write') ? (
        <Checkbox
          label={t.members.requireSecondFactor}
          hint={t.members.requireSecondFactorHint}
          checked={required}
          disabled={busy}
          onChange={(checked) => void choose(checked)}
        />
      ) : (
        <p>{required ? t.members.secondFactorRequired : t.members.secondFactorOptional}</p>
      )}
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </Card>
  );
}
