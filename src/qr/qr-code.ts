import type { Response } from 'express';
import { toBuffer, toString } from 'qrcode';
import type { QrQueryDto } from './qr-query.dto';

export interface QrImage {
  contentType: string;
  body: Buffer | string;
}

/** The QR code of `text`, drawn as `query` asks (SVG by default), with error correction M (15% of the code). */
export async function qrImage(text: string, query: QrQueryDto): Promise<QrImage> {
  const options = {
    errorCorrectionLevel: 'M' as const,
    width: query.size ?? 256,
    margin: query.margin ?? 4,
    color: { dark: `#${query.color ?? '000000'}ff`, light: `#${query.background ?? 'ffffff'}ff` },
  };
  if (query.format === 'png') {
    return { contentType: 'image/png', body: await toBuffer(text, { ...options, type: 'png' }) };
  }
  return { contentType: 'image/svg+xml', body: await toString(text, { ...options, type: 'svg' }) };
}

/** Answers with the QR code of `text`; the image may be cached by the client for a while, not by shared caches. */
export async function sendQr(response: Response, text: string, query: QrQueryDto): Promise<void> {
  const image = await qrImage(text, query);
  response
    .status(200)
    .set({ 'Content-Type': image.contentType, 'Cache-Control': 'private, max-age=300' })
    .send(image.body);
}
