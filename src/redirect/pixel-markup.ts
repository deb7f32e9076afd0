import type { PixelResponse } from '../pixels/pixel.mapper';
import type { PixelType } from '../pixels/pixel-types';
import { escapeHtml } from '../common/html';
import type { PageOptions } from './pages';

/** Where the service serves the starter of script-based pixels. */
export const PIXELS_SCRIPT_PATH = '/assets/pixels.js';

const image = (src: string) => `<img src="${escapeHtml(src)}" width="1" height="1" alt="" />`;

/** The no-script form of each vendor's pixel: one image request, where the vendor offers one. */
const IMAGE_PIXELS: Partial<Record<PixelType, (id: string) => string>> = {
  facebook: (id) => `https://www.facebook.com/tr?id=${encodeURIComponent(id)}&ev=PageView&noscript=1`,
  linkedin: (id) => `https://px.ads.linkedin.com/collect/?pid=${encodeURIComponent(id)}&fmt=gif`,
  pinterest: (id) => `https://ct.pinterest.com/v3/?tid=${encodeURIComponent(id)}&event=pagevisit&noscript=1`,
  quora: (id) => `https://q.quora.com/_/ad/${encodeURIComponent(id)}/pixel?tag=ViewContent&noscript=1`,
  x: (id) => `https://analytics.twitter.com/i/adsct?txn_id=${encodeURIComponent(id)}&p_id=Twitter`,
  bing: (id) => `https://bat.bing.com/action/0?ti=${encodeURIComponent(id)}&Ver=2`,
};

const IMAGE_HOSTS: Partial<Record<PixelType, string>> = {
  facebook: 'https://www.facebook.com',
  linkedin: 'https://px.ads.linkedin.com',
  pinterest: 'https://ct.pinterest.com',
  quora: 'https://q.quora.com',
  x: 'https://analytics.twitter.com',
  bing: 'https://bat.bing.com',
};

/** The markup that loads a link's pixels, and the sources its Content-Security-Policy must allow. */
export function pixelMarkup(pixels: PixelResponse[]): {
  html: string;
  allow: NonNullable<PageOptions['allow']>;
} {
  const parts: string[] = [];
  const images = new Set<string>();
  const scripts = new Set<string>();
  const frames = new Set<string>();
  const gtagIds: string[] = [];
  let adroll: string | null = null;

  for (const pixel of pixels) {
    const type = pixel.type as PixelType;
    const imageUrl = IMAGE_PIXELS[type];
    if (imageUrl !== undefined) {
      parts.push(image(imageUrl(pixel.value)));
      images.add(IMAGE_HOSTS[type]!);
    } else if (type === 'google-tag-manager') {
      const src = `https://www.googletagmanager.com/ns.html?id=${encodeURIComponent(pixel.value)}`;
      parts.push(
        `<iframe src="${escapeHtml(src)}" width="0" height="0" title="Google Tag Manager" hidden></iframe>`,
      );
      frames.add('https://www.googletagmanager.com');
    } else if (type === 'google-analytics' || type === 'google-ads') {
      if (gtagIds.length === 0) {
        const src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(pixel.value)}`;
        parts.push(`<script async src="${escapeHtml(src)}"></script>`);
      }
      gtagIds.push(pixel.value);
      scripts.add('https://www.googletagmanager.com');
    } else if (type === 'adroll' && adroll === null) {
      adroll = pixel.value;
      parts.push('<script async src="https://s.adroll.com/j/roundtrip.js"></script>');
      scripts.add('https://s.adroll.com');
    }
  }
  if (gtagIds.length > 0 || adroll !== null) {
    parts.push(
      `<script src="${PIXELS_SCRIPT_PATH}" data-gtag="${escapeHtml(gtagIds.join(' '))}" data-adroll="${escapeHtml(adroll ?? '')}"></script>`,
    );
    scripts.add("'self'");
  }
  const allow: NonNullable<PageOptions['allow']> = { 'img-src': [...images] };
  if (scripts.size > 0) {
    allow['script-src'] = [...scripts];
    // The vendors' scripts report back to their own hosts.
    allow['connect-src'] = ['https:'];
    allow['img-src'] = [...images, 'https:'];
  }
  if (frames.size > 0) allow['frame-src'] = [...frames];
  return { html: parts.join('\n'), allow };
}
