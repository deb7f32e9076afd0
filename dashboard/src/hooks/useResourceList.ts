import { useState } from 'react';
import type { PageMeta } from '../api/types';
import type { Messages } from '../i18n/en';
import { LIST_DEFAULTS, listQuery } from './listQuery';
import { useListParams } from './useListParams';
import { useLoad, type Loaded } from './useLoad';

/** What every list answer holds: one page of rows and where it stands. */
export interface ListPage<T> {
  data: T[];
  meta: PageMeta;
}

/** A secret the API gave once, waiting to be shown. */
export interface ShownSecret {
  name: string;
  secret: string;
}

/** A list's address parameters: the common ones of `LIST_DEFAULTS` and the list's own filters. */
export interface ResourceList<T, K extends string = string> {
  defaults: Readonly<Record<K, string>>;
  values: Readonly<Record<K, string>>;
  update: (changes: Partial<Record<K, string>>) => void;
  page: Loaded<ListPage<T>>;
  editing: T | 'new' | null;
  edit: (row: T | 'new' | null) => void;
  deleting: T | null;
  remove: (row: T | null) => void;
  secret: ShownSecret | null;
  showSecret: (secret: ShownSecret | null) => void;
  /** The columns the API searches the list in, for the page to offer. */
  searchBy?: readonly SearchColumn[];
  /** The columns the API sorts the list by, for the page to offer. */
  sortBy?: readonly SortColumn[];
}

type SearchColumn = keyof Messages['searchBy'];
type SortColumn = keyof Messages['sortBy'];

/**
 * A resource list's state: its address (search, filters, order, page), the page loaded for it, and the row being
 * edited or deleted. `query` turns the address into what the API takes; a new query loads again.
 */
export function useResourceList<T, K extends string, Q>(
  defaults: Readonly<Record<K, string>>,
  query: (values: Readonly<Record<K, string>>) => Q,
  load: (query: Q, signal: AbortSignal) => Promise<ListPage<T>>,
): ResourceList<T, K> {
  const [values, update] = useListParams(defaults);
  const [editing, edit] = useState<T | 'new' | null>(null);
  const [deleting, remove] = useState<T | null>(null);
  const [secret, showSecret] = useState<ShownSecret | null>(null);
  const sent = query(values);
  const page = useLoad(JSON.stringify(sent), (signal) => load(sent, signal));
  return { defaults, values, update, page, editing, edit, deleting, remove, secret, showSecret };
}

/** A list of named rows searched by name unless the address says otherwise. */
const NAMED_DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

/**
 * A list of named rows (spaces, tags, keys...) with the common parameters alone: searched in and sorted by the
 * columns the API takes (`searchBy`, `sortBy`, its enums), which the list page then offers.
 */
export function useNamedList<T, S extends SearchColumn, O extends SortColumn>(
  searchBy: readonly S[],
  sortBy: readonly [O, ...O[]],
  load: (query: ReturnType<typeof listQuery<S, O>>, signal: AbortSignal) => Promise<ListPage<T>>,
): ResourceList<T> {
  const list = useResourceList(NAMED_DEFAULTS, (values) => listQuery(values, searchBy, sortBy), load);
  return { ...list, searchBy, sortBy };
}
