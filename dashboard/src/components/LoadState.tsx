import { describeError } from '../api/describe';
import { useT } from '../i18n/I18nProvider';

export function Loading() {
  const t = useT();
  return (
    <p className="loading" role="status">
      {t.common.loading}
    </p>
  );
}

/** A load that failed, with a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT();
  return (
    <div role="alert" className="load-error">
      <p>{describeError(t, error)}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          {t.common.retry}
        </button>
      )}
    </div>
  );
}
