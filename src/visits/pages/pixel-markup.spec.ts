import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { PixelResponse } from '../../pixels/pixel.mapper';
import { PIXEL_TYPES } from '../../pixels/pixel-types';
import { PIXELS_SCRIPT_PATH, pixelMarkup } from './pixel-markup';

function pixel(type: string, value: string, id = 1): PixelResponse {
  return { id, name: `${type} ${id}`, type, value, created_at: '', updated_at: '' };
}

const img = (src: string) => `<img src="${src}" width="1" height="1" alt="" />`;

/** The starter script with the pixels it is given, as the page writes it. */
function starter(tags: { type: string; value: string }[]): string {
  const data = JSON.stringify(tags).replace(/"/g, '&quot;');
  return `<script src="${PIXELS_SCRIPT_PATH}" data-pixels="${data}"></script>`;
}

describe('pixelMarkup', () => {
  it('loads nothing, and allows nothing more, without pixels', () => {
    expect(pixelMarkup([])).toEqual({ html: '', allow: {} });
  });

  it.each([
    [
      'facebook',
      '123456789012345',
      'https://connect.facebook.net',
      img('https://www.facebook.com/tr?id=123456789012345&amp;ev=PageView&amp;noscript=1'),
    ],
    [
      'linkedin',
      '1234567',
      'https://snap.licdn.com',
      img('https://px.ads.linkedin.com/collect/?pid=1234567&amp;fmt=gif'),
    ],
    [
      'pinterest',
      '2612345678901',
      'https://s.pinimg.com',
      img('https://ct.pinterest.com/v3/?event=init&amp;tid=2612345678901&amp;noscript=1'),
    ],
    [
      'quora',
      '0123456789abcdef0123456789abcdef',
      'https://a.quora.com',
      img('https://q.quora.com/_/ad/0123456789abcdef0123456789abcdef/pixel?tag=ViewContent&amp;noscript=1'),
    ],
    [
      'x',
      'o1a2b',
      'https://static.ads-twitter.com',
      img('https://analytics.twitter.com/i/adsct?txn_id=o1a2b&amp;p_id=Twitter'),
    ],
    ['bing', '12345678', 'https://bat.bing.com', img('https://bat.bing.com/action/0?ti=12345678&amp;Ver=2')],
    [
      'google-tag-manager',
      'GTM-ABC1234',
      'https://www.googletagmanager.com',
      '<iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC1234" width="0" height="0" title="Google Tag Manager" hidden></iframe>',
    ],
  ])('%s: its tag from its vendor, and its no-script form', (type, value, host, fallback) => {
    const { html, allow } = pixelMarkup([pixel(type, value)]);
    expect(html.split('\n')).toEqual([starter([{ type, value }]), `<noscript>${fallback}</noscript>`]);
    expect(allow).toMatchObject({
      'script-src': ["'self'", host],
      'img-src': ['https:'],
      'connect-src': ['https:'],
    });
  });

  it.each([
    ['google-analytics', 'G-ABC123DEF4', 'https://www.googletagmanager.com'],
    ['google-ads', '123456789', 'https://www.googletagmanager.com'],
    ['adroll', 'ABCDEFGHIJKLMNOPQRSTUV-WXYZ0123456789ABCD', 'https://s.adroll.com'],
  ])('%s: its tag only, as its template has no no-script form', (type, value, host) => {
    const { html, allow } = pixelMarkup([pixel(type, value)]);
    expect(html).toBe(starter([{ type, value }]));
    expect(allow).toEqual({
      'script-src': ["'self'", host],
      'img-src': ['https:'],
      'connect-src': ['https:'],
    });
  });

  it('allows the Tag Manager frame only for that type', () => {
    expect(pixelMarkup([pixel('google-tag-manager', 'GTM-ABC1234')]).allow['frame-src']).toEqual([
      'https://www.googletagmanager.com',
    ]);
    expect(pixelMarkup([pixel('facebook', '1')]).allow['frame-src']).toBeUndefined();
  });

  it('lists every pixel in one starter, and each host once', () => {
    const { html, allow } = pixelMarkup([
      pixel('facebook', '11111', 1),
      pixel('facebook', '22222', 2),
      pixel('google-analytics', 'G-ABC', 3),
      pixel('google-ads', '987', 4),
    ]);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(
      starter([
        { type: 'facebook', value: '11111' },
        { type: 'facebook', value: '22222' },
        { type: 'google-analytics', value: 'G-ABC' },
        { type: 'google-ads', value: '987' },
      ]),
    );
    expect(allow['script-src']).toEqual([
      "'self'",
      'https://connect.facebook.net',
      'https://www.googletagmanager.com',
    ]);
  });

  it('URL-encodes and escapes a value, whatever it holds', () => {
    const hostile = `1"><script>alert('x')</script>&a=b`;
    // encodeURIComponent leaves the quote ' as it is: the attribute escapes it.
    const encoded = encodeURIComponent(hostile).replace(/'/g, '&#39;');
    const facebook = pixelMarkup([pixel('facebook', hostile)]).html;
    expect(facebook).toContain(
      img(`https://www.facebook.com/tr?id=${encoded}&amp;ev=PageView&amp;noscript=1`),
    );
    expect(facebook).toContain(
      'data-pixels="[{&quot;type&quot;:&quot;facebook&quot;,&quot;value&quot;:&quot;1\\&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;a=b&quot;}]"',
    );
    expect(facebook.match(/<script/g)).toHaveLength(1);
    expect(pixelMarkup([pixel('google-tag-manager', hostile)]).html).toContain(
      `src="https://www.googletagmanager.com/ns.html?id=${encoded}"`,
    );
  });

  it('knows every pixel type', () => {
    for (const type of PIXEL_TYPES) {
      expect(pixelMarkup([pixel(type, 'ABC-1234')]).allow['script-src']).toHaveLength(2);
    }
  });
});

describe('assets/pixels.js', () => {
  const source = readFileSync(join(__dirname, 'assets', 'pixels.js'), 'utf8');

  /** Runs the starter in a bare window with these pixels: the scripts it adds, and the window after. */
  function run(tags: { type: string; value: string }[]) {
    const loaded: string[] = [];
    const window: Record<string, unknown> = {};
    const document = {
      currentScript: {
        getAttribute: (name: string) => (name === 'data-pixels' ? JSON.stringify(tags) : null),
      },
      createElement: () => ({}) as { src?: string },
      head: { appendChild: (script: { src: string }) => loaded.push(script.src) },
    };
    runInNewContext(source, { window, document, Date });
    return { loaded, window };
  }

  /** The calls a vendor's queue holds, as plain arrays. */
  const calls = (queue: unknown) => (queue as ArrayLike<unknown>[]).map((call) => Array.from(call));

  it('starts nothing without pixels', () => {
    expect(run([])).toEqual({ loaded: [], window: {} });
  });

  it('Google Analytics and Google Ads: one gtag, an Ads number written AW-', () => {
    const { loaded, window } = run([
      { type: 'google-analytics', value: 'G-ABC123DEF4' },
      { type: 'google-ads', value: '123456789' },
    ]);
    expect(loaded).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-ABC123DEF4']);
    expect(calls(window.dataLayer).slice(1)).toEqual([
      ['config', 'G-ABC123DEF4'],
      ['config', 'AW-123456789'],
    ]);
  });

  it('Google Ads alone: gtag for AW- and the number', () => {
    expect(run([{ type: 'google-ads', value: '42' }]).loaded).toEqual([
      'https://www.googletagmanager.com/gtag/js?id=AW-42',
    ]);
  });

  it('Google Tag Manager: its container, announced on the data layer', () => {
    const { loaded, window } = run([{ type: 'google-tag-manager', value: 'GTM-ABC1234' }]);
    expect(loaded).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-ABC1234']);
    expect(window.dataLayer).toEqual([{ 'gtm.start': expect.any(Number), event: 'gtm.js' }]);
  });

  it('AdRoll: ADVID-PIXID split into its two ids, and a page view', () => {
    const { loaded, window } = run([{ type: 'adroll', value: 'ADV123-PIX456' }]);
    expect(loaded).toEqual(['https://s.adroll.com/j/ADV123/roundtrip.js']);
    expect(window).toMatchObject({ adroll_adv_id: 'ADV123', adroll_pix_id: 'PIX456', adroll_version: '2.0' });
    const [[name, args]] = window.adroll as [string, ArrayLike<unknown>][];
    expect([name, Array.from(args)]).toEqual(['track', ['pageView']]);
  });

  it.each([
    [
      'facebook',
      '1234567',
      'https://connect.facebook.net/en_US/fbevents.js',
      'fbq',
      [
        ['init', '1234567'],
        ['track', 'PageView'],
      ],
    ],
    [
      'pinterest',
      '2612345678901',
      'https://s.pinimg.com/ct/core.js',
      'pintrk',
      [['load', '2612345678901'], ['page']],
    ],
    [
      'quora',
      'abc123',
      'https://a.quora.com/qevents.js',
      'qp',
      [
        ['init', 'abc123'],
        ['track', 'ViewContent'],
      ],
    ],
    ['x', 'o1a2b', 'https://static.ads-twitter.com/uwt.js', 'twq', [['config', 'o1a2b']]],
  ])('%s: its base code, with its id', (type, value, script, global, expected) => {
    const { loaded, window } = run([{ type, value }]);
    expect(loaded).toEqual([script]);
    expect(calls((window[global] as { queue: unknown }).queue)).toEqual(expected);
  });

  it('LinkedIn: the partner id, then the insight tag', () => {
    const { loaded, window } = run([{ type: 'linkedin', value: '1234567' }]);
    expect(loaded).toEqual(['https://snap.licdn.com/li.lms-analytics/insight.min.js']);
    expect(window).toMatchObject({
      _linkedin_partner_id: '1234567',
      _linkedin_data_partner_ids: ['1234567'],
    });
  });

  it('Bing: its UET tag, started once bat.js has loaded', () => {
    const { loaded, window } = run([{ type: 'bing', value: '12345678' }]);
    expect(loaded).toEqual(['https://bat.bing.com/bat.js']);
    expect(window.uetq).toEqual([]);
  });
});
