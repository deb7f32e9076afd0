import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { ValidationFailedException } from '../common/exceptions';
import type { RgbaImage } from './png';
import { checkSvgLogo } from './svg-logo';

/** The media types a logo may have, as its upload's Content-Type names them. */
export const LOGO_TYPES = ['image/png', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** A logo's largest file: the contract's 64 KB. */
export const LOGO_MAX_BYTES = 64 * 1024;

/**
 * A PNG logo's largest width and height: its pixels are decoded for every PNG code drawn with it (4 MB at most),
 * and no code is drawn larger than 2048 pixels, of which a logo takes a third at most.
 */
export const LOGO_MAX_PIXELS = 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A logo as it is kept: its media type, its bytes, and their SHA-256 (which names it in the codes' cache). */
export interface LogoFile {
  contentType: LogoType;
  bytes: Buffer;
  digest: string;
}

function refused(reason: string): ValidationFailedException {
  return ValidationFailedException.of('logo', reason);
}

export function isLogoType(value: string): value is LogoType {
  return (LOGO_TYPES as readonly string[]).includes(value);
}

/** The pixels of a PNG logo, whatever its colour type and depth, as RGBA of eight bits a channel. */
export function decodePngLogo(bytes: Buffer): RgbaImage {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: png.data };
}

/** The width and height a PNG's header declares, read before any of its pixels are inflated. */
function declaredSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 33 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function checkedPng(bytes: Buffer): void {
  if (bytes.length < PNG_SIGNATURE.length || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw refused('The logo must be a PNG file: it does not start with the PNG signature.');
  }
  const size = declaredSize(bytes);
  if (size === null) throw refused('The logo must be a PNG file: its header cannot be read.');
  // Checked before decoding: 64 KB of compressed pixels could declare gigabytes.
  if (size.width > LOGO_MAX_PIXELS || size.height > LOGO_MAX_PIXELS) {
    throw refused(`The logo must not be larger than ${LOGO_MAX_PIXELS} by ${LOGO_MAX_PIXELS} pixels.`);
  }
  try {
    decodePngLogo(bytes);
  } catch {
    throw refused('The logo must be a PNG file: its pixels cannot be decoded.');
  }
}

/** The SVG as it is kept: checked, and with its root in the SVG namespace. */
function checkedSvg(bytes: Buffer): Buffer {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refused('The logo must be an SVG document in UTF-8.');
  }
  const checked = checkSvgLogo(text);
  if ('text' in checked) return checked.text === text ? bytes : Buffer.from(checked.text, 'utf8');
  switch (checked.problem) {
    case 'not-svg':
      throw refused('The logo must be a well-formed SVG document whose root is an svg element.');
    case 'unsafe':
      throw refused(
        'The logo must not hold scripts, event handlers, animations, foreign objects or references outside itself.',
      );
  }
}

/**
 * An uploaded logo, checked: a PNG that decodes, of at most {@link LOGO_MAX_PIXELS} a side, or an SVG that is
 * safe to embed in the codes anyone may open ({@link svgLogoProblem}), kept with its root in the SVG namespace;
 * at most {@link LOGO_MAX_BYTES} either way. A refusal is a 422 on `logo`.
 */
export function checkedLogo(body: unknown, contentType: string): LogoFile {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw refused('The logo field is required: send the image as the body, as image/png or image/svg+xml.');
  }
  if (!isLogoType(contentType)) throw refused('The logo must be image/png or image/svg+xml.');
  if (body.length > LOGO_MAX_BYTES) throw refused('The logo must not be greater than 64 kilobytes.');
  let bytes = body;
  if (contentType === 'image/png') checkedPng(body);
  else bytes = checkedSvg(body);
  return { contentType, bytes, digest: createHash('sha256').update(bytes).digest('hex') };
}
