/** ISO 8601 in UTC with microseconds, as the contract writes dates: `2026-11-21T10:05:00.000000Z`. */
export function isoDate(date: Date): string;
export function isoDate(date: Date | null): string | null;
export function isoDate(date: Date | null): string | null {
  return date === null ? null : date.toISOString().replace(/Z$/, '000Z');
}
