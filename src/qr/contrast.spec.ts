import { contrastRatio, MIN_QR_CONTRAST, relativeLuminance } from './contrast';

describe('relativeLuminance', () => {
  it.each([
    ['000000', 0],
    ['ffffff', 1],
    // sRGB's linear segment below 0.04045, and the eye's weights of red, green and blue.
    ['0a0a0a', 0.003035],
    ['ff0000', 0.2126],
    ['00ff00', 0.7152],
    ['0000ff', 0.0722],
    ['808080', 0.215861],
  ])('of %s is %d', (hex, luminance) => {
    expect(relativeLuminance(hex)).toBeCloseTo(luminance, 5);
  });
});

describe('contrastRatio', () => {
  it('is 21 for black and white, 1 for a colour and itself, whichever comes first', () => {
    expect(contrastRatio('000000', 'ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('ffffff', '000000')).toBeCloseTo(21, 10);
    expect(contrastRatio('1a2b3c', '1a2b3c')).toBe(1);
  });

  it.each([
    // The WCAG examples people check tools against.
    ['777777', 'ffffff', 4.48],
    ['767676', 'ffffff', 4.54],
    ['1a2b3c', 'fafafa', 13.83],
    ['ff0000', 'ffffff', 4.0],
  ])('of %s on %s is %d to 1', (dark, light, ratio) => {
    expect(contrastRatio(dark, light)).toBeCloseTo(ratio, 2);
  });

  it('draws the line between #767676 and #777777 on white', () => {
    expect(contrastRatio('767676', 'ffffff')).toBeGreaterThanOrEqual(MIN_QR_CONTRAST);
    expect(contrastRatio('777777', 'ffffff')).toBeLessThan(MIN_QR_CONTRAST);
  });
});
