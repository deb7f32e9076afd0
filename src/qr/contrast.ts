/** The contrast a code needs to scan: WCAG's 4.5 to 1, the least for normal text, met by phones' cameras too. */
export const MIN_QR_CONTRAST = 4.5;

/** A colour's relative luminance (WCAG 2.x): its sRGB channels made linear, weighted as the eye weighs them. */
export function relativeLuminance(hex: string): number {
  const [red, green, blue] = [0, 2, 4].map((start) => {
    const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/** The WCAG contrast ratio of two colours given as six hex digits: 1 (the same) to 21 (black and white). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a);
  return (lighter + 0.05) / (darker + 0.05);
}
