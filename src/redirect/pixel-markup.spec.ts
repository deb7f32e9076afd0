import type { PixelResponse } from '../pixels/pixel.mapper';
import { PIXEL_TYPES } from '../pixels/pixel-types';
import { PIXELS_SCRIPT_PATH, pixelMarkup } from './pixel-markup';

function pixel(type: string, value: string, id = 1): PixelResponse {
  return { id, name: `${type} ${id}`, type, value, created_at: '', updated_at: '' };
}

const img = (src: string) => `<img src="${src}" width="1" height="1" alt="" />`;

describe('pixelMarkup', () => {
  it('loads nothing, and allows nothing more, without pixels', () => {
    expect(pixelMarkup([])).toEqual({ html: '', allow: { 'img-src': [] } });
  });

  it.each([
    [
      'facebook',
      '123456789012345',
      'https://www.facebook.com',
      'https://www.facebook.com/tr?id=123456789012345&amp;ev=PageView&amp;noscript=1',
    ],
    [
      'linkedin',
      '1234567',
      'https://px.ads.linkedin.com',
      'https://px.ads.linkedin.com/collect/?pid=1234567&amp;fmt=gif',
    ],
    [
      'pinterest',
      '2612345678901',
      'https://ct.pinterest.com',
      'https://ct.pinterest.com/v3/?tid=2612345678901&amp;event=pagevisit&amp;noscript=1',
    ],
    [
      'quora',
      '0123456789abcdef0123456789abcdef',
      'https://q.quora.com',
      'https://q.quora.com/_/ad/0123456789abcdef0123456789abcdef/pixel?tag=ViewContent&amp;noscript=1',
    ],
    [
      'x',
      'o1a2b',
      'https://analytics.twitter.com',
      'https://analytics.twitter.com/i/adsct?txn_id=o1a2b&amp;p_id=Twitter',
    ],
    ['bing', '12345678', 'https://bat.bing.com', 'https://bat.bing.com/action/0?ti=12345678&amp;Ver=2'],
  ])('%s: one image from its host, no script', (type, value, host, src) => {
    expect(pixelMarkup([pixel(type, value)])).toEqual({ html: img(src), allow: { 'img-src': [host] } });
  });

  it('google-tag-manager: a hidden frame from its host', () => {
    expect(pixelMarkup([pixel('google-tag-manager', 'GTM-ABC1234')])).toEqual({
      html: '<iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC1234" width="0" height="0" title="Google Tag Manager" hidden></iframe>',
      allow: { 'img-src': [], 'frame-src': ['https://www.googletagmanager.com'] },
    });
  });

  it('google-analytics and google-ads: one gtag script for all their ids, started by the service script', () => {
    const { html, allow } = pixelMarkup([
      pixel('google-analytics', 'G-ABC123DEF4', 1),
      pixel('google-ads', 'AW-123456789/conv_label', 2),
    ]);
    expect(html.split('\n')).toEqual([
      '<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123DEF4"></script>',
      `<script src="${PIXELS_SCRIPT_PATH}" data-gtag="G-ABC123DEF4 AW-123456789/conv_label" data-adroll=""></script>`,
    ]);
    expect(allow).toEqual({
      'img-src': ['https:'],
      'script-src': ['https://www.googletagmanager.com', "'self'"],
      'connect-src': ['https:'],
    });
  });

  it('adroll: its script once, started by the service script', () => {
    const { html, allow } = pixelMarkup([
      pixel('adroll', 'ABCDEFGHIJKLMNOPQRSTUV/WXYZABCDEFGHIJKLMN', 1),
      pixel('adroll', 'ZZZZZZZZZZZZZZZZZZZZZZ', 2),
    ]);
    expect(html.split('\n')).toEqual([
      '<script async src="https://s.adroll.com/j/roundtrip.js"></script>',
      `<script src="${PIXELS_SCRIPT_PATH}" data-gtag="" data-adroll="ABCDEFGHIJKLMNOPQRSTUV/WXYZABCDEFGHIJKLMN"></script>`,
    ]);
    expect(allow['script-src']).toEqual(['https://s.adroll.com', "'self'"]);
  });

  it('lists each host once for several pixels of a type', () => {
    const { html, allow } = pixelMarkup([pixel('facebook', '11111', 1), pixel('facebook', '22222', 2)]);
    expect(html.split('\n')).toHaveLength(2);
    expect(allow).toEqual({ 'img-src': ['https://www.facebook.com'] });
  });

  it('URL-encodes and escapes a value, whatever it holds', () => {
    const hostile = `1"><script>alert('x')</script>&a=b`;
    // encodeURIComponent leaves the quote ' as it is: the attribute escapes it.
    const encoded = encodeURIComponent(hostile).replace(/'/g, '&#39;');
    expect(pixelMarkup([pixel('facebook', hostile)]).html).toBe(
      img(`https://www.facebook.com/tr?id=${encoded}&amp;ev=PageView&amp;noscript=1`),
    );
    expect(pixelMarkup([pixel('google-tag-manager', hostile)]).html).toContain(
      `src="https://www.googletagmanager.com/ns.html?id=${encoded}"`,
    );
    const gtag = pixelMarkup([pixel('google-analytics', hostile)]).html;
    expect(gtag).toContain(`src="https://www.googletagmanager.com/gtag/js?id=${encoded}"`);
    expect(gtag).toContain('data-gtag="1&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;a=b"');
    const adroll = pixelMarkup([pixel('adroll', hostile)]).html;
    expect(adroll).toContain(
      'data-adroll="1&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;a=b"',
    );
    for (const html of [gtag, adroll]) expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('knows every pixel type', () => {
    for (const type of PIXEL_TYPES) {
      expect(pixelMarkup([pixel(type, 'ABC1234')]).html).not.toBe('');
    }
  });
});
