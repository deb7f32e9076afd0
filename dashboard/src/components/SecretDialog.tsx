import type { ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';
import { CopyButton } from './CopyButton';
import { Dialog } from './Dialog';

interface SecretDialogProps {
  title: string;
  secret: string;
  /** What the secret is, for the copy button's name: "API key", "Signing secret". */
  what: string;
  onClose: () => void;
  /** What to do with it, said after the warning. */
  note?: ReactNode;
}

/**
 * A secret the API shows once (a key, an invitation's link, recovery codes one a line): displayed with a copy button
 * and the warning that it cannot be seen again.
 */
export function SecretDialog({ title, secret, what, onClose, note }: SecretDialogProps) {
  const t = useT();
  return (
    <Dialog title={title} onClose={onClose}>
      <p className="warning">{t.common.secretOnce}</p>
      {note !== undefined && <p>{note}</p>}
      <p>
        <code className="secret" data-testid="secret">
          {secret}
        </code>
      </p>
      <div className="dialog-actions">
        <CopyButton text={secret} what={what} />
        <button type="button" className="primary" onClick={onClose}>
          {t.common.secretStored}
        </button>
      </div>
    </Dialog>
  );
}
