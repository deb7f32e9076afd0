import {
  BadRequestException,
  HttpException,
  HttpStatus,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { json, raw, urlencoded } from 'body-parser';
import type { Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { from, switchMap, type Observable } from 'rxjs';
import { ValidationFailedException } from './exceptions';
import { IMAGE_BODY_TYPES, REQUEST_BODY_TYPES } from './openapi';

/** Large enough for a link with 100 targets of 2048-character URLs. */
export const BODY_LIMIT = '1mb';

/** Deeper than any body of this API (a link's targets are three levels down); past it, validation would recurse. */
export const MAX_JSON_DEPTH = 32;

/** The longest list any field takes: the links of a bulk create (a link's targets and pixels stop at 100). */
export const MAX_JSON_ITEMS = 1000;

/** What a JSON text may hold before it is parsed: past these, building its objects would cost more than any body needs. */
export interface JsonLimits {
  /** Levels of arrays and objects. */
  depth: number;
  /** Items of any one array. */
  items: number;
}

/**
 * Values (the members of every object and the items of every array) that texts may still hold: a scan takes off
 * what its text holds, so that texts read one after another (the cells of a CSV file) can share one.
 */
export interface JsonBudget {
  values: number;
}

/** The first limit a JSON text goes past, and for an array with too many items, the field that holds it. */
export type JsonOverrun = { limit: 'depth' } | { limit: 'items'; field: string[] } | { limit: 'values' };

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A key as JSON.parse reads it (escapes included), shortened for an error message. */
function keyAt(text: Buffer, start: number, end: number): string {
  try {
    const key = JSON.parse(text.toString('utf8', start, end)) as string;
    return key.length > 100 ? `${key.slice(0, 100)}…` : key;
  } catch {
    return '?';
  }
}

/**
 * The first of `limits` that a JSON text goes past, or null: one pass over the bytes, before anything is parsed,
 * so that a body of a million empty objects costs a scan and not a million objects. Brackets and commas inside
 * strings are skipped. The text is not otherwise checked: the parser still refuses what is no JSON.
 */
export function jsonOverrun(text: Buffer, limits: JsonLimits, budget: JsonBudget): JsonOverrun | null {
  let depth = 0;
  let inString = false;
  let stringIsKey = false;
  let awaitingKey = false;
  // Per open container, from depth 1: whether it is an array, its commas so far, and its latest key's bytes.
  const isArray: boolean[] = [];
  const commas: number[] = [];
  const keyStart: number[] = [];
  const keyEnd: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const byte = text[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) {
        inString = false;
        if (stringIsKey) keyEnd[depth] = index + 1;
      }
    } else if (byte === QUOTE) {
      inString = true;
      stringIsKey = awaitingKey && depth > 0 && !isArray[depth];
      if (stringIsKey) keyStart[depth] = index;
      awaitingKey = false;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > limits.depth) return { limit: 'depth' };
      isArray[depth] = byte === OPEN_BRACKET;
      commas[depth] = 0;
      keyStart[depth] = keyEnd[depth] = -1;
      awaitingKey = byte === OPEN_BRACE;
      budget.values -= 1;
      if (budget.values < 0) return { limit: 'values' };
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth -= 1;
      awaitingKey = false;
    } else if (byte === COMMA && depth > 0) {
      commas[depth] += 1;
      awaitingKey = !isArray[depth];
      budget.values -= 1;
      if (budget.values < 0) return { limit: 'values' };
      if (isArray[depth] && commas[depth] >= limits.items) {
        const field: string[] = [];
        for (let level = 1; level < depth; level += 1) {
          field.push(isArray[level] ? String(commas[level]) : keyAt(text, keyStart[level], keyEnd[level]));
        }
        return { limit: 'items', field };
      }
    } else if (byte === COLON) {
      awaitingKey = false;
    }
  }
  return null;
}

/** Whether the JSON text nests arrays and objects deeper than `max`. */
export function nestsDeeperThan(text: Buffer, max: number): boolean {
  return jsonOverrun(text, { depth: max, items: Infinity }, { values: Infinity })?.limit === 'depth';
}

