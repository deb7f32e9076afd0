import type { ComponentProps, ReactNode } from 'react';

import type { ResourceList } from '../hooks/useResourceList';
import { useT } from '../i18n/I18nProvider';
import type { Messages } from '../i18n/en';
import { DataTable, type Column } from './DataTable';
import { EmptyList } from './EmptyList';
import { ListControls, type ListValues } from './ListControls';
import { LoadError, Loading } from './LoadState';
import { useNotify } from './Notifications';
import { PageTitle } from './PageTitle';
import { Pagination } from './Pagination';
import { RemovalDialog, type Removal } from './RemovalDialog';
import { RowButton } from './RowButton';
import { SecretDialog } from './SecretDialog';

/** What a resource's page says, most of it from its catalogue section. */
export interface ResourceTexts {
  title: string;
  /** The create button; a list nobody adds to (a log) has none. */
  new?: string;
  filters: string;
  pages: string;
  empty: string;
  intro?: string;
  saved?: (name: string) => string;
  /** A secret the API gives once, on create or on demand; `note` says what to do with it. */
  secret?: { title: (name: string) => string; what: string; note?: string };
}

export type { Removal };

/** A row's own buttons: `edit` and `remove` open the page's dialogs for it. */
export type RowActions<T> = (row: T, open: { edit: () => void; remove: () => void }) => ReactNode;

type Row = { id: number };

/** The address parameters that order or size a list rather than narrow it. */
const NOT_FILTERS = new Set(['search_by', 'sort_by', 'sort', 'per_page']);

interface ResourceListPageProps<T extends Row> {
  texts: ResourceTexts;
  list: ResourceList<T>;
  mayWrite: boolean;
  /** Whether the API searches the list; the search field is left out where it does not. */
  searchable?: boolean;
  /** The columns the API searches in, when the list does not say them. */
  searchBy?: readonly (keyof Messages['searchBy'])[];
  /** The columns the API sorts by, when the list does not say them; none for a list it sorts only by date. */
  sortBy?: readonly (keyof Messages['sortBy'])[];
  /** The list's own filters, beside the search. */
  filters?: ReactNode;
  /** Shown above the list, such as the failure of a row's action. */
  notice?: ReactNode;
  columns: Column<T>[];
  tableClassName?: string;
  /** How a row is named to screen readers and in messages; its `name` unless said. */
  rowName?: (row: T) => string;
  /** Buttons of the page beside its create button. */
  headerActions?: ReactNode;
  /** Shown right below the title, such as the failure of a page's action. */
  headerNotice?: ReactNode;
  /** Creating elsewhere than in the form dialog, such as on a page of its own. */
  create?: () => void;
  /** The row buttons, when they are more than Edit and the removal. */
  actions?: RowActions<T>;
  /** Whether the actions column shows for a reader who may not write (its actions then are read-only ones). */
  actionsForReaders?: boolean;
  form?: (row: T | null, onSaved: (saved: T, secret?: string) => void, onClose: () => void) => ReactNode;
  /** The removal of a row; a list whose rows are never removed (a log) has none. */
  removal?: Removal<T>;
  /** Shown between the search and the list, such as the bar of a selection's actions. */
  beforeList?: ReactNode;
  /** A first column before the rows' headers (a selection checkbox), and attributes of each row. */
  table?: {
    lead?: { header: ReactNode; cell: (row: T) => ReactNode } | undefined;
    rowProps?: ((row: T) => ComponentProps<'tr'>) | undefined;
  };
  /** The page's other dialogs. */
  children?: ReactNode;
}

/**
 * A resource's list page: the title and its create button, search and filters kept in the address, the table built
 * from its columns, paging, the empty states, and the create/edit, removal and secret dialogs.
 */
