import { applyDecorators, HttpStatus, SetMetadata, type Type } from '@nestjs/common';
import {
  ApiConsumes,
  ApiExtension,
  ApiExtraModels,
  ApiOperation,
  ApiProperty,
  ApiResponse,
  getSchemaPath,
  type ApiPropertyOptions,
  type HeaderObject,
  type ReferenceObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { ERROR_MESSAGES } from './envelope';
import { PER_PAGE_VALUES } from './pagination';

/*
 * The OpenAPI side of the contract's envelopes (section 2): each response body is a class, and the decorators
 * here wrap a resource's class in the envelope a route answers with, so that every route documents its success
 * and its errors the same way.
 */

/** The contract's form of a date in a response: ISO 8601 in UTC, with microseconds. */
export const RESPONSE_DATE_EXAMPLE = '2026-11-21T10:05:00.000000Z';

/** A date-time field of a response. */
export function ApiDateTime(options: { nullable?: boolean; description?: string } = {}): PropertyDecorator {
  return ApiProperty({
    type: 'string',
    format: 'date-time',
    example: RESPONSE_DATE_EXAMPLE,
    ...(options.nullable === true ? { nullable: true } : {}),
    ...(options.description === undefined ? {} : { description: options.description }),
  });
}

/** An integer field of a response. */
export function ApiInteger(options: Omit<ApiPropertyOptions, 'type'> = {}): PropertyDecorator {
  return ApiProperty({ type: 'integer', ...options } as ApiPropertyOptions);
}

/**
 * A named enum of integers, its values named by `valueNames` where they mean something (`x-enumNames`, which
 * client generators turn into constants). Swagger would type it `number`: its enum schema is given the type.
 */
export function integerEnum(
  values: readonly number[],
  enumName: string,
  valueNames?: readonly string[],
  description?: string,
): ApiPropertyOptions {
  return {
    type: 'integer',
    enum: [...values],
    enumName,
    enumSchema: { type: 'integer', ...(description === undefined ? {} : { description }) },
    ...(valueNames === undefined ? {} : { 'x-enumNames': [...valueNames] }),
  } as ApiPropertyOptions;
}

/** A 0 or 1 field of a response, as phpShort answers its flags. */
export function ApiFlag(description: string): PropertyDecorator {
  return ApiProperty({ type: 'integer', enum: [0, 1], description });
}

/**
 * Schemas that are not a class's: named enums used inside other schemas (the targeting tables). Registered when
 * a decorator asks for one, added to the document's components by the document builder.
 */
const namedSchemas = new Map<string, SchemaObject>();

/** A reference to the named enum `name`, registering its values the first time. */
export function namedEnum(name: string, values: readonly string[], description?: string): ReferenceObject {
  if (!namedSchemas.has(name)) {
    namedSchemas.set(name, {
      type: 'string',
      enum: [...values],
      ...(description === undefined ? {} : { description }),
    });
  }
  return { $ref: getSchemaPath(name) };
}

/** Every named schema registered so far, by name. */
export function registeredSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries(namedSchemas);
}

/** A header whose value is a whole number (of requests, of seconds). */
function integerHeader(description: string): HeaderObject {
  return { description, schema: { type: 'integer' } };
}

/** The rate-limit headers of contract section 2, as `components.headers`. */
export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': integerHeader(
    'Requests allowed per minute for the API key (or, without a valid key, the client address).',
  ),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current minute.'),
  'X-RateLimit-Reset': integerHeader('Seconds until the current minute ends.'),
  'Retry-After': integerHeader('Seconds to wait before the next request.'),
};

function headerRefs(...names: string[]): Record<string, ReferenceObject> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Every API response carries the limit and what is left of it. */
const LIMIT_HEADERS = headerRefs('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');

/** An error body: its message (the one message, or an example of one), and the status repeated. */
function errorBody(name: string, status: number, message: string | { example: string }): Type {
  class ErrorBody {
    @ApiProperty(
      typeof message === 'string' ? { type: 'string', enum: [message] } : { type: 'string', ...message },
    )
    message!: string;

    @ApiInteger({ enum: [status] })
    status!: number;
  }
  Object.defineProperty(ErrorBody, 'name', { value: name });
  return ErrorBody;
}

/** An error that always answers the contract's one message for its status (`ERROR_MESSAGES`). */
function fixedError(status: number, name: string, description: string): { description: string; body: Type } {
  return { description, body: errorBody(name, status, ERROR_MESSAGES[status]!) };
}

/** The 422 body: each field's reasons, named as the client sent the field (`targets.0.key`). */
export class ValidationErrorBody {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { name: ['The name field is required.'] },
  })
  message!: Record<string, string[]>;

  @ApiInteger({ enum: [HttpStatus.UNPROCESSABLE_ENTITY] })
  status!: number;
}

