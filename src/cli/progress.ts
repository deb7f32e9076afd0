import type { ImportResponse } from '../imports/import.mapper';

const BAR_WIDTH = 30;

/**
 * An import's progress in one line: on a terminal a bar redrawn in place (`\r`), elsewhere (a log, a pipe) a line of
 * its own each time it changes. The counts are the API's.
 */
export function progressLine(shown: ImportResponse, terminal: boolean): string {
  const { progress } = shown;
  const total = progress.links_total;
  const share = total === null || total === 0 ? null : Math.min(1, progress.links_done / total);
  const filled = share === null ? 0 : Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const percent = share === null ? '  ?%' : `${String(Math.floor(share * 100)).padStart(3)}%`;
  const counts =
    `${progress.links_done}/${total ?? '?'} links: ${progress.links_created} created, ` +
    `${progress.links_updated} updated, ${progress.links_skipped} skipped, ${progress.links_failed} failed; ` +
    `${progress.clicks_imported} clicks`;
  return terminal
    ? `\r${bar} ${percent} ${counts} (${shown.status})`
    : `${shown.status} ${percent} ${counts}\n`;
}
