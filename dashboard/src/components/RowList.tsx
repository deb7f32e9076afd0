import { useState, type ReactNode } from 'react';
import type { Loaded } from '../hooks/useLoad';
import { DataTable, type Column } from './DataTable';
import { LoadError, Loading } from './LoadState';
import { RemovalDialog, type Removal } from './RemovalDialog';
import { RowButton } from './RowButton';

interface RowListProps<T extends { id: number }> {
  /** The load the rows come from: its failure, its progress, and what loads them again after a removal. */
  loaded: Pick<Loaded<unknown>, 'error' | 'loading' | 'reload'>;
  rows: readonly T[] | undefined;
  caption: string;
  empty: string;
  columns: Column<T>[];
  rowName: (row: T) => string;
  /** The removal of a row, for the rows it applies to (all, unless `removable` says); none for a reader. */
  removal?: (Removal<T> & { removable?: (row: T) => boolean }) | undefined;
  /** Below the table, such as its paging. */
  children?: ReactNode;
}

/**
 * A short list of a page's section (invitations, passkeys, sessions): loading, its failure, the empty state, the
 * table, and each row's removal asked first.
 */
export function RowList<T extends { id: number }>(props: RowListProps<T>) {
  const { loaded, rows, removal, rowName } = props;
  const [removing, setRemoving] = useState<T | null>(null);

  return (
    <>
      {loaded.error !== undefined && <LoadError error={loaded.error} onRetry={loaded.reload} />}
      {rows === undefined && loaded.loading && <Loading lines={2} />}
      {rows !== undefined && (
        <div className="list-region" aria-busy={loaded.loading}>
          {rows.length === 0 ? (
            <p className="empty">{props.empty}</p>
          ) : (
            <DataTable<T>
              caption={props.caption}
              columns={props.columns}
              rows={rows}
              actions={
                removal &&
                ((row) =>
                  removal.removable?.(row) !== false && (
                    <RowButton name={rowName(row)} danger onClick={() => setRemoving(row)}>
                      {removal.label}
                    </RowButton>
                  ))
              }
            />
          )}
          {props.children}
        </div>
      )}
      {removing !== null && removal && (
        <RemovalDialog
          removal={removal}
          row={removing}
          name={rowName(removing)}
          onClose={() => setRemoving(null)}
          onRemoved={() => {
            setRemoving(null);
            loaded.reload();
          }}
        />
      )}
    </>
  );
}