/** The errors an API route can answer, each with the body the contract gives it. */
export const ERROR_RESPONSES = {
  400: fixedError(400, 'BadRequestError', 'The body could not be read.'),
  401: fixedError(401, 'UnauthenticatedError', 'No API key, or one that is not valid.'),
  404: fixedError(404, 'NotFoundError', 'No such resource, or another account’s.'),
  403: {
    description:
      'The API key lacks the scope this route needs (or, for a domain, it is a system domain, which no account may change).',
    body: errorBody('ForbiddenError', 403, { example: 'This action is unauthorized.' }),
  },
  409: {
    description: 'The resource is still in use.',
    body: errorBody('ConflictError', 409, { example: 'The domain has links and cannot be deleted.' }),
  },
  413: fixedError(413, 'PayloadTooLargeError', 'The body is too large.'),
  415: fixedError(415, 'UnsupportedMediaTypeError', 'The body’s content type is not one the API reads.'),
  422: { description: 'A parameter or a field is not valid.', body: ValidationErrorBody },
  429: fixedError(429, 'TooManyRequestsError', 'Too many requests for the API key in this minute.'),
  500: fixedError(500, 'ServerError', 'An unexpected error, logged with the request id.'),
  503: fixedError(503, 'ServiceUnavailableError', 'The database cannot be reached.'),
} satisfies Record<number, { description: string; body: Type }>;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** What any API route may answer, whatever it does; 403 to a key without its scope, 415 to a body it does not read. */
const ALWAYS: ErrorStatus[] = [401, 403, 415, 429, 500, 503];

/** What a route with a request body may also answer: the body parser's refusals and the validation's. */
const WITH_BODY: ErrorStatus[] = [400, 413, 422];

/** The media types of the bodies the API reads as JSON and as forms. */
export const FORM_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** The media types of a CSV file sent as the body itself (an import). */
export const CSV_BODY_TYPES = ['text/csv', 'application/csv'] as const;

/** The media types of an image sent as the body itself (a QR code's logo). */
export const IMAGE_BODY_TYPES = ['image/png', 'image/svg+xml'] as const;

/**
 * The metadata key of the media types of the body a route reads, which `ApiEndpoint` also documents; a route with
 * none reads no body. The media-type check refuses any other body with 415 (`MediaTypeInterceptor`), so the
 * document and the service cannot disagree.
 */
export const REQUEST_BODY_TYPES = 'requestBodyTypes';

function errorResponses(statuses: ErrorStatus[]): MethodDecorator {
  const unique = [...new Set(statuses)].sort((a, b) => a - b);
  return applyDecorators(
    ...unique.map((status) => {
      const { description, body } = ERROR_RESPONSES[status];
      return ApiResponse({
        status,
        description,
        type: body,
        headers:
          status === 429
            ? headerRefs('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After')
            : LIMIT_HEADERS,
      });
    }),
  );
}

/**
 * The OpenAPI extension that carries a route's example body until the document builder writes it as the example of
 * each media type the route reads (`openapi-document.ts`).
 */
export const BODY_EXAMPLE_EXTENSION = 'x-body-example';

export interface EndpointOptions {
  /** Reads like a method name: `listLinks`, `createSpace`. */
  operationId: string;
  summary: string;
  description?: string;
  /** Takes a body, as JSON or as a form (`true`) or in the media types given; without it, the route reads none. */
  body?: boolean | readonly string[];
  /** Errors besides 401, 403, 415, 429, 500 and 503 (and, with a body, 400, 413 and 422). */
  errors?: ErrorStatus[];
  /**
   * A whole body the route accepts, for every media type it reads. Without one, a generator makes up a value for
   * each field that has no example, and an invented id names nothing.
   */
  example?: object;
}

/** An API route: its name and summary, the encodings of its body, and the errors it may answer. */
export function ApiEndpoint(options: EndpointOptions): MethodDecorator {
  const bodyTypes =
    options.body === true ? FORM_BODY_TYPES : options.body === false ? [] : (options.body ?? []);
  return applyDecorators(
    ApiOperation({
      operationId: options.operationId,
      summary: options.summary,
      ...(options.description === undefined ? {} : { description: options.description }),
    }),
    SetMetadata(REQUEST_BODY_TYPES, bodyTypes),
    ...(bodyTypes.length > 0 ? [ApiConsumes(...bodyTypes)] : []),
    ...(options.example === undefined ? [] : [ApiExtension(BODY_EXAMPLE_EXTENSION, options.example)]),
    errorResponses([...ALWAYS, ...(bodyTypes.length > 0 ? WITH_BODY : []), ...(options.errors ?? [])]),
  );
}

const STATUS_200: SchemaObject = { type: 'integer', enum: [200], description: 'Always 200, even on a 201.' };

