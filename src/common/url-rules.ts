/** The URL rule shared by every URL a client gives: link targets, expiry URLs, domain pages. */

export const MAX_URL_LENGTH = 2048;

/** Schemes that run code or read local files in a browser: never accepted, whatever else is allowed. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:']);
const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

export type UrlProblem = 'format' | 'scheme' | 'length';

/** The schemes a URL may have where a field asks for one of them: every web URL, or https alone. */
export type UrlSchemes = 'web' | 'https';

/** `value` parsed, or what keeps it from being a URL a browser is handed: its length, a control character, its form. */
function parsedUrl(value: string): URL | UrlProblem {
  if (value.length > MAX_URL_LENGTH) return 'length';
  // Control characters and spaces have no place in a URL we hand back to browsers.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(value)) return 'format';
  try {
    return new URL(value);
  } catch {
    return 'format';
  }
}

/** Null when `value` is an acceptable absolute http(s) URL (https alone, if told), else what is wrong with it. */
export function urlProblem(value: string, schemes: UrlSchemes = 'web'): UrlProblem | null {
  const url = parsedUrl(value);
  if (typeof url === 'string') return url;
  if (FORBIDDEN_SCHEMES.has(url.protocol) || !ALLOWED_SCHEMES.has(url.protocol)) return 'scheme';
  if (schemes === 'https' && url.protocol !== 'https:') return 'scheme';
  if (url.hostname === '') return 'format';
  return null;
}

/**
 * Null when `value` is a link into an app (`myapp://open/item/7`, any scheme of its own) or an https URL, else what
 * is wrong with it: never a scheme that runs code or reads files, nor plain http.
 */
export function appUrlProblem(value: string): UrlProblem | null {
  const url = parsedUrl(value);
  if (typeof url === 'string') return url;
  if (FORBIDDEN_SCHEMES.has(url.protocol) || APP_REFUSED_SCHEMES.has(url.protocol)) return 'scheme';
  if (url.protocol === 'https:' && url.hostname === '') return 'format';
  return null;
}

/** Schemes an app link may not have beyond those never accepted: plain http, and a browser's own pages. */
const APP_REFUSED_SCHEMES = new Set(['http:', 'blob:', 'about:', 'ftp:', 'ws:', 'wss:']);

/**
 * The WHATWG serialisation of an acceptable URL, which every browser reads the same way: `https:a.example` would
 * otherwise reach a Location header as a path relative to the short domain. An origin written without its root
 * slash keeps that form, which no reader can take for anything else. Other values are returned as they are, for
 * {@link urlProblem} to name what is wrong.
 */
export function canonicalUrl(value: string): string {
  if (urlProblem(value) !== null) return value;
  const href = new URL(value).href;
  return href === `${value}/` ? value : href;
}

/**
 * A URL as a Location header must carry it: in its WHATWG form, ASCII only, so that no browser reads it against
 * the short domain (`https:a.example`, from before URLs were stored that way) and non-ASCII hosts go out in
 * punycode. An origin written without its root slash keeps that form; what is not a URL is percent-encoded.
 */
export function locationUrl(url: string): string {
  try {
    const href = new URL(url).href;
    return href === `${url}/` ? url : href;
  } catch {
    return encodeURI(url);
  }
}

/** An http(s) address, or null. */
export function webUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The host of an http(s) address, or null. */
export function hostOf(value: string): string | null {
  return webUrl(value)?.host ?? null;
}
