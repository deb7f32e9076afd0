import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { RATE_LIMIT_HEADERS, registeredSchemas } from './common/openapi';

/** The server URL of the committed document (`docs/openapi.json`): APP_URL's default. */
export const DOCUMENT_SERVER_URL = 'http://localhost:3000';

/** The name of the API key's security scheme. */
const API_KEY = 'apiKey';

const TAGS: [string, string][] = [
  ['account', 'The account of the API key.'],
  ['domains', 'The hostnames short links are served on.'],
  ['health', 'Liveness and readiness, without a key.'],
  ['links', 'Short links: their destination, targeting, limits and protection.'],
  ['pixels', 'Tracking pixels loaded before a redirect.'],
  ['spaces', 'Groups of links.'],
  ['stats', 'The clicks of a link.'],
];

type Node = Record<string, unknown>;

/**
 * Two of Swagger's habits that linters refuse: a reference wrapped alone in `allOf` (written as the reference
 * itself, unless it is nullable: OpenAPI 3.0 has no other way to make a reference nullable), and `nullable`
 * without a `type` (given the referenced schema's).
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
  if (schema.nullable === true && schema.type === undefined) {
    const first = (wrapped ?? (schema.anyOf as Node[] | undefined) ?? [])[0];
    const name = typeof first?.$ref === 'string' ? first.$ref.split('/').pop()! : undefined;
    const type = name === undefined ? undefined : schemas[name]?.type;
    if (type !== undefined) schema.type = type;
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
  const document = SwaggerModule.createDocument(app, builder.build());

  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      // @Public() routes carry an empty requirement: no key at all, said the way linters read it.
      if (operation?.security?.length === 1 && Object.keys(operation.security[0]).length === 0) {
        operation.security = [];
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
