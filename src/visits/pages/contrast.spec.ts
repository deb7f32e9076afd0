import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * WCAG 2.2 AA contrast of the visitor pages' colours, in both schemes: 4.5:1 for text (1.4.3), 3:1 for field
 * borders, focus rings and the chart's bars against what surrounds them (1.4.11). axe checks the text of the pages
 * it opens; these pairs it cannot see.
 */
const css = readFileSync(join(__dirname, 'templates', 'style.css'), 'utf8');

function palette(block: string): Record<string, string> {
  return Object.fromEntries(
    [...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/g)].map((match) => [match[1], match[2]]),
  );
}

const light = palette(/^:root \{([^}]*)\}/m.exec(css)![1]);
const dark = palette(/@media \(prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}/.exec(css)![1]);

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((index) => {
    const channel = parseInt(hex.slice(index, index + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

const PAIRS: [string, string, number][] = [
  ['text', 'card', 4.5],
  ['text', 'bg', 4.5],
  ['muted', 'card', 4.5],
  ['accent', 'card', 4.5],
  ['on-accent', 'accent', 4.5],
  ['error', 'card', 4.5],
  ['field', 'card', 3],
  ['field', 'input-bg', 3],
  ['focus', 'card', 3],
  ['accent', 'track', 3],
];

describe('colour contrast', () => {
  it('reads the same variables in both schemes', () => {
    expect(Object.keys(dark).sort()).toEqual(Object.keys(light).sort());
    expect(Object.keys(light).length).toBeGreaterThanOrEqual(12);
  });

  it.each([
    ['light', light],
    ['dark', dark],
  ])('meets WCAG 2.2 AA in the %s scheme', (_scheme, colours) => {
    for (const [foreground, background, minimum] of PAIRS) {
      const ratio = contrast(colours[foreground], colours[background]);
      expect({ foreground, background, enough: ratio >= minimum }).toEqual({
        foreground,
        background,
        enough: true,
      });
    }
  });

  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});
