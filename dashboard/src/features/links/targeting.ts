import type { Link, TargetBody, TargetsType } from '../../api/types';
import { withScheme } from '../../components/UrlInput';

/** At most this many targets per link, as the API allows. */
export const MAX_TARGETS = 100;

export interface TargetRow {
  /** A stable identity for React while rows are added and removed; never sent. */
  id: number;
  /** The country, continent, OS, browser, language or device code; unused for rotations. */
  key: string;
  url: string;
  /** A rotation's weight as typed: empty for the default, 1. */
  weight: string;
}

export interface Targeting {
  type: TargetsType | '';
  rows: TargetRow[];
}

let nextRowId = 1;

export function newRow(key = '', url = '', weight = ''): TargetRow {
  return { id: nextRowId++, key, url, weight };
}

export const NO_TARGETING: Targeting = { type: '', rows: [] };

export function targetingOfLink(link: Pick<Link, 'targets_type' | 'targets'>): Targeting {
  if (link.targets_type === null) return NO_TARGETING;
  return {
    type: link.targets_type,
    rows: (link.targets ?? []).map((target) =>
      newRow(
        target.key ?? '',
        target.value,
        target.weight === undefined || target.weight === 1 ? '' : String(target.weight),
      ),
    ),
  };
}

/** The targeting after choosing another type: the destinations stay, the keys (which belong to the old type) go. */
export function changeType(targeting: Targeting, type: TargetsType | ''): Targeting {
  if (type === '') return { type, rows: [] };
  const rows = targeting.rows.length > 0 ? targeting.rows.map((row) => ({ ...row, key: '' })) : [newRow()];
  return { type, rows };
}

/**
 * The targeting as the API takes it: `targets_type` with `[{key, value}]`, or `[{value}]` for rotations; both null
 * for none (on an update, that clears the link's targeting).
 */
export function targetingBody(targeting: Targeting): {
  targets_type: TargetsType | null;
  targets: TargetBody[] | null;
} {
  if (targeting.type === '') return { targets_type: null, targets: null };
  const targets =
    targeting.type === 'rotations'
      ? targeting.rows.map((row): TargetBody =>
          row.weight.trim() === ''
            ? { value: withScheme(row.url) }
            : { value: withScheme(row.url), weight: Number(row.weight) },
        )
      : targeting.rows.map((row): TargetBody => ({ key: row.key, value: withScheme(row.url) }));
  return { targets_type: targeting.type, targets };
}
