import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { CORNER, logoSquare, roundedCorners, type LogoBox, type QrModules, type QrStyle } from './modules';

const deflated = promisify(deflate);

/** An image's pixels, four bytes (red, green, blue, alpha) each, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A logo as a PNG code draws it: its decoded pixels, inside `box`. */
export interface PngLogo {
  image: RgbaImage;
  box: LogoBox;
}

/** How the modules are drawn: the width asked for, the quiet zone in modules, two colours as six hex digits. */
export interface PngDrawing {
  width: number;
  margin: number;
  dark: string;
  light: string;
  /** Square when absent. */
  style?: QrStyle;
  logo?: PngLogo | null;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * The scale of a module in pixels, as the `qrcode` package draws: the width asked for over the modules and quiet
 * zone (a fraction), or 4 pixels a module when the width is too small for one pixel each.
 */
function scaleOf(modules: number, drawing: PngDrawing): number {
  const whole = modules + drawing.margin * 2;
  return drawing.width >= whole ? drawing.width / whole : 4;
}

/** Where the modules fall on the pixels: the image's width, a module's width and the quiet zone's, in pixels. */
interface Grid {
  width: number;
  scale: number;
  scaledMargin: number;
  rowBytes: number;
}

/** Square modules, one bit a pixel: every pixel row of a module row is the same, so each is built once. */
function squareBits({ size, data }: QrModules, grid: Grid): Buffer {
  const { width, scale, scaledMargin, rowBytes } = grid;
  // The pixel row of each module row, and the light row of the quiet zone; a row starts with filter 0 (none).
  const lightRow = Buffer.alloc(rowBytes);
  const moduleRows = Array.from({ length: size }, (_, moduleRow) => {
    const row = Buffer.alloc(rowBytes);
    for (let x = 0; x < width; x += 1) {
      if (x < scaledMargin || x >= width - scaledMargin) continue;
      const column = Math.floor((x - scaledMargin) / scale);
      if (column < size && data[moduleRow * size + column]) row[1 + (x >> 3)] |= 0x80 >> (x & 7);
    }
    return row;
  });

  const raw = Buffer.alloc(rowBytes * width);
  for (let y = 0; y < width; y += 1) {
    const inside = y >= scaledMargin && y < width - scaledMargin;
    // Rounding may put the last pixel row one past the modules: it is light.
    const row = (inside ? moduleRows[Math.floor((y - scaledMargin) / scale)] : undefined) ?? lightRow;
    row.copy(raw, y * rowBytes);
  }
  return raw;
}

/**
 * Rounded modules, one bit a pixel: the square modules, less the pixels of each free corner (see
 * {@link roundedCorners}) whose centre lies outside the quarter circle of half a module there. Only the corners'
 * pixels are visited: a 2048-pixel code takes a few milliseconds more than a square one.
 */
function roundedBits(modules: QrModules, grid: Grid): Buffer {
  const { size } = modules;
  const { width, scale, scaledMargin, rowBytes } = grid;
  const raw = squareBits(modules, grid);
  // The first pixel of each module column, and of each module row (the image is square), as squareBits places
  // them; the last entry is the first pixel past the modules.
  const spanStart = new Int32Array(size + 1).fill(-1);
  for (let x = 0; x < width; x += 1) {
    if (x < scaledMargin) continue;
    const cell = x < width - scaledMargin ? Math.min(Math.floor((x - scaledMargin) / scale), size) : size;
    if (spanStart[cell] === -1) spanStart[cell] = x;
  }
  if (spanStart[size] === -1) spanStart[size] = width;
  for (let cell = size - 1; cell >= 0; cell -= 1) {
    if (spanStart[cell] === -1) spanStart[cell] = spanStart[cell + 1];
  }
  const within = (position: number, cell: number) => (position + 0.5 - scaledMargin) / scale - cell;

  for (let moduleRow = 0; moduleRow < size; moduleRow += 1) {
    const rounded: { column: number; corners: number }[] = [];
    for (let column = 0; column < size; column += 1) {
      if (!modules.data[moduleRow * size + column]) continue;
      const corners = roundedCorners(modules, moduleRow, column);
      if (corners !== 0) rounded.push({ column, corners });
    }
    if (rounded.length === 0) continue;
    for (let y = spanStart[moduleRow]; y < spanStart[moduleRow + 1]; y += 1) {
      const inRow = Math.min(Math.max(within(y, moduleRow), 0), 1);
      const [left, right] =
        inRow < 0.5 ? [CORNER.topLeft, CORNER.topRight] : [CORNER.bottomLeft, CORNER.bottomRight];
      const rowOffset = (inRow - 0.5) ** 2;
      for (const { column, corners } of rounded) {
        if (!(corners & (left | right))) continue;
        for (let x = spanStart[column]; x < spanStart[column + 1]; x += 1) {
          const inColumn = Math.min(Math.max(within(x, column), 0), 1);
          if (!(corners & (inColumn < 0.5 ? left : right))) continue;
          if ((inColumn - 0.5) ** 2 + rowOffset > 0.25)
            raw[y * rowBytes + 1 + (x >> 3)] &= ~(0x80 >> (x & 7));
        }
      }
    }
  }
  return raw;
}

/** The source pixel of each of `samples` samples across each of `drawn` pixels, scaling `source` pixels to them. */
function samplePositions(source: number, drawn: number, samples: number): Int32Array {
  const positions = new Int32Array(drawn * samples);
  for (let pixel = 0; pixel < drawn; pixel += 1) {
    for (let sample = 0; sample < samples; sample += 1) {
      positions[pixel * samples + sample] = Math.min(
        source - 1,
        Math.floor(((pixel + (sample + 0.5) / samples) * source) / drawn),
      );
    }
  }
  return positions;
}

/**
 * Paints the logo over the light colour into the RGB rows of `raw`, scaled to fit a square of `side` pixels from
 * (`start`, `start`), its proportions kept and centred: each pixel the mean of up to 8 by 8 samples of the logo
 * under it, so that a large logo scaled down does not shimmer.
 */
function paintLogo(
  raw: Buffer,
  stride: number,
  start: number,
  side: number,
  image: RgbaImage,
  light: Buffer,
): void {
  const fit = Math.min(side / image.width, side / image.height);
  const drawnWidth = Math.max(1, Math.round(image.width * fit));
  const drawnHeight = Math.max(1, Math.round(image.height * fit));
  const left = start + Math.floor((side - drawnWidth) / 2);
  const top = start + Math.floor((side - drawnHeight) / 2);
  const samplesX = Math.min(8, Math.max(1, Math.ceil(image.width / drawnWidth)));
  const samplesY = Math.min(8, Math.max(1, Math.ceil(image.height / drawnHeight)));
  const sourceXs = samplePositions(image.width, drawnWidth, samplesX);
  const sourceYs = samplePositions(image.height, drawnHeight, samplesY);
  const full = 255 * samplesX * samplesY;
  const { data } = image;
  for (let y = 0; y < drawnHeight; y += 1) {
    for (let x = 0; x < drawnWidth; x += 1) {
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      for (let sampleY = 0; sampleY < samplesY; sampleY += 1) {
        const rowStart = sourceYs[y * samplesY + sampleY] * image.width;
        for (let sampleX = 0; sampleX < samplesX; sampleX += 1) {
          const source = (rowStart + sourceXs[x * samplesX + sampleX]) * 4;
          const opacity = data[source + 3];
          // Premultiplied, so that transparent pixels lend no colour to their neighbours.
          red += data[source] * opacity;
          green += data[source + 1] * opacity;
          blue += data[source + 2] * opacity;
          alpha += opacity;
        }
      }
      const uncovered = 1 - alpha / full;
      const at = (top + y) * stride + 1 + (left + x) * 3;
      raw[at] = Math.round(red / full + light[0] * uncovered);
      raw[at + 1] = Math.round(green / full + light[1] * uncovered);
      raw[at + 2] = Math.round(blue / full + light[2] * uncovered);
    }
  }
}

/** The bits as RGB pixels of the two colours, with the logo painted over its box. */
function withLogo(bits: Buffer, grid: Grid, drawing: PngDrawing, logo: PngLogo): Buffer {
  const { width, scale, scaledMargin, rowBytes } = grid;
  const light = Buffer.from(drawing.light, 'hex');
  const dark = Buffer.from(drawing.dark, 'hex');
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * width);
  for (let y = 0; y < width; y += 1) {
    const bitsAt = y * rowBytes;
    // Most pixel rows repeat the one above (every row of a square module row does): copied, not drawn again.
    if (y > 0 && bits.compare(bits, bitsAt - rowBytes, bitsAt, bitsAt, bitsAt + rowBytes) === 0) {
      raw.copy(raw, y * stride, (y - 1) * stride, y * stride);
      continue;
    }
    let at = y * stride + 1;
    for (let x = 0; x < width; x += 1, at += 3) {
      const colour = bits[bitsAt + 1 + (x >> 3)] & (0x80 >> (x & 7)) ? dark : light;
      raw[at] = colour[0];
      raw[at + 1] = colour[1];
      raw[at + 2] = colour[2];
    }
  }
  const square = logoSquare(logo.box);
  const start = Math.round(scaledMargin + square.start * scale);
  const side = Math.round(square.side * scale);
  paintLogo(raw, stride, start, side, logo.image, light);
  return raw;
}