export function ResourceListPage<T extends Row>(props: ResourceListPageProps<T>) {
  const t = useT();
  const notify = useNotify();
  const { texts, list, mayWrite, columns, removal } = props;
  const { update, defaults, page } = list;
  // Every list's defaults hold the common parameters (`LIST_DEFAULTS`).
  const values = list.values as Readonly<ListValues & Record<string, string>>;
  const create = props.create ?? (() => list.edit('new'));
  const nameOf = props.rowName ?? ((row: T) => (row as T & { name: string }).name);
  const filterNames = Object.keys(defaults).filter((name) => !NOT_FILTERS.has(name));
  const cleared = Object.fromEntries(
    filterNames.filter((name) => name !== 'page').map((name) => [name, defaults[name]]),
  );

  const saved = (row: T, secret?: string) => {
    list.edit(null);
    page.reload();
    if (secret !== undefined) list.showSecret({ name: nameOf(row), secret });
    else if (texts.saved) notify(texts.saved(nameOf(row)));
  };
  const actions: RowActions<T> =
    props.actions ??
    ((row, open) => <EditAndRemove name={nameOf(row)} open={open} removeLabel={removal?.label ?? ''} />);
  const showActions = mayWrite || props.actionsForReaders === true;
  const deleting = list.deleting;

  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={texts.title} />
        {(mayWrite || props.headerActions !== undefined) && (
          <div className="page-actions">
            {mayWrite && (
              <button type="button" className="primary" onClick={create}>
                {texts.new}
              </button>
            )}
            {props.headerActions}
          </div>
        )}
      </header>
      {props.headerNotice}
      {texts.intro !== undefined && <p className="hint">{texts.intro}</p>}
      <ListControls
        label={texts.filters}
        values={values}
        update={update}
        searchable={props.searchable}
        searchBy={(props.searchBy ?? list.searchBy)?.map((value) => ({ value, label: t.searchBy[value] }))}
        sortBy={(props.sortBy ?? list.sortBy)?.map((value) => ({ value, label: t.sortBy[value] }))}
      >
        {props.filters}
      </ListControls>
      {props.notice}
      {props.beforeList}
      {page.error !== undefined && <LoadError error={page.error} onRetry={page.reload} />}
      {page.data === undefined && page.loading && <Loading />}
      {page.data !== undefined && (
        <div className="list-region" aria-busy={page.loading}>
          {page.data.data.length === 0 ? (
            <EmptyList
              filtered={filterNames.some((name) => values[name] !== defaults[name])}
              empty={texts.empty}
              create={mayWrite && texts.new ? { label: texts.new, onClick: create } : undefined}
              onClear={() => update(cleared)}
            />
          ) : (
            <DataTable
              caption={texts.title}
              columns={columns}
              rows={page.data.data}
              className={props.tableClassName}
              lead={props.table?.lead}
              rowProps={props.table?.rowProps}
              actions={
                showActions
                  ? (row) => actions(row, { edit: () => list.edit(row), remove: () => list.remove(row) })
                  : undefined
              }
            />
          )}
          <Pagination
            meta={page.data.meta}
            label={texts.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
      {list.editing !== null &&
        props.form?.(list.editing === 'new' ? null : list.editing, saved, () => list.edit(null))}
      {list.secret !== null && texts.secret && (
        <SecretDialog
          title={texts.secret.title(list.secret.name)}
          secret={list.secret.secret}
          what={texts.secret.what}
          note={texts.secret.note}
          onClose={() => list.showSecret(null)}
        />
      )}
      {props.children}
      {deleting !== null && removal && (
        <RemovalDialog
          removal={removal}
          row={deleting}
          name={nameOf(deleting)}
          onClose={() => list.remove(null)}
          onRemoved={() => {
            list.remove(null);
            page.reload();
          }}
        />
      )}
    </section>
  );
}

/** A row's usual buttons: Edit, and its removal (Delete, Revoke). */
export function EditAndRemove({
  name,
  open,
  removeLabel,
}: {
  name: string;
  open: { edit: () => void; remove: () => void };
  removeLabel: string;
}) {
  const t = useT();
  return (
    <>
      <RowButton name={name} onClick={open.edit}>
        {t.common.edit}
      </RowButton>
      <RowButton name={name} danger onClick={open.remove}>
        {removeLabel}
      </RowButton>
    </>
  );
}