type Parser = (request: Request, response: Response, next: (error?: unknown) => void) => void;

interface BodyRules {
  /** Bytes of the body, as body-parser reads its limits. */
  limit: string;
  json: JsonLimits;
  /** Values a JSON body may hold. */
  values: number;
  /** The refusal of a list field longer than `json.items`, where a route words it as its validation does. */
  tooManyItems?: Readonly<Record<string, string>>;
}

/** A link with 100 targets and 100 pixels holds about 420 values. */
const BODY: BodyRules = {
  limit: BODY_LIMIT,
  json: { depth: MAX_JSON_DEPTH, items: MAX_JSON_ITEMS },
  values: 5_000,
};

/**
 * Routes that take many links in one body: 1,000 links of 2 KB each (a long URL with its title, alias and a few
 * targets), and 50 values each. The body is read whole before it is refused, so its size is what a refusal costs.
 */
const BULK_PATHS: ReadonlySet<string> = new Set(['/api/v1/links/bulk', '/api/v1/links/import']);
export const BULK_BODY_LIMIT = '2mb';
export const BULK_JSON_VALUES = 50_000;
const BULK: BodyRules = {
  limit: BULK_BODY_LIMIT,
  json: { depth: MAX_JSON_DEPTH, items: MAX_JSON_ITEMS },
  values: BULK_JSON_VALUES,
  tooManyItems: { links: `The links field must have between 1 and ${MAX_JSON_ITEMS} items.` },
};

/** The refusal of a JSON body that goes past a limit: checked before the body is parsed. */
function refusal(overrun: JsonOverrun, rules: BodyRules): HttpException {
  switch (overrun.limit) {
    case 'depth':
      return new BadRequestException('Bad request.');
    case 'values':
      return new HttpException('Payload too large.', HttpStatus.PAYLOAD_TOO_LARGE);
    case 'items': {
      if (overrun.field.length === 0) {
        return new HttpException('Payload too large.', HttpStatus.PAYLOAD_TOO_LARGE);
      }
      const name = overrun.field.join('.');
      const label = overrun.field[overrun.field.length - 1].replaceAll('_', ' ');
      const message =
        rules.tooManyItems?.[name] ?? `The ${label} field must not have more than ${MAX_JSON_ITEMS} items.`;
      return ValidationFailedException.of(name, message);
    }
  }
}

function parsersOf(rules: BodyRules, extra: Parser[]): Parser[] {
  return [
    json({
      limit: rules.limit,
      verify: (_request, _response, body) => {
        const overrun = jsonOverrun(body, rules.json, { values: rules.values });
        if (overrun !== null) throw refusal(overrun, rules);
      },
    }),
    ...extra,
    // Bracket notation (targets[0][key]) through qs; up to 1000 fields and arrays of up to 1000 entries.
    urlencoded({ extended: true, limit: rules.limit, parameterLimit: 1000 }),
  ];
}

const CSV_TYPES = ['text/csv', 'application/csv'];

/**
 * An imported CSV file, as the body itself, in bytes: the import reads UTF-8 (or ASCII) bytes as they are, and only
 * as far as its 1,001st row; another charset is a 415.
 */
function csvParser(limit: string): Parser {
  const read = raw({ type: CSV_TYPES, limit });
  return (request, response, next) => {
    const charset = /;\s*charset="?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^(utf-?8|us-ascii)$/i.test(charset) && request.is(CSV_TYPES) !== false) {
      next(new HttpException('Unsupported media type.', HttpStatus.UNSUPPORTED_MEDIA_TYPE));
      return;
    }
    read(request, response, next);
  };
}

const bulkParsers = parsersOf(BULK, [csvParser(BULK_BODY_LIMIT)]);
const parsers = parsersOf(BODY, []);

/** The largest image a route reads as its body: a QR code's logo (contract §14); past it, 413 before it is read. */
export const IMAGE_BODY_LIMIT = '64kb';

