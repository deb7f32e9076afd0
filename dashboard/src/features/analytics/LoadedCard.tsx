import { useId, type ReactNode } from 'react';
import { Field } from '../../components/Field';
import { LoadError, Loading } from '../../components/LoadState';
import type { Loaded } from '../../hooks/useLoad';

interface LoadedCardProps<T> {
  title: string;
  loaded: Loaded<T>;
  /** Said instead of the content when the answer holds nothing to show. */
  empty: string;
  isEmpty: (data: T) => boolean;
  className?: string;
  children: (data: T) => ReactNode;
}

/**
 * A card of the screen drawn from one load: its failure with a retry, a skeleton the first time, then its content,
 * or a sentence when there is nothing to show. Every part of the screen loads alike, so it is written once.
 */
export function LoadedCard<T>({ title, loaded, empty, isEmpty, className, children }: LoadedCardProps<T>) {
  const headingId = useId();
  const { data } = loaded;
  return (
    <section className={className === undefined ? 'card' : `card ${className}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {loaded.error !== undefined && <LoadError error={loaded.error} onRetry={loaded.reload} />}
      {data === undefined && loaded.loading && <Loading />}
      {data !== undefined && (isEmpty(data) ? <p className="empty">{empty}</p> : children(data))}
    </section>
  );
}

interface DateFieldProps {
  label: string;
  value: string;
  min?: string;
  max?: string;
  hint?: string;
  onChange: (value: string) => void;
}

/** A day of the period, `Y-m-d` (UTC), as the API takes it. */
export function DateField({ label, value, min, max, hint, onChange }: DateFieldProps) {
  return (
    <Field label={label} hint={hint} className="filter">
      {(control) => (
        <input
          {...control}
          type="date"
          min={min}
          max={max}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
