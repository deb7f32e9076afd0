import type { ReactNode } from 'react';

/**
 * A button of a table row: its visible label, and the row's name for screen readers, so that "Edit" in a list of
 * twenty is "Edit Marketing" to whoever cannot see which row it stands in.
 */
export function RowButton({
  name,
  danger = false,
  onClick,
  children,
}: {
  name: string;
  danger?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={danger ? 'danger' : undefined} onClick={onClick}>
      {children} <span className="sr-only">{name}</span>
    </button>
  );
}
