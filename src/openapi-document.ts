import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SCOPE_EXTENSION } from './auth/requires-scope.decorator';
import { EVENT_SCHEMAS } from './events/webhooks/event-schemas';
import { BODY_EXAMPLE_EXTENSION, RATE_LIMIT_HEADERS, registeredSchemas } from './common/openapi';
import { MAX_ID } from './common/validation';

/** The server URL of the committed document (`docs/openapi.json`): APP_URL's default. */
export const DOCUMENT_SERVER_URL = 'http://localhost:3000';

/** The name of the API key's security scheme. */
const API_KEY = 'apiKey';

const TAGS: [string, string][] = [
  ['account', 'The account of the API key.'],
  ['domains', 'The hostnames short links are served on.'],
  ['health', 'Liveness and readiness, without a key.'],
  ['keys', 'API keys: their scopes, the spaces they are restricted to, their expiry.'],
  ['links', 'Short links: their destination, targeting, limits and protection.'],
  ['pixels', 'Tracking pixels loaded before a redirect.'],
  ['spaces', 'Groups of links.'],
  ['stats', 'The clicks of a link.'],
];

type Node = Record<string, unknown>;

/**
 * Swagger's habits that validators and linters read otherwise than meant:
 * - a reference wrapped alone in `allOf` is written as the reference itself;
 * - a nullable reference (`nullable` beside `allOf: [$ref]`, or beside `anyOf` of references) does not let null
 *   through in OpenAPI 3.0, where `nullable` only widens the `type` of its own schema and the reference still
 *   refuses null: it is written `anyOf: [{type, nullable: true, enum: [null]}, $ref]`, which every 3.0 validator
 *   reads as the reference or null.
 */
function tidySchemas(node: unknown, schemas: Record<string, Node>): void {
  if (typeof node !== 'object' || node === null) return;
  for (const value of Object.values(node)) tidySchemas(value, schemas);
  if (Array.isArray(node)) return;
  const schema = node as Node;
  const wrapped = schema.allOf as Node[] | undefined;
  if (schema.nullable !== true && wrapped?.length === 1 && typeof wrapped[0].$ref === 'string') {
    const ref = wrapped[0].$ref;
    for (const key of Object.keys(schema)) delete schema[key];
    schema.$ref = ref;
    return;
  }
  const choices = wrapped?.length === 1 ? wrapped : (schema.anyOf as Node[] | undefined);
  const firstRef = choices?.find((choice) => '$ref' in choice);
  if (schema.nullable === true && choices !== undefined && firstRef !== undefined) {
    const name = String(firstRef.$ref).split('/').pop()!;
    const type = schema.type ?? schemas[name]?.type ?? 'object';
    const { description } = schema;
    for (const key of Object.keys(schema)) delete schema[key];
    if (description !== undefined) schema.description = description;
    // Null first: a validator that coerces form strings to the schema's types would turn null into "" in a branch
    // that refuses null before it reached the branch that takes it.
    schema.anyOf = [{ type, nullable: true, enum: [null] }, ...choices];
  }
}

/** The component schema a reference names. */
function referenced(ref: unknown, schemas: Record<string, Node>): Node | undefined {
  return typeof ref === 'string' ? schemas[ref.split('/').pop()!] : undefined;
}

/** Every object schema within `node`, following references into `schemas`, each once. */
function objectSchemas(
  node: unknown,
  schemas: Record<string, Node>,
  seen = new Set<unknown>(),
): Set<unknown> {
  if (typeof node !== 'object' || node === null || seen.has(node)) return seen;
  seen.add(node);
  const target = referenced((node as Node).$ref, schemas);
  if (target !== undefined) objectSchemas(target, schemas, seen);
  for (const value of Object.values(node)) objectSchemas(value, schemas, seen);
  return seen;
}

/**
 * The contract lists the fields of every response, and no other: each object of a response says
 * `additionalProperties: false`, so a field the document does not know (a secret, say) fails a validator. A
 * request body stays open, since unknown body fields are ignored; a body that requires no field (an update) may
 * be absent.
 */