/** A route that reads an image reads nothing else, as bytes: its checks are the route's own. */
const imageParsers: Parser[] = [raw({ type: [...IMAGE_BODY_TYPES], limit: IMAGE_BODY_LIMIT })];

function readsImages(types: readonly string[] | undefined): boolean {
  return types !== undefined && types.some((type) => (IMAGE_BODY_TYPES as readonly string[]).includes(type));
}

/**
 * Reads a request's body once the route is known and the request allowed: after the guards (the API key, the rate
 * limits), so that a client without a key, or past its limit, never makes the service read and hold what it sent,
 * and just before the pipes that validate it, so that the bytes are parsed and let go within one turn of the event
 * loop. A route that documents no body (`ApiEndpoint`'s `body: false`), and any GET or HEAD, leaves it unread; a malformed or oversized
 * body is refused through the exception filter with the contract's envelope (413, 400).
 */
@Injectable()
export class BodyParserInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    // A GET or HEAD body has no meaning (RFC 9110): no route reads one, so none is parsed or refused.
    if (request.method === 'GET' || request.method === 'HEAD') return next.handle();
    const types = this.reflector.get<readonly string[] | undefined>(REQUEST_BODY_TYPES, context.getHandler());
    if (types?.length === 0) return next.handle();
    return from(readBody(request, http.getResponse<Response>(), readsImages(types))).pipe(
      switchMap(() => next.handle()),
    );
  }
}

/**
 * Bytes of bulk and import bodies that one instance reads a second, at most (16 MiB: a 2 MB body alone takes an
 * eighth of a second). A client sending maximal bodies without a pause, 600 MB/s over the loopback, took visitors'
 * redirects past 100 ms at p99 on two cores even when nothing of the bodies was kept; a paused body is left in the
 * kernel's buffers, and TCP makes its sender wait.
 */
export const BULK_BYTES_PER_SECOND = 16 * 1024 * 1024;

/** A token bucket of bytes: what may be read now, refilled at `perSecond`, at most a tenth of a second's worth. */
export class ByteRate {
  private available: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.available = perSecond / 10;
    this.last = now();
  }

  /** Takes `bytes` just read; answers how long to wait before reading more, in milliseconds (0: go on). */
  take(bytes: number): number {
    const now = this.now();
    this.available = Math.min(
      this.perSecond / 10,
      this.available + ((now - this.last) * this.perSecond) / 1000,
    );
    this.last = now;
    this.available -= bytes;
    return this.available >= 0 ? 0 : (-this.available * 1000) / this.perSecond;
  }
}

const bulkRate = new ByteRate(BULK_BYTES_PER_SECOND);

/** Pauses `request` whenever what it sent goes past `rate`; it resumes once the rate allows it again. */
function pace(request: Request, rate: ByteRate): void {
  request.on('data', (chunk: Buffer) => {
    const wait = rate.take(chunk.length);
    if (wait <= 0) return;
    request.pause();
    setTimeout(() => request.resume(), wait);
  });
}

async function readBody(request: Request, response: Response, image: boolean): Promise<void> {
  const path = (request.originalUrl ?? request.url).split('?')[0];
  const bulk = BULK_PATHS.has(path);
  let paced = false;
  for (const parser of image ? imageParsers : bulk ? bulkParsers : parsers) {
    await new Promise<void>((resolve, reject) => {
      parser(request, response, (error?: unknown) =>
        error === undefined ? resolve() : reject(toHttp(error)),
      );
      // A parser that reads the body has its listener on it by now, before any of it flows: pacing goes beside it.
      if (bulk && !paced && request.listenerCount('data') > 0) {
        paced = true;
        pace(request, bulkRate);
      }
    });
  }
}

function toHttp(error: unknown): HttpException {
  if (error instanceof HttpException) return error;
  const status = (error as { status?: unknown }).status;
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return new HttpException('Payload too large.', status);
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE)
    return new HttpException('Unsupported media type.', status);
  return new BadRequestException('Bad request.');
}
