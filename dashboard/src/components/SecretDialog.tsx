import { useT } from '../i18n/I18nProvider';
import { CopyButton } from './CopyButton';
import { Dialog } from './Dialog';

interface SecretDialogProps {
  title: string;
  secret: string;
  /** What the secret is, for the copy button's name: "API key", "Signing secret". */
  what: string;
  onClose: () => void;
}

/** A secret the API shows once: displayed with a copy button and the warning that it cannot be seen again. */
export function SecretDialog({ title, secret, what, onClose }: SecretDialogProps) {
  const t = useT();
  return (
    <Dialog title={title} onClose={onClose}>
      <p className="warning">{t.common.secretOnce}</p>
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
