import type { ComponentProps, ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';

/** A column of a table: its heading and what a row shows in it. The first column names the row. */
export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  /** The cell's class; `number` also aligns the heading. */
  className?: string;
  /** The cell's tooltip. */
  title?: (row: T) => string;
}

/** The column that names the rows, the reader's own row (their key, themselves) marked by `badge` after its name. */
export function nameColumn<T extends { name: string }>(
  label: string,
  isOwn: (row: T) => boolean,
  badge: string,
): Column<T> {
  return {
    label,
    cell: (row) => (
      <>
        {row.name}
        {isOwn(row) && <span className="badge">{badge}</span>}
      </>
    ),
  };
}

interface DataTableProps<T extends { id: number | string }> {
  /** Read by screen readers only: what the table lists. */
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  className?: string;
  /** A last column of buttons, headed for screen readers only. */
  actions?: ((row: T) => ReactNode) | undefined;
  /** A first column before the row's header, such as a selection checkbox: its heading and its cells. */
  lead?: { header: ReactNode; cell: (row: T) => ReactNode } | undefined;
  /** Attributes of a row's element, such as the mark of the row the keyboard is on. */
  rowProps?: ((row: T) => ComponentProps<'tr'>) | undefined;
}

/**
 * Rows under their columns' headings; each row's first cell is its header, and each cell carries its column's
 * label (`data-label`), which the narrow layout shows beside the value.
 */
export function DataTable<T extends { id: number | string }>(props: DataTableProps<T>) {
  const t = useT();
  const { columns, actions, lead } = props;
  const [first, ...rest] = columns;
  return (
    <table className={props.className ? `table ${props.className}` : 'table'}>
      <caption className="sr-only">{props.caption}</caption>
      <thead>
        <tr>
          {lead && <td className="row-lead">{lead.header}</td>}
          {columns.map((column) => (
            <th
              key={column.label}
              scope="col"
              className={column.className === 'number' ? 'number' : undefined}
            >
              {column.label}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="sr-only">{t.common.actions}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.id} {...props.rowProps?.(row)}>
            {lead && <td className="row-lead">{lead.cell(row)}</td>}
            {first && (
              <th scope="row" className={first.className} data-label={first.label}>
                {first.cell(row)}
              </th>
            )}
            {rest.map((column) => (
              <td
                key={column.label}
                data-label={column.label}
                className={column.className}
                title={column.title?.(row)}
              >
                {column.cell(row)}
              </td>
            ))}
            {actions && <td className="row-actions">{actions(row)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
