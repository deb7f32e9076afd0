import {
  BadRequestException,
  HttpException,
  HttpStatus,
  Injectable,
  type NestMiddleware,
} from '@nestjs/common';
import { json, text, urlencoded } from 'body-parser';
import type { NextFunction, Request, Response } from 'express';

/** Large enough for a link with 100 targets of 2048-character URLs. */
export const BODY_LIMIT = '1mb';

/** Deeper than any body of this API (a link's targets are three levels down); past it, validation would recurse. */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the JSON text nests arrays and objects deeper than `max`: one pass, brackets in strings skipped. */
export function nestsDeeperThan(text: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const byte = text[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth -= 1;
    }
  }
  return false;
}

type Parser = (request: Request, response: Response, next: (error?: unknown) => void) => void;

/** Routes that take many links in one body: up to 1,000 links of 10 KB each. */
const BULK_PATHS: ReadonlySet<string> = new Set(['/api/v1/links/bulk', '/api/v1/links/import']);
export const BULK_BODY_LIMIT = '10mb';

function jsonParser(limit: string): Parser {
  return json({
    limit,
    verify: (_request, _response, body) => {
      if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new BadRequestException('Bad request.');
    },
  });
}

const bulkParsers: Parser[] = [
  jsonParser(BULK_BODY_LIMIT),
  // An imported CSV file, as the body itself.
  text({ type: ['text/csv', 'application/csv'], limit: BULK_BODY_LIMIT }),
  urlencoded({ extended: true, limit: BULK_BODY_LIMIT, parameterLimit: 1000 }),
];

const parsers: Parser[] = [
  json({
    limit: BODY_LIMIT,
    verify: (_request, _response, body) => {
      if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new BadRequestException('Bad request.');
    },
  }),
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
    const path = (request.originalUrl ?? request.url).split('?')[0];
    for (const parser of BULK_PATHS.has(path) ? bulkParsers : parsers) {
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
