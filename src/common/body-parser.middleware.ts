import {
  BadRequestException,
  HttpException,
  HttpStatus,
  Injectable,
  type NestMiddleware,
} from '@nestjs/common';
import { json, urlencoded } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';

/** Large enough for a link with 100 targets of 2048-character URLs. */
export const BODY_LIMIT = '1mb';

type Parser = (request: Request, response: Response, next: (error?: unknown) => void) => void;

const parsers: Parser[] = [
  json({ limit: BODY_LIMIT }),
  // Bracket notation (targets[0][key]) through qs; up to 1000 fields and arrays of up to 1000 entries.
  urlencoded({ extended: true, limit: BODY_LIMIT, parameterLimit: 1000 }),
];

/**
 * Parses JSON and form bodies inside Nest, so that a malformed or oversized body reaches the exception filter
 * and gets the contract's envelope (413, 400) instead of Express's HTML error page.
 */
@Injectable()
export class BodyParserMiddleware implements NestMiddleware {
  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    for (const parser of parsers) {
      await new Promise<void>((resolve, reject) => {
        parser(request, response, (error?: unknown) =>
          error === undefined ? resolve() : reject(toHttp(error)),
        );
      });
    }
    next();
  }
}

function toHttp(error: unknown): HttpException {
  const status = (error as { status?: unknown }).status;
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return new HttpException('Payload too large.', status);
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE)
    return new HttpException('Unsupported media type.', status);
  return new BadRequestException('Bad request.');
}
