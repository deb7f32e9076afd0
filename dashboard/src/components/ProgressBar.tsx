interface ProgressBarProps {
  /** The bar's name for screen readers: what is progressing. */
  label: string;
  value: number;
  /** Null while the whole is not known: the bar is then indeterminate. */
  max: number | null;
  /** Where it stands, in words: shown beside the bar and read as its value. */
  text: string;
}

/**
 * How far some work has gone: a bar with `role="progressbar"` and its values, drawn in SVG (no inline style, which
 * the dashboard's CSP refuses), and the same in words beside it.
 */
export function ProgressBar({ label, value, max, text }: ProgressBarProps) {
  const share = max === null || max <= 0 ? 0 : Math.min(1, Math.max(0, value / max));
  return (
    <div className="progress">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max ?? undefined}
        aria-valuenow={max === null ? undefined : Math.min(value, max)}
        aria-valuetext={text}
        className="progress-bar"
      >
        <svg viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
          <rect className="progress-track" width="100" height="6" />
          <rect className="progress-fill" width={share * 100} height="6" />
        </svg>
      </div>
      <span className="progress-text">{text}</span>
    </div>
  );
}
