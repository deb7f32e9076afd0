import { useState } from 'react';
import {
  confirmTwoFactor,
  disableTwoFactor,
  renewRecoveryCodes,
  startTwoFactor,
  type TwoFactorSetup,
} from '../../api/people';
import type { User } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { useNotify } from '../../components/Notifications';
import { SecretDialog } from '../../components/SecretDialog';
import { SubmitForm } from '../../components/SubmitForm';
import { useSubmit } from '../../hooks/useSubmit';
import { useT } from '../../i18n/I18nProvider';
import { CodeField } from '../people/fields';
import { PasswordConfirmDialog } from './PasswordConfirmDialog';

/**
 * Two-factor sign-in: turned on with a code of the new secret (then the recovery codes, shown once), turned off or
 * given new recovery codes with the current password.
 */
export function TwoFactorCard({ user, onChanged }: { user: User; onChanged: () => void }) {
  const t = useT();
  const notify = useNotify();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [asking, setAsking] = useState<'disable' | 'codes' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const starting = useSubmit();

  const confirmed = (recoveryCodes: string[]) => {
    setSetup(null);
    setCodes(recoveryCodes);
    onChanged();
  };

  return (
    <Card title={t.profile.twoFactor}>
      {user.two_factor === 1 ? (
        <>
          <p>{t.profile.twoFactorOn}</p>
          <div className="form-actions">
            <button type="button" onClick={() => setAsking('codes')}>
              {t.profile.newCodes}
            </button>
            <button type="button" className="danger" onClick={() => setAsking('disable')}>
              {t.profile.turnOff}
            </button>
          </div>
        </>
      ) : setup === null ? (
        <>
          <p>{t.profile.twoFactorOff}</p>
          <SubmitForm
            submission={starting}
            onSave={async () => setSetup(await startTwoFactor())}
            submitLabel={t.profile.turnOn}
          />
        </>
      ) : (
        <TwoFactorSetupForm setup={setup} onConfirmed={confirmed} onCancel={() => setSetup(null)} />
      )}
      {asking === 'codes' && (
        <PasswordConfirmDialog
          title={t.profile.newCodes}
          intro={t.profile.newCodesIntro}
          saveLabel={t.profile.newCodes}
          onConfirm={async (password) => {
            const renewed = await renewRecoveryCodes(password);
            setAsking(null);
            setCodes(renewed);
          }}
          onClose={() => setAsking(null)}
        />
      )}
      {asking === 'disable' && (
        <PasswordConfirmDialog
          title={t.profile.turnOff}
          saveLabel={t.profile.turnOff}
          onConfirm={async (password) => {
            await disableTwoFactor(password);
            setAsking(null);
            notify(t.profile.turnedOff);
            onChanged();
          }}
          onClose={() => setAsking(null)}
        />
      )}
      {codes !== null && (
        <SecretDialog
          title={t.profile.recoveryTitle}
          secret={codes.join('\n')}
          what={t.profile.recoveryWhat}
          note={t.profile.recoveryNote}
          onClose={() => setCodes(null)}
        />
      )}
    </Card>
  );
}

interface SetupFormProps {
  setup: TwoFactorSetup;
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** The new secret, as text and as the setup link an authenticator app opens, and the code that proves it works. */
function TwoFactorSetupForm({ setup, onConfirmed, onCancel }: SetupFormProps) {
  const t = useT();
  const submission = useSubmit(['otp']);
  const [otp, setOtp] = useState('');
  return (
    <>
      <p>{t.profile.setupIntro}</p>
      <dl className="details">
        <dt>{t.profile.secret}</dt>
        <dd>
          <code data-testid="two-factor-secret">{setup.secret}</code>{' '}
          <CopyButton text={setup.secret} what={t.profile.secret} />
        </dd>
        <dt>{t.profile.setupUrl}</dt>
        <dd>
          <a href={setup.otpauth_url}>{t.profile.openInApp}</a>
          <br />
          <code>{setup.otpauth_url}</code> <CopyButton text={setup.otpauth_url} what={t.profile.setupUrl} />
        </dd>
      </dl>
      <SubmitForm
        submission={submission}
        onSave={async () => onConfirmed(await confirmTwoFactor(otp.trim()))}
        actions={
          <div className="form-actions">
            <button type="submit" className="primary" disabled={submission.saving}>
              {t.profile.confirm}
            </button>
            <button type="button" onClick={onCancel}>
              {t.common.cancel}
            </button>
          </div>
        }
      >
        <CodeField
          numeric
          label={t.profile.code}
          field={submission.field('otp')}
          value={otp}
          onChange={setOtp}
        />
      </SubmitForm>
    </>
  );
}
