import { useMemo, useState } from 'react';
import {
  addPasskey,
  deletePasskey,
  isAuthenticatorError,
  listPasskeys,
  passkeysSupported,
} from '../../api/people';
import { isApiError } from '../../api/errors';
import { Card } from '../../components/Card';
import { Field } from '../../components/Field';
import { useNotify } from '../../components/Notifications';
import { RowList } from '../../components/RowList';
import { SubmitForm } from '../../components/SubmitForm';
import { useLoad } from '../../hooks/useLoad';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';

/** The person's passkeys: each may be removed; a new one is made by this browser's authenticator, named first. */
export function PasskeysCard() {
  const { t, dateTime } = useI18n();
  const notify = useNotify();
  const passkeys = useLoad('passkeys', listPasskeys);
  // The authenticator's refusals are the browser's, not the API's: said in words of their own.
  const own = useMemo(
    () => (error: unknown) => (isAuthenticatorError(error) ? t.signIn.passkeyFailed : null),
    [t],
  );
  const submission = useSubmit(['name'], own);
  const [name, setName] = useState('');
  // A service without passkeys answers 404: nothing to list or add.
  const unavailable = isApiError(passkeys.error) && passkeys.error.status === 404;

  const add = async () => {
    const made = await addPasskey(name.trim());
    setName('');
    notify(t.profile.passkeyAdded(made.name));
    passkeys.reload();
  };

  return (
    <Card title={t.profile.passkeys}>
      <p>{t.profile.passkeysIntro}</p>
      {unavailable ? (
        <p className="hint">{t.signIn.passkeyUnavailable}</p>
      ) : (
        <>
          <RowList
            loaded={passkeys}
            rows={passkeys.data}
            caption={t.profile.passkeys}
            empty={t.profile.passkeysEmpty}
            rowName={(passkey) => passkey.name}
            columns={[
              { label: t.common.name, cell: (passkey) => passkey.name },
              { label: t.common.created, cell: (passkey) => dateTime(passkey.created_at) },
              {
                label: t.profile.lastUsed,
                cell: (passkey) => (passkey.last_used_at ? dateTime(passkey.last_used_at) : t.profile.never),
              },
            ]}
            removal={{
              label: t.profile.removePasskey,
              title: t.profile.passkeyRemoveTitle,
              confirm: t.profile.passkeyRemoveConfirm,
              done: t.profile.passkeyRemoved,
              run: (passkey) => deletePasskey(passkey.id),
            }}
          />
          {passkeysSupported() ? (
            <SubmitForm submission={submission} onSave={add} submitLabel={t.profile.addPasskey}>
              <Field
                label={t.profile.passkeyName}
                hint={t.profile.passkeyNameHint}
                {...submission.field('name')}
              >
                {(control) => (
                  <input
                    {...control}
                    required
                    maxLength={100}
                    value={name}
                    onChange={(event) => setName(event.target.value)}
                  />
                )}
              </Field>
            </SubmitForm>
          ) : (
            <p className="hint">{t.profile.passkeysUnsupported}</p>
          )}
        </>
      )}
    </Card>
  );
}