function closeResponses(paths: OpenAPIObject['paths'], schemas: Record<string, Node>): void {
  const requests: unknown[] = [];
  const responses: unknown[] = [];
  for (const item of Object.values(paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (operation === undefined) continue;
      const body = operation.requestBody as { required?: boolean; content: Record<string, Node> } | undefined;
      if (body !== undefined) {
        requests.push(body);
        const bodySchemas = Object.values(body.content).map((media) => media.schema as Node | undefined);
        const required = bodySchemas.some((schema) => {
          const resolved = referenced(schema?.$ref, schemas) ?? schema;
          return Array.isArray(resolved?.required) && resolved.required.length > 0;
        });
        if (
          !required &&
          bodySchemas.every((schema) => (referenced(schema?.$ref, schemas) ?? schema)?.type === 'object')
        ) {
          body.required = false;
        }
      }
      responses.push(operation.responses);
    }
  }
  const open = objectSchemas(requests, schemas);
  for (const candidate of objectSchemas(responses, schemas)) {
    const schema = candidate as Node;
    if (open.has(candidate) || Array.isArray(candidate) || typeof schema.properties !== 'object') continue;
    schema.additionalProperties ??= false;
  }
}

/**
 * The document as served to a request from `origin`: when that is not APP_URL (a port of its own, an internal
 * address), the origin comes first, so that "Try it out" in the UI reaches the server the page came from rather
 * than another origin, which the browser would refuse.
 */
export function servedTo(document: OpenAPIObject, origin: string): OpenAPIObject {
  const servers = document.servers ?? [];
  if (servers.some((server) => server.url === origin)) return document;
  return {
    ...document,
    servers: [{ url: origin, description: 'The server this document was read from' }, ...servers],
  };
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The OpenAPI document of the API, generated from the controllers' and DTOs' decorators. `serverUrl` is APP_URL.
 * Paths and component names are sorted, so the same code always gives the same document; the properties of a
 * schema keep the order of their class, which is the contract's field order.
 */
export function openApiDocument(app: INestApplication, serverUrl: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Link shortener API')
    .setDescription(
      'Spaces, short links, domains, pixels and stats, wire-compatible with the phpShort v1 API. Request bodies ' +
        'are read as forms (`application/x-www-form-urlencoded`, with bracket notation such as ' +
        '`pixel_ids[]=3`) or as JSON; every response is JSON in the envelopes this document describes.',
    )
    .setVersion('1')
    .addServer(serverUrl)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key, as `npm run cli -- account:create` or `key:create` prints it.',
      },
      API_KEY,
    )
    .addSecurityRequirements(API_KEY);
  for (const [name, description] of TAGS) builder.addTag(name, description);
  // The events deliveries and streams carry are no route's answer: they are listed as components of their own.
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels: EVENT_SCHEMAS });

  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      // @Public() routes carry an empty requirement: no key at all, said the way linters read it.
      if (operation?.security?.length === 1 && Object.keys(operation.security[0]).length === 0) {
        operation.security = [];
      }
      // The scope a route needs, said where a reader of the operation looks (the extension is for tools).
      const scope = (operation as Node | undefined)?.[SCOPE_EXTENSION];
      if (operation !== undefined && typeof scope === 'string') {
        const needs = `Needs the scope \`${scope}\`.`;
        operation.description =
          operation.description === undefined ? needs : `${operation.description} ${needs}`;
      }
      // Nest types a `number` in a path as any number; those are ids, which IdPipe reads as plain decimals within
      // the column's range (anything else names no resource).
      for (const parameter of operation?.parameters ?? []) {
        const { schema } = parameter as { in?: string; schema?: Node };
        if ((parameter as { in?: string }).in === 'path' && schema?.type === 'number') {
          Object.assign(schema, { type: 'integer', minimum: 1, maximum: MAX_ID });
        }
      }
      // A route's example body, where generators and the UI look for it: in each media type it reads.
      const extended = operation as Node | undefined;
      const example = extended?.[BODY_EXAMPLE_EXTENSION];
      if (extended !== undefined && example !== undefined) {
        const body = extended.requestBody as { content?: Record<string, Node> } | undefined;
        for (const media of Object.values(body?.content ?? {})) media.example = example;
        delete extended[BODY_EXAMPLE_EXTENSION];
      }
    }
  }
  const components = document.components ?? {};
  // An API key is no JWT, whatever the builder's default says.
  for (const scheme of Object.values(components.securitySchemes ?? {})) {
    if ('bearerFormat' in scheme) delete scheme.bearerFormat;
  }
  const schemas = { ...components.schemas, ...registeredSchemas() } as Record<string, Node>;
  tidySchemas(schemas, schemas);
  tidySchemas(document.paths, schemas);
  closeResponses(document.paths, schemas);
  return {
    openapi: document.openapi,
    info: { ...document.info, license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' } },
    servers: document.servers,
    security: document.security,
    tags: document.tags,
    paths: sortedByKey(document.paths),
    components: {
      securitySchemes: components.securitySchemes,
      headers: RATE_LIMIT_HEADERS,
      schemas: sortedByKey(schemas),
    },
  };
}
