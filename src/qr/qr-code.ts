import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { create } from 'qrcode';
import { ValidationFailedException } from '../common/exceptions';
import { createValidationPipe } from '../common/validation.pipe';
import { ImageCache } from './image-cache';
import { logoBox, type LogoEcc } from './logo-area';
import { decodePngLogo, type LogoFile } from './logo-file';
import { withoutBox, type LogoBox, type QrStyle } from './modules';
import { qrPng, type RgbaImage } from './png';
import { QrLogos, type ChosenLogo } from './qr-logos.service';
import {
  LOGO_ECC_REFUSAL,
  qrColours,
  QR_LOGO_ECC_LEVELS,
  QrQueryDto,
  type QrEcc,
  type QrFormat,
} from './qr-query.dto';
import { qrSvg } from './svg';

/** The largest code drawn for anyone: a quarter of the API's pixels, and plenty for a screen (print takes SVG). */
export const PUBLIC_QR_MAX_SIZE = 1024;
const DEFAULT_SIZE = 256;
const DEFAULT_MARGIN = 4;
/** Without a logo, M: a printed code still reads with 15% of it damaged. With one, H: the logo takes part of it. */
const DEFAULT_ECC: QrEcc = 'M';
const DEFAULT_LOGO_ECC: LogoEcc = 'H';
/** Drawn codes kept in memory: a PNG of 1024 pixels is about 10 KB, an SVG 5 to 20 KB. */
const CACHE_BYTES = 16 * 1024 * 1024;
/**
 * Decoded PNG logos kept in memory, by digest: a logo of 1024 pixels a side is 4 MB of pixels, and decoding it
 * takes the event loop 150 ms or more, once per logo rather than once per size and colour of its codes.
 */
const DECODED_LOGO_BYTES = 16 * 1024 * 1024;

export interface QrImage {
  contentType: string;
  body: Buffer;
  bytes: number;
}

/** Everything that changes the image but the text and the logo: every parameter, defaults filled in. */
interface Drawing {
  format: QrFormat;
  width: number;
  margin: number;
  dark: string;
  light: string;
  ecc: QrEcc;
  style: QrStyle;
}

/** What a code is of: the short URL it holds, and the link whose logo (or its workspace's) `logo=1` draws. */
export interface QrSubject {
  text: string;
  linkId: number;
}

function drawingOf(query: QrQueryDto): Drawing {
  return {
    format: query.format ?? 'svg',
    width: query.size ?? DEFAULT_SIZE,
    margin: query.margin ?? DEFAULT_MARGIN,
    ...qrColours(query),
    ecc: query.ecc ?? (query.logo === true ? DEFAULT_LOGO_ECC : DEFAULT_ECC),
    style: query.style ?? 'square',
  };
}

function logoRefused(reason: string): ValidationFailedException {
  return ValidationFailedException.of('logo', reason);
}

function isLogoEcc(ecc: QrEcc): ecc is LogoEcc {
  return QR_LOGO_ECC_LEVELS.includes(ecc);
}

/** The middle square a logo may cover in this code; a level that cannot spare it, or a code too small, is refused. */
function boxFor(symbol: ReturnType<typeof create>, ecc: QrEcc): LogoBox {
  // The query's validation refuses these first; drawing never guesses a level the caller did not choose.
  if (!isLogoEcc(ecc)) throw ValidationFailedException.of('ecc', LOGO_ECC_REFUSAL);
  const { size, data, reservedBit } = symbol.modules;
  const box = logoBox({ size, data, reserved: reservedBit, version: symbol.version }, ecc);
  if (box === null) throw logoRefused('The code is too small to hold a logo and still read.');
  return box;
}

/** A logo to draw: its file, and for a PNG code its pixels. */
interface DrawnLogo {
  file: LogoFile;
  pixels: RgbaImage | null;
}

