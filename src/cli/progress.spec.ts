import type { ImportResponse } from '../imports/import.mapper';
import { progressLine } from './progress';

function shown(
  done: number,
  total: number | null,
  status: ImportResponse['status'] = 'running',
): ImportResponse {
  return {
    id: 1,
    source: 'phpshort',
    status,
    dry_run: 0,
    progress: {
      links_total: total,
      links_done: done,
      links_created: done - 1,
      links_updated: 0,
      links_skipped: 1,
      links_failed: 0,
      clicks_imported: 42,
    },
    errors: [],
    created_at: '2026-11-29T10:00:00.000000Z',
    started_at: null,
    finished_at: null,
  };
}

describe('progressLine', () => {
  it('draws a bar in place on a terminal', () => {
    expect(progressLine(shown(50, 200), true)).toBe(
      '\r[########----------------------]  25% 50/200 links: 49 created, 0 updated, 1 skipped, 0 failed; 42 clicks (running)',
    );
  });

  it('writes a line of its own elsewhere, and a total not known yet as a question mark', () => {
    expect(progressLine(shown(1, null, 'queued'), false)).toBe(
      'queued   ?% 1/? links: 0 created, 0 updated, 1 skipped, 0 failed; 42 clicks\n',
    );
    expect(progressLine(shown(200, 200, 'done'), false)).toBe(
      'done 100% 200/200 links: 199 created, 0 updated, 1 skipped, 0 failed; 42 clicks\n',
    );
  });
});
