import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { create, toString } from 'qrcode';
import { ValidationFailedException } from '../common/exceptions';
import { createValidationPipe } from '../common/validation.pipe';
import { ImageCache } from './image-cache';
import { qrPng } from './png';
import { QrQueryDto, type QrFormat } from './qr-query.dto';

/** The largest code drawn for anyone: a quarter of the API's pixels, and plenty for a screen (print takes SVG). */
export const PUBLIC_QR_MAX_SIZE = 1024;
const DEFAULT_SIZE = 256;
const DEFAULT_MARGIN = 4;
/** Drawn codes kept in memory: a PNG of 1024 pixels is about 10 KB, an SVG 5 to 20 KB. */
const CACHE_BYTES = 16 * 1024 * 1024;

export interface QrImage {
  contentType: string;
  body: Buffer;
  bytes: number;
}

/** Everything that changes the image: the text and every parameter, defaults filled in. */
interface Drawing {
  format: QrFormat;
  width: number;
  margin: number;
  dark: string;
  light: string;
}

function drawingOf(query: QrQueryDto): Drawing {
  return {
    format: query.format ?? 'svg',
    width: query.size ?? DEFAULT_SIZE,
    margin: query.margin ?? DEFAULT_MARGIN,
    dark: query.color ?? '000000',
    light: query.background ?? 'ffffff',
  };
}

/** The QR code of `text`, with error correction M (15% of the code). */
async function draw(text: string, drawing: Drawing): Promise<QrImage> {
  const errorCorrectionLevel = 'M';
  if (drawing.format === 'png') {
    const body = await qrPng(create(text, { errorCorrectionLevel }).modules, drawing);
    return { contentType: 'image/png', body, bytes: body.length };
  }
  const svg = await toString(text, {
    type: 'svg',
    errorCorrectionLevel,
    width: drawing.width,
    margin: drawing.margin,
    color: { dark: `#${drawing.dark}ff`, light: `#${drawing.light}ff` },
  });
  const body = Buffer.from(svg, 'utf8');
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
 * its text and every parameter, so a short URL that changes is a new key and never an old image; the same code
 * asked for again, or while it is drawn, costs no drawing.
 */
@Injectable()
export class QrCodes {
  private readonly cache = new ImageCache<QrImage>(CACHE_BYTES);

  image(text: string, query: QrQueryDto): Promise<QrImage> {
    const drawing = drawingOf(query);
    const key = [drawing.format, drawing.width, drawing.margin, drawing.dark, drawing.light, text].join('|');
    return this.cache.get(key, () => draw(text, drawing));
  }

  /** Answers with the QR code of `text`; the image may be cached by the client for a while, not by shared caches. */
  async send(response: Response, text: string, query: QrQueryDto): Promise<void> {
    const image = await this.image(text, query);
    response
      .status(200)
      .set({ 'Content-Type': image.contentType, 'Cache-Control': 'private, max-age=300' })
      .send(image.body);
  }
}
