import type { paths } from '../../api/schema';
import type { QrErrorCorrection, QrStyle } from '../../api/types';

/** A QR code's design as the designer holds it: the colours and the quiet zone as typed, the rest as chosen. */
export interface QrDesign {
  fg: string;
  bg: string;
  margin: string;
  ecc: QrErrorCorrection;
  style: QrStyle;
  logo: boolean;
}

/** The API's defaults: black on white, the standard's quiet zone of 4 modules, M, square modules, no logo. */
export const DEFAULT_DESIGN: QrDesign = {
  fg: '#000000',
  bg: '#ffffff',
  margin: '4',
  ecc: 'M',
  style: 'square',
  logo: false,
};

/** The levels the API takes with a logo: the logo hides part of what they correct. */
export const LOGO_ECC_LEVELS: readonly QrErrorCorrection[] = ['Q', 'H'];

/** The design with the logo drawn or not; drawing it starts at H, the most a code can lose and still read. */
export function withLogo(design: QrDesign, logo: boolean): QrDesign {
  return logo ? { ...design, logo, ecc: 'H' } : { ...design, logo };
}

type QrQuery = NonNullable<paths['/api/v1/links/{id}/qr']['get']['parameters']['query']>;

/**
 * The design as the QR route's parameters, every one spelled out. What was typed goes as it is: the API's 422
 * names the field a value is wrong in, in its own words.
 */
export function designQuery(design: QrDesign): QrQuery {
  const margin = design.margin.trim();
  return {
    fg: design.fg.trim(),
    bg: design.bg.trim(),
    margin: margin === '' ? null : Number(margin),
    ecc: design.ecc,
    style: design.style,
    logo: design.logo ? 1 : 0,
  };
}

/** The contrast the API asks of the two colours (WCAG's for normal text): below it, a 422 on `fg`. */
export const MIN_CONTRAST = 4.5;

const HEX_COLOUR = /^#?[0-9a-f]{6}$/i;

/** A colour as the colour picker takes it (`#rrggbb`, lower case), or null for what is not six hex digits. */
export function hexColour(value: string): string | null {
  const trimmed = value.trim();
  return HEX_COLOUR.test(trimmed) ? `#${trimmed.replace(/^#/, '').toLowerCase()}` : null;
}

/** WCAG 2's relative luminance of `#rrggbb`: each channel made linear, weighted as the eye weighs it. */
function luminance(colour: string): number {
  const linear = (at: number) => {
    const channel = parseInt(colour.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(1) + 0.7152 * linear(3) + 0.0722 * linear(5);
}

/**
 * The contrast of two colours as the API measures it, cut (not rounded) to two decimals as its refusal writes it,
 * so that 4.496 reads 4.49 and not a 4.50 the API refuses; null while either is not a colour.
 */
export function contrastOf(first: string, second: string): number | null {
  const [one, two] = [hexColour(first), hexColour(second)];
  if (one === null || two === null) return null;
  const [a, b] = [luminance(one), luminance(two)];
  return Math.floor(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
}

/** A logo's largest file, as the API takes it (413 beyond). */
export const LOGO_MAX_BYTES = 64 * 1024;
/** The media types of the logos the API keeps (415 for any other). */
export const LOGO_TYPES = ['image/png', 'image/svg+xml'] as const;

/** Why a chosen file cannot be a logo, checked before it is sent; null when it may be. */
export function logoFileProblem(file: File): 'type' | 'size' | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'type';
  return file.size > LOGO_MAX_BYTES ? 'size' : null;
}

/** The logo inside a code: where it stands in the code's units, and the image as a data: URL of one of its types. */
export interface QrLogoImage {
  x: number;
  y: number;
  width: number;
  height: number;
  href: string;
}

export interface QrShape {
  viewBox: string;
  /** Square codes keep their edges crisp; rounded ones are left to anti-aliasing. */
  crisp: boolean;
  paths: { d: string; fill: string | undefined; stroke: string | undefined }[];
  logo: QrLogoImage | null;
}

const XLINK = 'http://www.w3.org/1999/xlink';
/** The only sources a logo may be drawn from: the file itself, inline, as one of the two types the API keeps. */
const LOGO_SOURCE = /^data:image\/(?:png|svg\+xml);base64,[A-Za-z0-9+/]+=*$/;

/** The logo of the API's SVG: its box and its data: URL, or null where there is none or it is anything else. */
function logoOf(svg: Element): QrLogoImage | null {
  const image = svg.querySelector('image');
  if (image === null) return null;
  const href = image.getAttributeNS(XLINK, 'href') ?? image.getAttribute('href') ?? '';
  const number = (name: string) => Number(image.getAttribute(name) ?? NaN);
  const box = { x: number('x'), y: number('y'), width: number('width'), height: number('height') };
  if (!LOGO_SOURCE.test(href) || !Object.values(box).every(Number.isFinite)) return null;
  return { ...box, href };
}

/**
 * The drawing of the API's QR SVG, read as data: the outlines and their colours, and the logo's box and data: URL
 * (an image, which runs no script whatever it holds). React draws them; no markup from an answer is put into the
 * page.
 */
export function parseQrSvg(text: string): QrShape | null {
  const document = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = document.documentElement;
  if (svg.nodeName !== 'svg') return null;
  const paths = [...svg.querySelectorAll('path')].map((path) => ({
    d: path.getAttribute('d') ?? '',
    fill: path.getAttribute('fill') ?? undefined,
    stroke: path.getAttribute('stroke') ?? undefined,
  }));
  const viewBox = svg.getAttribute('viewBox');
  if (viewBox === null || paths.length === 0) return null;
  return {
    viewBox,
    crisp: svg.getAttribute('shape-rendering') === 'crispEdges',
    paths,
    logo: logoOf(svg),
  };
}
