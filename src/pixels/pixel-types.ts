/** The pixel types, as phpShort names them. */
export const PIXEL_TYPES = [
  'adroll',
  'bing',
  'facebook',
  'google-ads',
  'google-analytics',
  'google-tag-manager',
  'linkedin',
  'pinterest',
  'quora',
  'x',
] as const;

export type PixelType = (typeof PIXEL_TYPES)[number];

export function isPixelType(value: unknown): value is PixelType {
  return typeof value === 'string' && (PIXEL_TYPES as readonly string[]).includes(value);
}

/** Laravel's `alpha_dash`, which phpShort applies to every pixel value: letters, digits, `-` and `_`. */
const ALPHA_DASH = /^[\p{L}\p{M}\p{N}_-]+$/u;

/**
 * Why phpShort would refuse a pixel value, or null: a tracking id is letters, digits, `-` and `_` (never markup),
 * and an AdRoll value joins its two ids, `ADVID-PIXID`. Each template writes the value as its vendor wants it
 * (Google Ads: `AW-` and the bare number).
 */
export function pixelValueError(type: PixelType, value: string): string | null {
  if (!ALPHA_DASH.test(value)) {
    return 'The value field must only contain letters, numbers, dashes, and underscores.';
  }
  // phpShort's own rule: a dash, and not in first place.
  if (type === 'adroll' && value.indexOf('-') < 1) return 'The value must be in ADVID-PIXID format.';
  return null;
}
