import type { PixelResponse } from '../../pixels/pixel.mapper';
import type { PixelType } from '../../pixels/pixel-types';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../../common/html';
import type { PageOptions } from './page';

/** Where the service serves the script that starts every vendor's tag, as phpShort's templates do inline. */
export const PIXELS_SCRIPT_PATH = '/assets/pixels.js';

/** The host each vendor's tag loads its script from (see assets/pixels.js). */
const SCRIPT_HOSTS: Record<PixelType, string> = {
  adroll: 'https://s.adroll.com',
  bing: 'https://bat.bing.com',
  facebook: 'https://connect.facebook.net',
  'google-ads': 'https://www.googletagmanager.com',
  'google-analytics': 'https://www.googletagmanager.com',
  'google-tag-manager': 'https://www.googletagmanager.com',
  linkedin: 'https://snap.licdn.com',
  pinterest: 'https://s.pinimg.com',
  quora: 'https://a.quora.com',
  x: 'https://static.ads-twitter.com',
};

const image = (src: string) => `<img src="${escapeHtml(src)}" width="1" height="1" alt="" />`;

/** What each template has for a browser without JavaScript, where its vendor offers something. */
const NO_SCRIPT: Partial<Record<PixelType, (id: string) => string>> = {
  bing: (id) => image(`https://bat.bing.com/action/0?ti=${id}&Ver=2`),
  facebook: (id) => image(`https://www.facebook.com/tr?id=${id}&ev=PageView&noscript=1`),
  'google-tag-manager': (id) =>
    `<iframe src="${escapeHtml(`https://www.googletagmanager.com/ns.html?id=${id}`)}" width="0" height="0" title="Google Tag Manager" hidden></iframe>`,
  linkedin: (id) => image(`https://px.ads.linkedin.com/collect/?pid=${id}&fmt=gif`),
  pinterest: (id) => image(`https://ct.pinterest.com/v3/?event=init&tid=${id}&noscript=1`),
  quora: (id) => image(`https://q.quora.com/_/ad/${id}/pixel?tag=ViewContent&noscript=1`),
  x: (id) => image(`https://analytics.twitter.com/i/adsct?txn_id=${id}&p_id=Twitter`),
};

/**
 * The markup that loads a link's pixels as phpShort's templates do (each vendor's tag, and its no-script image or
 * frame), and the sources its Content-Security-Policy must allow. The tags are started by the service's own
 * script from the pixels in a data attribute, so that the policy stays free of inline scripts.
 */
export function pixelMarkup(pixels: PixelResponse[]): {
  html: string;
  allow: NonNullable<PageOptions['allow']>;
} {
  if (pixels.length === 0) return { html: '', allow: {} };
  const tags = pixels.map((pixel) => ({ type: pixel.type as PixelType, value: pixel.value }));
  const fallbacks = tags
    .map(({ type, value }) => NO_SCRIPT[type]?.(encodeURIComponent(value)))
    .filter((markup): markup is string => markup !== undefined);
  const parts = [
    `<script src="${PIXELS_SCRIPT_PATH}" data-pixels="${escapeHtml(JSON.stringify(tags))}"></script>`,
  ];
  if (fallbacks.length > 0) parts.push(`<noscript>${fallbacks.join('')}</noscript>`);
  const allow: NonNullable<PageOptions['allow']> = {
    'script-src': ["'self'", ...new Set(tags.map(({ type }) => SCRIPT_HOSTS[type]))],
    // The vendors' scripts report back to hosts of their own, with images and requests.
    'img-src': ['https:'],
    'connect-src': ['https:'],
  };
  if (tags.some(({ type }) => type === 'google-tag-manager')) {
    allow['frame-src'] = ['https://www.googletagmanager.com'];
  }
  return { html: parts.join('\n'), allow };
}

/** The script the pixels page forwards with, served at {@link PIXELS_SCRIPT_PATH}. */
export const PIXELS_SCRIPT = readFileSync(join(__dirname, 'assets', 'pixels.js'), 'utf8');
