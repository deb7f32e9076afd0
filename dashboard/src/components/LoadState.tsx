import { describeError } from '../api/describe';
import { useT } from '../i18n/I18nProvider';

/**
 * What is on its way, drawn as grey lines where it will stand, so that the page keeps its shape; the word is for
 * screen readers, told once as a status.
 */
export function Loading({ lines = 4 }: { lines?: number }) {
  const t = useT();
  return (
    <div className="loading" role="status">
      <span className="sr-only">{t.common.loading}</span>
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}

/** The app's frame while the session is read at start: its top bar and a page loading, not a blank screen. */
export function LoadingFrame() {
  const t = useT();
  return (
    <>
      <header className="topbar">
        <span className="brand">{t.app.name}</span>
      </header>
      <main id="main">
        <span className="skeleton-line skeleton-title" aria-hidden="true" />
        <Loading lines={6} />
      </main>
    </>
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
