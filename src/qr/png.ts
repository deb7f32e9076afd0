import { promisify } from 'node:util';
import { deflate } from 'node:zlib';

const deflated = promisify(deflate);

/** The modules of a QR code: `size` rows of `size`, row by row, non-zero for a dark module. */
export interface QrModules {
  size: number;
  data: Uint8Array;
}

/** How the modules are drawn: the width asked for, the quiet zone in modules, two colours as six hex digits. */
export interface PngDrawing {
  width: number;
  margin: number;
  dark: string;
  light: string;
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

/**
 * A QR code as a PNG of two colours: a palette and one bit a pixel, the pixels laid out as the `qrcode` package
 * lays them. An RGBA image of 2048 pixels is 16 MB to fill and compress; this one is 0.5 MB, built row by row
 * (every pixel row of a module row is the same), and compressed by zlib on libuv's threads, not the event loop.
 */
export async function qrPng(modules: QrModules, drawing: PngDrawing): Promise<Buffer> {
  const { size, data } = modules;
  const scale = scaleOf(size, drawing);
  const width = Math.floor((size + drawing.margin * 2) * scale);
  const scaledMargin = drawing.margin * scale;
  const rowBytes = 1 + Math.ceil(width / 8);

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

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  // Bit depth 1, colour type 3 (palette), compression, filter and interlace methods 0.
  header.set([1, 3, 0, 0, 0], 8);
  const palette = Buffer.from(drawing.light + drawing.dark, 'hex');
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', await deflated(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