/**
 * A QR code as a PNG. Without a logo, an image of two colours: a palette and one bit a pixel, the pixels laid out
 * as the `qrcode` package lays them. An RGBA image of 2048 pixels is 16 MB to fill and compress; this one is
 * 0.5 MB, compressed by zlib on libuv's threads, not the event loop. With a logo, whose colours are its own, eight
 * bits a channel of RGB. The logo's box is expected cleared of modules by the caller.
 */
export async function qrPng(modules: QrModules, drawing: PngDrawing): Promise<Buffer> {
  const scale = scaleOf(modules.size, drawing);
  const width = Math.floor((modules.size + drawing.margin * 2) * scale);
  const grid: Grid = {
    width,
    scale,
    scaledMargin: drawing.margin * scale,
    rowBytes: 1 + Math.ceil(width / 8),
  };
  const bits = drawing.style === 'rounded' ? roundedBits(modules, grid) : squareBits(modules, grid);
  const logo = drawing.logo ?? null;

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  if (logo === null) {
    // Bit depth 1, colour type 3 (palette), compression, filter and interlace methods 0.
    header.set([1, 3, 0, 0, 0], 8);
    const palette = Buffer.from(drawing.light + drawing.dark, 'hex');
    return Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      chunk('PLTE', palette),
      chunk('IDAT', await deflated(bits)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
  // Bit depth 8, colour type 2 (RGB).
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', await deflated(withLogo(bits, grid, drawing, logo))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
