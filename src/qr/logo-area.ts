import type { LogoBox, QrModules } from './modules';

/** The error correction levels a code with a logo may have: those that can lose a quarter of it and more. */
export type LogoEcc = 'Q' | 'H';

/**
 * Per version (index 0 is version 1): the Reed-Solomon blocks and the error correction codewords of all of them,
 * for levels Q and H (ISO/IEC 18004, table 9).
 */
const EC_TABLE: Record<LogoEcc, { blocks: readonly number[]; codewords: readonly number[] }> = {
  Q: {
    blocks: [
      1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38,
      40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
    ],
    codewords: [
      13, 22, 36, 52, 72, 96, 108, 132, 160, 192, 224, 260, 288, 320, 360, 408, 448, 504, 546, 600, 644, 690,
      750, 810, 870, 952, 1020, 1050, 1140, 1200, 1290, 1350, 1440, 1530, 1590, 1680, 1770, 1860, 1950, 2040,
    ],
  },
  H: {
    blocks: [
      1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42,
      45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
    ],
    codewords: [
      17, 28, 44, 64, 88, 112, 130, 156, 192, 224, 264, 308, 352, 384, 432, 480, 532, 588, 650, 700, 750, 816,
      900, 960, 1050, 1110, 1200, 1260, 1350, 1440, 1530, 1620, 1710, 1800, 1890, 1980, 2100, 2220, 2310,
      2430,
    ],
  },
};

/**
 * The share of each block's correctable codewords a logo may take: the rest is left for what a printed code meets
 * (a crease, a glare, a smudge), so that a code with a logo stays as robust as one at level M without.
 */
export const LOGO_SHARE_OF_CORRECTION = 0.5;

/** The modules of a code with the ones that are not data (finders, timing, alignment, format): `reserved`. */
export interface QrSymbol extends QrModules {
  reserved: Uint8Array;
  version: number;
}

/**
 * The bit of each module in the order the standard places them (two columns at a time, upwards then downwards,
 * from the right, skipping the vertical timing pattern), the first codeword's most significant bit first: its
 * codeword is the bit over 8. -1 for a function module or a remainder bit.
 */
export function bitOfModules(symbol: QrSymbol, totalCodewords: number): Int32Array {
  const { size, reserved } = symbol;
  const bitOf = new Int32Array(size * size).fill(-1);
  let bit = 0;
  let upwards = true;
  for (let right = size - 1; right > 0; right -= 2) {
    if (right === 6) right -= 1;
    for (let step = 0; step < size; step += 1) {
      const row = upwards ? size - 1 - step : step;
      for (const column of [right, right - 1]) {
        const index = row * size + column;
        if (reserved[index]) continue;
        if (bit < totalCodewords * 8) bitOf[index] = bit;
        bit += 1;
      }
    }
    upwards = !upwards;
  }
  return bitOf;
}

/** The error correction codewords of a code (all its blocks together) and its blocks, at level `ecc`. */
export function errorCorrectionOf(ecc: LogoEcc, version: number): { codewords: number; blocks: number } {
  return { codewords: EC_TABLE[ecc].codewords[version - 1], blocks: EC_TABLE[ecc].blocks[version - 1] };
}

/**
 * The block of each codeword as the standard interleaves them: the first data codeword of every block, then the
 * second, and so on (the longer blocks of the second group last), then the error correction codewords alike.
 */
export function blockOfCodewords(totalCodewords: number, ecc: LogoEcc, version: number): Int32Array {
  const { codewords, blocks } = errorCorrectionOf(ecc, version);
  const dataCodewords = totalCodewords - codewords;
  const shortBlocks = blocks - (totalCodewords % blocks);
  const shortData = Math.floor(dataCodewords / blocks);
  const eccPerBlock = Math.floor(totalCodewords / blocks) - shortData;
  const blockOf = new Int32Array(totalCodewords);
  let codeword = 0;
  for (let index = 0; index <= shortData; index += 1) {
    for (let block = 0; block < blocks; block += 1) {
      if (index < shortData || block >= shortBlocks) blockOf[codeword++] = block;
    }
  }
  for (let index = 0; index < eccPerBlock; index += 1) {
    for (let block = 0; block < blocks; block += 1) blockOf[codeword++] = block;
  }
  return blockOf;
}

/** The codewords a symbol holds: its data modules in whole bytes (the rest, up to 7, are remainder bits). */
export function codewordsOf(symbol: QrSymbol): number {
  return Math.floor(symbol.reserved.reduce((free, used) => (used ? free : free + 1), 0) / 8);
}

/**
 * The largest square in the middle of the code that a logo may cover: an odd number of modules (so that it is
 * centred on the middle module), away from the finders, timing and format modules, and damaging in no block more
 * codewords than {@link LOGO_SHARE_OF_CORRECTION} of what that block can correct. Covered modules are counted as
 * lost whatever their colour. Null when not even a 3 by 3 square fits (a version 1 code's middle is too small).
 */
export function logoBox(symbol: QrSymbol, ecc: LogoEcc): LogoBox | null {
  const { size, version } = symbol;
  const totalCodewords = codewordsOf(symbol);
  const bitOf = bitOfModules(symbol, totalCodewords);
  const blockOf = blockOfCodewords(totalCodewords, ecc, version);
  const { codewords, blocks } = errorCorrectionOf(ecc, version);
  const eccPerBlock = codewords / blocks;
  const budget = Math.floor(Math.floor(eccPerBlock / 2) * LOGO_SHARE_OF_CORRECTION);

  // The finders and their separators take 8 modules from each corner, the format and version modules a ninth row.
  for (let modules = size - 18 - ((size - 18) % 2 === 0 ? 1 : 0); modules >= 3; modules -= 2) {
    const start = (size - modules) / 2;
    const lost = new Set<number>();
    for (let row = start; row < start + modules; row += 1) {
      for (let column = start; column < start + modules; column += 1) {
        const bit = bitOf[row * size + column];
        if (bit >= 0) lost.add(bit >> 3);
      }
    }
    const lostPerBlock = new Int32Array(blocks);
    for (const codeword of lost) lostPerBlock[blockOf[codeword]] += 1;
    if (lostPerBlock.every((count) => count <= budget)) return { start, modules };
  }
  return null;
}
