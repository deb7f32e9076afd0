import { describe, expect, it, vi } from 'vitest';
import { withScheme } from '../src/components/UrlInput';
import { parseQrSvg } from '../src/features/links/qrDesign';
import { linkStatus } from '../src/features/links/status';
import { clickBars, daysBefore } from '../src/features/stats/buckets';
import { displayValue } from '../src/features/stats/dimensions';
import { en } from '../src/i18n/en';
import { fr } from '../src/i18n/fr';
import { link } from './fixtures';

describe('clicks over time', () => {
  it('fills the days without clicks between from and to with zero', () => {
    const bars = clickBars(
      [
        { value: '2026-11-02', count: 4 },
        { value: '2026-11-05', count: 1 },
      ],
      '2026-11-01',
      '2026-11-05',
    );
    expect(bars).toEqual([
      { label: '2026-11-01', value: 0 },
      { label: '2026-11-02', value: 4 },
      { label: '2026-11-03', value: 0 },
      { label: '2026-11-04', value: 0 },
      { label: '2026-11-05', value: 1 },
    ]);
  });

  it('gives a day by hour, and months and years as the API groups them', () => {
    expect(clickBars([{ value: '2026-11-02 13', count: 2 }], '2026-11-02', '2026-11-02')).toHaveLength(24);
    expect(
      clickBars([{ value: '2026-03', count: 2 }], '2026-01-15', '2026-06-01').map((bar) => bar.label),
    ).toEqual(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06']);
    expect(
      clickBars([{ value: '2025', count: 9 }], '2023-05-01', '2026-01-01').map((bar) => bar.value),
    ).toEqual([0, 0, 9, 0]);
  });

  it('shows the buckets as they came when they do not fit the period', () => {
    expect(clickBars([{ value: '2020-01-01', count: 3 }], '2026-11-01', '2026-11-02')).toEqual([
      { label: '2020-01-01', value: 3 },
    ]);
    expect(clickBars([], '2026-11-01', '2026-11-02')).toEqual([]);
  });

  it('counts days back in UTC', () => {
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
  });
});

describe('stats values', () => {
  it('reads the values as the API writes them', () => {
    expect(displayValue('country', 'GB:United Kingdom', 'fr', fr)).toBe('Royaume-Uni');
    expect(displayValue('city', 'GB:London', 'en', en)).toBe('London (GB)');
    expect(displayValue('continent', 'SA', 'en', en)).toBe('South America');
    expect(displayValue('language', 'de', 'en', en)).toBe('German');
    expect(displayValue('device', 'mobile', 'fr', fr)).toBe('Mobile');
    expect(displayValue('device', 'television', 'en', en)).toBe('Television');
    expect(displayValue('referrer', null, 'en', en)).toBe('Direct, or no referrer');
    expect(displayValue('browser', null, 'en', en)).toBe('Unknown');
    expect(displayValue('browser', 'Firefox', 'en', en)).toBe('Firefox');
  });
});

describe('link status', () => {
  const now = Date.parse('2026-11-20T12:00:00Z');

  it('is disabled first, then expired by period or clicks limit, else active', () => {
    expect(linkStatus(link(), now)).toBe('active');
    expect(linkStatus(link({ disabled: 1, clicks_limit: 1, clicks: 5 }), now)).toBe('disabled');
    expect(linkStatus(link({ clicks_limit: 12, clicks: 12 }), now)).toBe('expired');
    expect(linkStatus(link({ clicks_limit: 0, clicks: 12 }), now)).toBe('active');
    expect(
      linkStatus(
        link({
          active_period_start_at: '2026-11-21T00:00:00Z',
          active_period_end_at: '2026-12-01T00:00:00Z',
        }),
        now,
      ),
    ).toBe('expired');
    expect(
      linkStatus(
        link({
          active_period_start_at: '2026-11-01T00:00:00Z',
          active_period_end_at: '2026-12-01T00:00:00Z',
        }),
        now,
      ),
    ).toBe('active');
  });
});

describe('the QR code', () => {
  it('takes only the outlines and colours of the API’s SVG', () => {
    const shape = parseQrSvg(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29" onload="alert(1)"><script>alert(2)</script>' +
        '<path fill="#ffffff" d="M0 0h29v29H0z"/><path stroke="#000000" d="M4 4.5h7"/></svg>',
    );
    expect(shape).toEqual({
      viewBox: '0 0 29 29',
      crisp: false,
      paths: [
        { d: 'M0 0h29v29H0z', fill: '#ffffff', stroke: undefined },
        { d: 'M4 4.5h7', fill: undefined, stroke: '#000000' },
      ],
      logo: null,
    });
    expect(parseQrSvg('not an svg')).toBeNull();
  });
});

describe('an address typed without a scheme', () => {
  it.each([
    ['example.com', 'https://example.com'],
    [' example.com/page?q=1 ', 'https://example.com/page?q=1'],
    ['sub.example.co.uk#top', 'https://sub.example.co.uk#top'],
    ['localhost:3000/x', 'https://localhost:3000/x'],
    ['//cdn.example.com/a', 'https://cdn.example.com/a'],
    ['http://example.com', 'http://example.com'],
    ['HTTPS://example.com', 'HTTPS://example.com'],
    ['ftp://example.com', 'ftp://example.com'],
    ['not a url', 'not a url'],
    ['localhost', 'localhost'],
    ['example.com/two words', 'example.com/two words'],
    ['', ''],
  ])('%j becomes %j', (typed, sent) => {
    expect(withScheme(typed)).toBe(sent);
  });
});

describe('language names', () => {
  it('names a language the browser has no name for (Chromium has none for "aa") from the shipped table', async () => {
    // A browser whose tables name no language at all: every name comes from the shipped table.
    const trimmed = Object.create(Intl, {
      DisplayNames: {
        value: class {
          of(): undefined {
            return undefined;
          }
        },
      },
    }) as typeof Intl;
    vi.stubGlobal('Intl', trimmed);
    vi.resetModules();
    const { languageName, languages } = await import('../src/i18n/names');

    expect(languageName('en', 'aa')).toBe('Afar');
    expect(languageName('de', 'vo')).toBe('Volapük');
    expect(languages('fr').find(({ code }) => code === 'ie')?.name).toBe('interlingue');
    expect(languages('es').every(({ code, name }) => name !== code)).toBe(true);
  });
});
