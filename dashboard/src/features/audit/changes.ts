import type { AuditEntry } from '../../api/types';

/** A value of the log as it reads in one line: text as it is, nothing as a dash, anything else as JSON. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** An entry's changes, one `field: old → new` a line, in the order the API gives them. */
export function changeLines(entry: AuditEntry): string[] {
  return Object.entries(entry.changes).map(
    ([field, [before, after]]) => `${field}: ${shownValue(before)} → ${shownValue(after)}`,
  );
}
