/**
 * The links picked for a bulk action: ids picked by hand (kept across pages), or every link the list's filters
 * find. `key` names the filters it was made under: a selection made under other filters is an empty one.
 */
export interface Selection {
  key: string;
  ids: readonly number[];
  /** Every link matching the filters, however many pages. */
  all: boolean;
}

export const emptySelection = (key: string): Selection => ({ key, ids: [], all: false });

/** The selection as it stands under the filters `key`: emptied when the filters changed since it was made. */
export function current(selection: Selection, key: string): Selection {
  return selection.key === key ? selection : emptySelection(key);
}

export function isSelected(selection: Selection, id: number): boolean {
  return selection.all || selection.ids.includes(id);
}

/**
 * Picks or unpicks one link. Unpicking one of "all matching" keeps the rest of the page shown: the links beyond it
 * cannot be named by id without being read.
 */
export function toggle(selection: Selection, id: number, pageIds: readonly number[]): Selection {
  if (selection.all) return { ...selection, all: false, ids: pageIds.filter((other) => other !== id) };
  return selection.ids.includes(id)
    ? { ...selection, ids: selection.ids.filter((other) => other !== id) }
    : { ...selection, ids: [...selection.ids, id] };
}

/** Whether every link of the page is picked. */
export function pageSelected(selection: Selection, pageIds: readonly number[]): boolean {
  return pageIds.length > 0 && pageIds.every((id) => isSelected(selection, id));
}

/** The header's checkbox: picks the whole page, or unpicks it when it is all picked already. */
export function togglePage(selection: Selection, pageIds: readonly number[]): Selection {
  if (pageSelected(selection, pageIds)) {
    return {
      ...selection,
      all: false,
      ids: selection.all ? [] : selection.ids.filter((id) => !pageIds.includes(id)),
    };
  }
  return { ...selection, ids: [...selection.ids, ...pageIds.filter((id) => !selection.ids.includes(id))] };
}

export function selectAllMatching(selection: Selection): Selection {
  return { ...selection, all: true, ids: [] };
}

/** How many links the selection holds; `total` is how many the filters find. */
export function selectedCount(selection: Selection, total: number): number {
  return selection.all ? total : selection.ids.length;
}

/** What a bulk request names: the ids, or the filter for "all matching". */
export function bulkTarget<F>(selection: Selection, filter: F): { ids: number[] } | { filter: F } {
  return selection.all ? { filter } : { ids: [...selection.ids] };
}