/** `{"data": ..., "status": 200}` around one `model`, or a list of them with `isArray`. */
export function ApiDataResponse(
  model: Type,
  options: { status?: 200 | 201 | 202; bodyStatus?: 200 | 202; isArray?: boolean; description?: string } = {},
): MethodDecorator {
  const status = options.status ?? 200;
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: options.description ?? (status === 201 ? 'Created.' : 'OK.'),
      headers: LIMIT_HEADERS,
      schema: dataSchema(
        model,
        options.isArray === true,
        options.bodyStatus === 202 ? STATUS_202 : STATUS_200,
      ),
    }),
  );
}

/** A body that says 202: the work was accepted, not done (an import, contract §12). */
const STATUS_202: SchemaObject = { type: 'integer', enum: [202] };

function dataSchema(model: Type, isArray: boolean, status: SchemaObject): SchemaObject {
  const item: ReferenceObject = { $ref: getSchemaPath(model) };
  return {
    type: 'object',
    required: ['data', 'status'],
    properties: { data: isArray ? { type: 'array', items: item } : item, status },
  };
}

/** One of Laravel's page links. */
export class PageLink {
  @ApiProperty({ type: 'string', format: 'uri', nullable: true })
  url!: string | null;

  @ApiProperty({ type: 'string', example: '1' })
  label!: string;

  @ApiProperty({ type: 'boolean' })
  active!: boolean;
}

/** A list's first, last, previous and next pages, with the request's other query parameters. */
export class PageLinks {
  @ApiProperty({ type: 'string', format: 'uri' })
  first!: string;

  @ApiProperty({ type: 'string', format: 'uri' })
  last!: string;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true })
  prev!: string | null;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true })
  next!: string | null;
}

/** Laravel's paginator's `meta`. */
export class PageMeta {
  @ApiInteger({ minimum: 1 })
  current_page!: number;

  @ApiInteger({ minimum: 1, nullable: true, description: 'Null on an empty page.' })
  from!: number | null;

  @ApiInteger({ minimum: 1 })
  last_page!: number;

  @ApiProperty({ type: [PageLink] })
  links!: PageLink[];

  @ApiProperty({ type: 'string', format: 'uri' })
  path!: string;

  @ApiInteger({ enum: [...PER_PAGE_VALUES] })
  per_page!: number;

  @ApiInteger({ minimum: 1, nullable: true, description: 'Null on an empty page.' })
  to!: number | null;

  @ApiInteger({ minimum: 0 })
  total!: number;
}

function listSchema(model: Type): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'links', 'meta', 'status'],
    properties: {
      data: { type: 'array', items: { $ref: getSchemaPath(model) } },
      links: { $ref: getSchemaPath(PageLinks) },
      meta: { $ref: getSchemaPath(PageMeta) },
      status: STATUS_200,
    },
  };
}

/** `{"data": [...], "links": {...}, "meta": {...}, "status": 200}`: a page of `model`. */
export function ApiListResponse(model: Type): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model, PageLinks, PageMeta),
    ApiResponse({
      status: 200,
      description: 'A page of the list.',
      headers: LIMIT_HEADERS,
      schema: listSchema(model),
    }),
  );
}

/**
 * A route that answers either a whole list of `model` in `{"data": [...], "status": 200}` or a page of it in the
 * list envelope, by what was asked (`description` says when each): phpShort's stats.
 */
export function ApiWholeOrPagedListResponse(model: Type, description: string): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(model, PageLinks, PageMeta),
    ApiResponse({
      status: 200,
      description,
      headers: LIMIT_HEADERS,
      schema: { oneOf: [dataSchema(model, true, STATUS_200), listSchema(model)] },
    }),
  );
}

/** `{"id": 5, "object": "link", "deleted": true, "status": 200}`. */
export function ApiDeletedResponse(object: string): MethodDecorator {
  return ApiResponse({
    status: 200,
    description: 'Deleted.',
    headers: LIMIT_HEADERS,
    schema: {
      type: 'object',
      required: ['id', 'object', 'deleted', 'status'],
      properties: {
        id: { type: 'integer' },
        object: { type: 'string', enum: [object] },
        deleted: { type: 'boolean', enum: [true] },
        status: { type: 'integer', enum: [200] },
      },
    },
  });
}

/** A 200 whose body is a file of one of `types` rather than JSON. */
export function ApiFileResponse(
  description: string,
  types: Record<string, SchemaObject>,
  headers: Record<string, HeaderObject> = {},
): MethodDecorator {
  return ApiResponse({
    status: 200,
    description,
    headers: { ...LIMIT_HEADERS, ...headers },
    content: Object.fromEntries(Object.entries(types).map(([type, schema]) => [type, { schema }])),
  });
}
