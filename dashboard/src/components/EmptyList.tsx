import { useT } from '../i18n/I18nProvider';

interface EmptyListProps {
  /** Whether a search or a filter narrowed the list: then nothing matches, rather than nothing exists. */
  filtered: boolean;
  /** What the list says when nothing exists yet. */
  empty: string;
  /** The list's create action, when the reader may create. */
  create?: { label: string; onClick: () => void } | undefined;
  /** Back to the whole list. */
  onClear: () => void;
}

/** A list with no rows says one thing: nothing yet (and how to make the first), or nothing matches (and how to see all). */
export function EmptyList({ filtered, empty, create, onClear }: EmptyListProps) {
  const t = useT();
  return (
    <div className="empty">
      <p>{filtered ? t.common.noResults : empty}</p>
      {filtered ? (
        <button type="button" onClick={onClear}>
          {t.common.clearFilters}
        </button>
      ) : (
        create && (
          <button type="button" className="primary" onClick={create.onClick}>
            {create.label}
          </button>
        )
      )}
    </div>
  );
}