/** The QR code of `text` as the drawing says, with the logo (already checked against the format) when given. */
async function draw(text: string, drawing: Drawing, logo: DrawnLogo | null): Promise<QrImage> {
  const symbol = create(text, { errorCorrectionLevel: drawing.ecc });
  const box = logo === null ? null : boxFor(symbol, drawing.ecc);
  const { size, data, reservedBit } = symbol.modules;
  const drawn = { size, data, reserved: reservedBit };
  const modules = box === null ? drawn : withoutBox(drawn, box);
  if (drawing.format === 'png') {
    const pngLogo = logo?.pixels == null || box === null ? null : { image: logo.pixels, box };
    const body = await qrPng(modules, { ...drawing, logo: pngLogo });
    return { contentType: 'image/png', body, bytes: body.length };
  }
  const svgLogo = logo === null || box === null ? null : { ...logo.file, box };
  const body = Buffer.from(qrSvg(modules, { ...drawing, logo: svgLogo }), 'utf8');
  return { contentType: 'image/svg+xml; charset=utf-8', body, bytes: body.length };
}

const validation = createValidationPipe();

/**
 * The parameters of a code drawn for anyone (`GET /{alias}/qr`): as the API's, but at most
 * {@link PUBLIC_QR_MAX_SIZE} pixels. A refusal is the contract's 422 naming the field.
 */
export async function publicQrQuery(query: unknown): Promise<QrQueryDto> {
  const parsed = (await validation.transform(query, { type: 'query', metatype: QrQueryDto })) as QrQueryDto;
  if ((parsed.size ?? DEFAULT_SIZE) > PUBLIC_QR_MAX_SIZE) {
    throw ValidationFailedException.of(
      'size',
      `The size field must not be greater than ${PUBLIC_QR_MAX_SIZE}.`,
    );
  }
  return parsed;
}

/**
 * QR codes as the API and visitors ask for them. A code is drawn once and kept (within a budget of memory) under
 * its text, every parameter and its logo's digest, so a short URL or a logo that changes is a new key and never an
 * old image; the same code asked for again, or while it is drawn, costs no drawing.
 */
@Injectable()
export class QrCodes {
  private readonly cache = new ImageCache<QrImage>(CACHE_BYTES);
  private readonly decodedLogos = new ImageCache<{ pixels: RgbaImage; bytes: number }>(DECODED_LOGO_BYTES);

  constructor(private readonly logos: QrLogos) {}

  /** The logo `logo=1` draws for the link, refused with a 422 on `logo` where there is none or it cannot be drawn. */
  private async chosenLogo(linkId: number, drawing: Drawing): Promise<ChosenLogo> {
    const chosen = await this.logos.forLink(linkId);
    if (chosen === null) {
      throw logoRefused(
        'There is no logo to draw: upload one for the link or for the workspace first, or leave logo out.',
      );
    }
    // Drawing an SVG into pixels needs a renderer this service does not carry.
    if (drawing.format === 'png' && chosen.contentType === 'image/svg+xml') {
      throw logoRefused('An SVG logo is drawn in SVG codes only: ask for format=svg, or upload a PNG logo.');
    }
    return chosen;
  }

  async image(subject: QrSubject, query: QrQueryDto): Promise<QrImage> {
    const drawing = drawingOf(query);
    const chosen = query.logo === true ? await this.chosenLogo(subject.linkId, drawing) : null;
    const key = [
      drawing.format,
      drawing.width,
      drawing.margin,
      drawing.dark,
      drawing.light,
      drawing.ecc,
      drawing.style,
      chosen?.digest ?? '',
      subject.text,
    ].join('|');
    return this.cache.get(key, async () =>
      draw(subject.text, drawing, chosen === null ? null : await this.logoToDraw(chosen, drawing)),
    );
  }

  /** The chosen logo's file as it is now, and its pixels for a PNG code (decoded once per logo). */
  private async logoToDraw(chosen: ChosenLogo, drawing: Drawing): Promise<DrawnLogo> {
    const file = await this.logos.file(chosen);
    if (file === null) throw logoRefused('The logo was removed while the code was drawn.');
    if (drawing.format !== 'png') return { file, pixels: null };
    const decoded = await this.decodedLogos.get(file.digest, () => {
      const pixels = decodePngLogo(file.bytes);
      return Promise.resolve({ pixels, bytes: pixels.data.length });
    });
    return { file, pixels: decoded.pixels };
  }

  /** Answers with the QR code; the image may be cached by the client for a while, not by shared caches. */
  async send(response: Response, subject: QrSubject, query: QrQueryDto): Promise<void> {
    const image = await this.image(subject, query);
    response
      .status(200)
      .set({ 'Content-Type': image.contentType, 'Cache-Control': 'private, max-age=300' })
      .send(image.body);
  }
}
