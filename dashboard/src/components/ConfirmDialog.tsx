import { useState, type ReactNode } from 'react';
import { describeError, type OwnWords } from '../api/describe';
import { useT } from '../i18n/I18nProvider';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The action; the dialog stays open, showing the error, when it fails. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** Some failures in the screen's own words. */
  own?: OwnWords | undefined;
  /** Whether the action destroys something (the default), which its button's colour says. */
  danger?: boolean;
  /** Whether the action cannot be confirmed yet (a choice the dialog asks for is not made). */
  confirmDisabled?: boolean;
}

/** Asks before a destructive action. Cancel comes first, so Enter on the opened dialog does nothing harmful. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  own,
  danger = true,
  confirmDisabled = false,
}: ConfirmDialogProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (failure) {
      setError(describeError(t, failure, own));
      setBusy(false);
    }
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <div className="dialog-body">{children}</div>
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          {t.common.cancel}
        </button>
        <button
          type="button"
          className={danger ? 'danger' : 'primary'}
          disabled={busy || confirmDisabled}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
