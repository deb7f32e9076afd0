import { create } from 'qrcode';
import {
  bitOfModules,
  blockOfCodewords,
  codewordsOf,
  errorCorrectionOf,
  LOGO_SHARE_OF_CORRECTION,
  logoBox,
  type LogoEcc,
  type QrSymbol,
} from './logo-area';
import type { LogoBox } from './modules';

/** The eight masks of the standard, by their number: whether the module at (row, column) is flipped. */
const MASKS: ((row: number, column: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];

/** A code of `text` in byte mode, as the renderer reads it, and the mask it was drawn with. */
function symbolOf(text: string, ecc: LogoEcc): { symbol: QrSymbol; mask: number } {
  const code = create([{ data: Buffer.from(text, 'latin1'), mode: 'byte' }], { errorCorrectionLevel: ecc });
  const { size, data, reservedBit } = code.modules;
  return { symbol: { size, data, reserved: reservedBit, version: code.version }, mask: code.maskPattern! };
}

/**
 * The text a code holds, read through the placement and the interleaving under test, as a reader does: the
 * codewords from the unmasked modules, each block's data codewords in turn, then byte mode's header and bytes.
 * A placement or an interleaving off by one module or codeword reads something else.
 */
function readBack(symbol: QrSymbol, mask: number, ecc: LogoEcc): string {
  const total = codewordsOf(symbol);
  const bitOf = bitOfModules(symbol, total);
  const codewords = new Uint8Array(total);
  let placed = 0;
  for (let index = 0; index < bitOf.length; index += 1) {
    const bit = bitOf[index];
    if (bit < 0) continue;
    const dark =
      (symbol.data[index] ? 1 : 0) ^
      (MASKS[mask](Math.floor(index / symbol.size), index % symbol.size) ? 1 : 0);
    codewords[bit >> 3] |= dark << (7 - (bit & 7));
    placed += 1;
  }
  expect(placed).toBe(total * 8);
  const blockOf = blockOfCodewords(total, ecc, symbol.version);
  const { codewords: eccCodewords, blocks } = errorCorrectionOf(ecc, symbol.version);
  const dataCodewords = total - eccCodewords;
  // After the data, each block's error correction codewords take their turn, block by block.
  for (let codeword = dataCodewords; codeword < total; codeword += 1) {
    expect(blockOf[codeword]).toBe((codeword - dataCodewords) % blocks);
  }
  const data: number[] = [];
  for (let block = 0; block < blocks; block += 1) {
    for (let codeword = 0; codeword < dataCodewords; codeword += 1) {
      if (blockOf[codeword] === block) data.push(codewords[codeword]);
    }
  }
  const bits = data.map((byte) => byte.toString(2).padStart(8, '0')).join('');
  expect(bits.slice(0, 4)).toBe('0100');
  const lengthBits = symbol.version < 10 ? 8 : 16;
  const length = parseInt(bits.slice(4, 4 + lengthBits), 2);
  const start = 4 + lengthBits;
  const bytes = Array.from({ length }, (_, at) =>
    parseInt(bits.slice(start + at * 8, start + at * 8 + 8), 2),
  );
  return Buffer.from(bytes).toString('latin1');
}

/** The most codewords a box costs any one block. */
function worstBlockLoss(symbol: QrSymbol, ecc: LogoEcc, box: LogoBox): number {
  const total = codewordsOf(symbol);
  const bitOf = bitOfModules(symbol, total);
  const blockOf = blockOfCodewords(total, ecc, symbol.version);
  const lost = new Set<number>();
  for (let row = box.start; row < box.start + box.modules; row += 1) {
    for (let column = box.start; column < box.start + box.modules; column += 1) {
      const bit = bitOf[row * symbol.size + column];
      if (bit >= 0) lost.add(bit >> 3);
    }
  }
  const perBlock = new Map<number, number>();
  for (const codeword of lost) perBlock.set(blockOf[codeword], (perBlock.get(blockOf[codeword]) ?? 0) + 1);
  return Math.max(0, ...perBlock.values());
}

const TEXTS = [
  'https://sho.rt/Ab3_x-9',
  'http://localhost:3000/abc',
  'https://links.example-company.com/spring-sale-2026-campaign',
  // Versions whose blocks come in two groups, the second's one data codeword longer.
  `https://go.example.org/${'a'.repeat(120)}`,
  `https://go.example.org/${'b'.repeat(400)}`,
];
const CASES = TEXTS.flatMap((text) => (['Q', 'H'] as const).map((ecc) => [text.length, ecc, text] as const));

describe('the codewords a logo area counts', () => {
  it.each(CASES)(
    'are placed and interleaved as the standard does (%i characters at %s): the text reads back',
    (_length, ecc, text) => {
      const { symbol, mask } = symbolOf(text, ecc);
      expect(readBack(symbol, mask, ecc)).toBe(text);
    },
  );
});

describe('logoBox', () => {
  it.each(CASES)(
    'is an odd, centred square clear of the finders, within each block’s share (%i characters at %s)',
    (_length, ecc, text) => {
      const { symbol } = symbolOf(text, ecc);
      const box = logoBox(symbol, ecc)!;
      expect(box.modules % 2).toBe(1);
      expect(box.modules).toBeGreaterThanOrEqual(3);
      expect(box.start * 2 + box.modules).toBe(symbol.size);
      // Rows and columns 0 to 8 (and their mirror) hold the finders, separators, timing and format modules.
      expect(box.start).toBeGreaterThanOrEqual(9);

      const { codewords, blocks } = errorCorrectionOf(ecc, symbol.version);
      const budget = Math.floor(Math.floor(codewords / blocks / 2) * LOGO_SHARE_OF_CORRECTION);
      expect(worstBlockLoss(symbol, ecc, box)).toBeLessThanOrEqual(budget);
      // The next size up costs some block more than its share, or would reach the finders.
      const larger = { start: box.start - 1, modules: box.modules + 2 };
      if (larger.start >= 9) expect(worstBlockLoss(symbol, ecc, larger)).toBeGreaterThan(budget);
    },
  );

  it('grows with the code: a longer URL has room for a larger logo', () => {
    const short = symbolOf('https://sho.rt/Ab3_x-9', 'H').symbol;
    const long = symbolOf(`https://go.example.org/${'a'.repeat(120)}`, 'H').symbol;
    expect(logoBox(long, 'H')!.modules).toBeGreaterThan(logoBox(short, 'H')!.modules);
  });
});
