/**
 * The pixel types and what each one's value looks like: a tracking id, never markup. The patterns follow the
 * ids each vendor issues, with room for their variants.
 */
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

export const PIXEL_VALUE_PATTERNS: Record<PixelType, { pattern: RegExp; example: string }> = {
  // Advertiser id, optionally with the pixel id: ABCDEFGHIJKLMNOPQRSTUV/WXYZ...
  adroll: { pattern: /^[A-Z0-9]{16,32}(?:\/[A-Z0-9]{16,32})?$/, example: 'ABCDEFGHIJKLMNOPQRSTUV' },
  bing: { pattern: /^\d{4,20}$/, example: '12345678' },
  facebook: { pattern: /^\d{5,20}$/, example: '123456789012345' },
  'google-ads': { pattern: /^AW-\d{5,15}(?:\/[A-Za-z0-9_-]{1,64})?$/, example: 'AW-123456789' },
  'google-analytics': { pattern: /^(?:G-[A-Z0-9]{4,16}|UA-\d{4,12}-\d{1,4})$/, example: 'G-ABC123DEF4' },
  'google-tag-manager': { pattern: /^GTM-[A-Z0-9]{4,12}$/, example: 'GTM-ABC1234' },
  linkedin: { pattern: /^\d{3,20}$/, example: '1234567' },
  pinterest: { pattern: /^\d{5,20}$/, example: '2612345678901' },
  quora: { pattern: /^[a-f0-9]{32}$/, example: '0123456789abcdef0123456789abcdef' },
  x: { pattern: /^[a-z0-9]{4,12}$/, example: 'o1a2b' },
};

export function isPixelType(value: unknown): value is PixelType {
  return typeof value === 'string' && (PIXEL_TYPES as readonly string[]).includes(value);
}

export function isValidPixelValue(type: PixelType, value: string): boolean {
  return PIXEL_VALUE_PATTERNS[type].pattern.test(value);
}
