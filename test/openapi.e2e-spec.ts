import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Response } from 'supertest';
import ts from 'typescript';
import { AppModule } from '../src/app.module';
import { openApiDocument } from '../src/openapi-document';
import { serialiseDocument } from '../src/write-openapi';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestApp } from './support/app';
import { committedDocument, DOCUMENT_FILE, generatedDocument } from './support/openapi-document';
import { checkAgainstDocument, ResponseValidator } from './support/openapi-responses';
import { nestRoutes } from './support/routes';
import { NO_VISIT_FIELDS } from './support/links';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

function operations(document: OpenAPIObject): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
      const operation = item[method] as Operation | undefined;
      return operation === undefined
        ? []
        : [[`${method.toUpperCase()} ${path}`, operation] as [string, Operation]];
    }),
  );
}

describe('The OpenAPI document', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    document = await generatedDocument();
  });

  it('is committed as docs/openapi.json exactly as the code generates it (npm run openapi writes it)', () => {
    expect(readFileSync(DOCUMENT_FILE, 'utf8')).toBe(serialiseDocument(document));
  });

  it('names every operation like a method, once, with a summary', () => {
    const ids = operations(document).map(([, operation]) => operation.operationId);
    for (const [name, operation] of operations(document)) {
      expect([name, operation.operationId]).toEqual([name, expect.stringMatching(/^[a-z][A-Za-z]+$/)]);
      expect([name, operation.summary]).toEqual([name, expect.any(String)]);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining(['listLinks', 'createSpace', 'showLink', 'updateLink', 'deleteLink']),
    );
  });

  it('describes a success and the contract’s errors for every API operation, with their bodies', () => {
    const api = operations(document).filter(([name]) => name.includes(' /api/v1/'));
    expect(api.length).toBeGreaterThanOrEqual(30);
    const bodyOf = (operation: Operation, status: string) =>
      operation.responses[status]?.content?.['application/json']?.schema?.$ref;
    // Single sign-on's two steps are a browser's navigations: each answers a redirect, never a body.
    const navigations = ['GET /api/v1/session/oidc', 'GET /api/v1/session/oidc/callback'];
    for (const [name, operation] of api) {
      if (navigations.includes(name)) {
        expect([
          name,
          Object.keys(operation.responses).filter((status) => /^[23]\d\d$/.test(status)),
        ]).toEqual([name, ['302']]);
        continue;
      }
      const success = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
      expect([name, success.length]).toEqual([name, 1]);
      expect([name, operation.responses[success[0]].content]).toEqual([name, expect.any(Object)]);
      const errors = {
        '401': '#/components/schemas/UnauthenticatedError',
        '429': '#/components/schemas/TooManyRequestsError',
        '500': '#/components/schemas/ServerError',
        '503': '#/components/schemas/ServiceUnavailableError',
        ...(name.includes('{') ? { '404': '#/components/schemas/NotFoundError' } : {}),
      };
      for (const [status, ref] of Object.entries(errors)) {
        expect([name, status, bodyOf(operation, status)]).toEqual([name, status, ref]);
      }
      if (operation.requestBody !== undefined) {
        expect([name, bodyOf(operation, '422')]).toEqual([name, '#/components/schemas/ValidationErrorBody']);
      }
    }
  });

  it('reads bodies as JSON and as forms, and files as themselves', () => {
    // A file sent as the body itself: an import's CSV, a QR code's logo.
    const files: Record<string, string[]> = {
      'POST /api/v1/links/import': ['text/csv', 'application/csv'],
      'PUT /api/v1/links/{id}/qr-logo': ['image/png', 'image/svg+xml'],
      'PUT /api/v1/account/qr-logo': ['image/png', 'image/svg+xml'],
    };
    for (const [name, operation] of operations(document)) {
      if (operation.requestBody === undefined) continue;
      expect([name, Object.keys(operation.requestBody.content)]).toEqual([
        name,
        files[name] ?? ['application/json', 'application/x-www-form-urlencoded'],
      ]);
    }
  });

  it('types integers as integers and the allowed values as named enums', () => {
    const schemas = document.components!.schemas as Record<string, Record<string, unknown>>;
    const property = (schema: string, name: string) =>
      (schemas[schema].properties as Record<string, Record<string, unknown>>)[name];
    expect(schemas.SpaceColor).toEqual({ type: 'integer', enum: [1, 2, 3, 4, 5, 6] });
    expect(schemas.PerPage).toEqual({ type: 'integer', enum: [10, 25, 50, 100] });
    expect(schemas.LinkPrivacy).toMatchObject({
      type: 'integer',
      'x-enumNames': ['Public', 'Private', 'Password'],
    });
    expect(schemas.Continent).toEqual(
      expect.objectContaining({ enum: ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'] }),
    );
    expect(property('CreateLinkDto', 'clicks_limit')).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 999999999,
    });
    for (const flag of ['sensitive_content', 'disabled']) {
      expect(property('CreateLinkDto', flag)).toMatchObject({
        anyOf: [{ type: 'integer', enum: [0, 1] }, { type: 'boolean' }],
      });
      expect(property('LinkResponse', flag)).toMatchObject({ type: 'integer', enum: [0, 1] });
    }
    expect(property('CreateLinkDto', 'alias')).toMatchObject({ pattern: '^[A-Za-z0-9_-]+$', maxLength: 255 });
    expect(property('CreateLinkDto', 'active_period_start_at')).not.toHaveProperty('format');
    expect(property('CreateSpaceDto', 'name')).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 255,
    });
    expect(property('LinkResponse', 'created_at')).toMatchObject({ type: 'string', format: 'date-time' });
    // A path's id is read as a plain decimal within the column's range: 1.5 or 0 names no resource.
    const pathParameters = Object.values(document.paths).flatMap((item) =>
      [item.get, item.put, item.post, item.delete, item.patch].flatMap((operation) =>
        (operation?.parameters ?? []).filter((parameter) => 'in' in parameter && parameter.in === 'path'),
      ),
    );
    expect(pathParameters.length).toBeGreaterThanOrEqual(20);
    for (const parameter of pathParameters) {
      expect(parameter).toMatchObject({ schema: { type: 'integer', minimum: 1, maximum: 2147483647 } });
    }
  });

  it('lists the response fields in the contract’s order', () => {
    const schemas = document.components!.schemas as Record<string, { properties: object }>;
    expect(Object.keys(schemas.LinkResponse.properties)).toEqual(
      'id alias url short_url title targets_type targets last_rotation sensitive_content privacy password redirect_password active_period_start_at active_period_end_at clicks_limit expiration_url clicks disabled space domain pixels expires_at created_at updated_at tags utm_source utm_medium utm_campaign utm_term utm_content ios_url android_url og_title og_description og_image_url notes archived health'.split(
        ' ',
      ),
    );
    expect(Object.keys(schemas.SpaceResponse.properties)).toEqual([
      'id',
      'name',
      'color',
      'links_count',
      'created_at',
      'updated_at',
    ]);
  });

  it('asks for the API key on every operation but the public ones, which say they need none', async () => {
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.components!.securitySchemes!.apiKey).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(document.components!.securitySchemes!.apiKey).not.toHaveProperty('bearerFormat');
    const app = await NestFactory.create(AppModule, { preview: true, logger: false, abortOnError: false });
    const publicRoutes = new Set(
      nestRoutes(app)
        .filter((route) => route.isPublic)
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    await app.close();
    for (const [name, operation] of operations(document)) {
      if (publicRoutes.has(name)) expect([name, operation.security]).toEqual([name, []]);
      else expect([name, operation.security]).toEqual([name, undefined]);
    }
  });

  it('passes Redocly’s lint without an error, offline', async () => {
    const { stdout } = await run(bin('redocly'), ['lint', DOCUMENT_FILE, '--format=json'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const problems = (JSON.parse(stdout) as { problems: { severity: string; ruleId: string }[] }).problems;
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });
});

describe('The response validator', () => {
  const validator = () => new ResponseValidator(committedDocument());

  it('refuses a status the operation does not declare', () => {
    expect(validator().problem('GET', '/api/v1/spaces/1', 418, 'application/json', {})).toMatch(
      /GET \/api\/v1\/spaces\/\{id\} answered 418/,
    );
  });

  it('refuses a body that does not match, and a field the document does not know', () => {
    const space = {
      id: 1,
      name: 'A',
      color: 1,
      links_count: 0,
      created_at: '2026-11-21T10:05:00.000000Z',
      updated_at: '2026-11-21T10:05:00.000000Z',
    };
    const ok = validator().problem('GET', '/api/v1/spaces/1', 200, 'application/json', {
      data: space,
      status: 200,
    });
    expect(ok).toBeNull();
    for (const data of [
      { ...space, color: 7 },
      { ...space, secret: 'x' },
      { ...space, id: '1' },
    ]) {
      expect(
        validator().problem('GET', '/api/v1/spaces/1', 200, 'application/json', { data, status: 200 }),
      ).toMatch(/does not match/);
    }
  });

  it('fails the request it checks, through supertest, on an undeclared answer', () => {
    const check = checkAgainstDocument('delete', '/api/v1/links/7');
    const answer = (status: number, body: unknown) =>
      ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body }) as Pick<
        Response,
        'status' | 'headers' | 'body'
      >;
    expect(() => check(answer(200, { id: 7, object: 'link', deleted: true, status: 200 }))).not.toThrow();
    expect(() => check(answer(200, { id: 7, object: 'space', deleted: true, status: 200 }))).toThrow(
      /DELETE \/api\/v1\/links\/\{id\} answered 200 with a body that does not match/,
    );
    expect(() => check(answer(422, { message: {}, status: 422 }))).toThrow(/does not declare/);
  });

  /** A link as the API answers it, with no space, no targets and no active period. */
  const plainLink = {
    id: 7,
    alias: 'abc12',
    url: 'https://example.com/',
    short_url: 'http://localhost:3000/abc12',
    title: null,
    targets_type: null,
    targets: null,
    last_rotation: null,
    sensitive_content: 0,
    privacy: 0,
    password: false,
    redirect_password: false,
    active_period_start_at: null,
    active_period_end_at: null,
    clicks_limit: null,
    expiration_url: null,
    clicks: 0,
    disabled: 0,
    space: null,
    domain: { id: 1, name: 'localhost:3000', url: 'http://localhost:3000' },
    pixels: [],
    expires_at: null,
    created_at: '2026-11-21T10:05:00.000000Z',
    updated_at: '2026-11-21T10:05:00.000000Z',
    tags: [],
    ...NO_VISIT_FIELDS,
    archived: 0,
    health: { status: 'unknown', http_status: null, checked_at: null },
  };

  it('reads `nullable` as OpenAPI 3.0 does: a reference beside it in `allOf` still refuses null', () => {
    const document = {
      openapi: '3.0.3',
      paths: {
        '/things': {
          get: {
            responses: {
              200: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        wrapped: {
                          nullable: true,
                          type: 'string',
                          allOf: [{ $ref: '#/components/schemas/Kind' }],
                        },
                        inline: { nullable: true, type: 'string', enum: ['a', null] },
                        either: {
                          anyOf: [
                            { $ref: '#/components/schemas/Kind' },
                            { type: 'string', nullable: true, enum: [null] },
                          ],
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { Kind: { type: 'string', enum: ['a'] } } },
    };
    const check = (body: object) =>
      new ResponseValidator(document).problem('GET', '/things', 200, 'application/json', body);
    expect(check({ wrapped: null })).toMatch(/does not match/);
    expect(check({ inline: null, either: null })).toBeNull();
    expect(check({ either: 'b' })).toMatch(/does not match/);
    // What the document does not forbid is allowed: no rewrite adds `additionalProperties: false`.
    expect(check({ other: 1 })).toBeNull();
  });

  it('accepts a link without a space, targets or an active period, on every route that answers one', () => {
    const one = { data: plainLink, status: 200 };
    const many = { data: [plainLink], status: 200 };
    for (const [method, url, status, body] of [
      ['POST', '/api/v1/links', 201, one],
      ['GET', '/api/v1/links/7', 200, one],
      ['PUT', '/api/v1/links/7', 200, one],
      ['PATCH', '/api/v1/links/7', 200, one],
      ['POST', '/api/v1/links/bulk', 201, many],
      ['POST', '/api/v1/links/import', 201, many],
    ] as const) {
      expect([method, url, validator().problem(method, url, status, 'application/json', body)]).toEqual([
        method,
        url,
        null,
      ]);
    }
  });

  it('accepts the requests the API accepts: bulk links as objects, flags as booleans, forms as strings', () => {
    const accepts = (method: string, url: string, contentType: string, data: unknown) =>
      validator().requestProblem(method, url, { contentType, data });
    expect(
      accepts('POST', '/api/v1/links/bulk', 'application/json', { links: [{ url: 'https://a.example/' }] }),
    ).toBeNull();
    expect(
      accepts(
        'POST',
        '/api/v1/links/bulk',
        'application/x-www-form-urlencoded',
        'links[0][url]=https://a.example/&links[0][disabled]=1',
      ),
    ).toBeNull();
    expect(
      accepts('POST', '/api/v1/links', 'application/json', {
        url: 'https://a.example/',
        sensitive_content: true,
        disabled: false,
      }),
    ).toBeNull();
    expect(
      accepts('POST', '/api/v1/links', 'application/json', {
        url: 'https://a.example/',
        targets_type: null,
        space_id: null,
      }),
    ).toBeNull();
    expect(
      accepts('POST', '/api/v1/links', 'application/json', {
        url: 'https://a.example/',
        targets: [{ key: null, value: 'https://b.example/' }],
      }),
    ).toBeNull();
    expect(accepts('POST', '/api/v1/spaces', 'application/json', { name: 'A', color: null })).toBeNull();
    expect(
      accepts(
        'POST',
        '/api/v1/links',
        'application/x-www-form-urlencoded',
        'url=https://a.example/&sensitive_content=true&disabled=0&targets_type=&space_id=',
      ),
    ).toBeNull();
  });

  it('refuses a request body the document does not take, in a type it does not declare, or of the wrong size', () => {
    const refuses = (method: string, url: string, contentType: string, data: unknown) =>
      validator().requestProblem(method, url, { contentType, data });
    expect(
      refuses('POST', '/api/v1/links/bulk', 'application/json', { links: ['https://a.example/'] }),
    ).toMatch(/does not match/);
    expect(refuses('POST', '/api/v1/links/bulk', 'application/json', { links: [] })).toMatch(
      /does not match/,
    );
    const tooMany = Array.from({ length: 1001 }, () => ({ url: 'https://a.example/' }));
    expect(refuses('POST', '/api/v1/links/bulk', 'application/json', { links: tooMany })).toMatch(
      /does not match/,
    );
    expect(
      refuses('POST', '/api/v1/links', 'application/json', {
        url: 'https://a.example/',
        sensitive_content: 2,
      }),
    ).toMatch(/does not match/);
    expect(
      refuses(
        'POST',
        '/api/v1/links',
        'application/x-www-form-urlencoded',
        'url=https://a.example/&disabled=yes',
      ),
    ).toMatch(/does not match/);
    expect(refuses('POST', '/api/v1/spaces', 'application/xml', '<name>A</name>')).toMatch(
      /does not declare/,
    );
    expect(refuses('POST', '/api/v1/links/import', 'application/json', { links: [] })).toMatch(
      /does not declare/,
    );
    // A body where the operation takes none is ignored, by the service and by a validating proxy alike.
    expect(refuses('DELETE', '/api/v1/links/7', 'application/json', { id: 7 })).toBeNull();
  });

  it('checks the request of an accepted answer, through supertest, and leaves a refused one alone', () => {
    const check = checkAgainstDocument('post', '/api/v1/links/bulk');
    const answer = (status: number, body: unknown, data: unknown) =>
      ({
        status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body,
        request: { _data: data, _header: { 'content-type': 'application/json' } },
      }) as unknown as Pick<Response, 'status' | 'headers' | 'body' | 'request'>;
    const created = { data: [plainLink], status: 200 };
    expect(() => check(answer(201, created, { links: [{ url: 'https://a.example/' }] }))).not.toThrow();
    expect(() => check(answer(201, created, { links: [42] }))).toThrow(
      /accepted a request body that does not match/,
    );
    const refused = { message: { 'links.0': ['Each link must be an object of link fields.'] }, status: 422 };
    expect(() => check(answer(422, refused, { links: [42] }))).not.toThrow();
  });

  it('documents what a create or an update refuses besides the fields’ own rules', () => {
    const schemas = committedDocument().components!.schemas as Record<
      string,
      { properties: Record<string, { description?: string }> }
    >;
    for (const dto of ['CreateLinkDto', 'UpdateLinkDto']) {
      expect([dto, schemas[dto].properties.active_period_end_at.description]).toEqual([
        dto,
        expect.stringMatching(/active_period_start_at/),
      ]);
      expect([dto, schemas[dto].properties.active_period_start_at.description]).toEqual([
        dto,
        expect.stringMatching(/active_period_end_at/),
      ]);
    }
  });

  it('takes a literal path before a template, and leaves what the document does not describe', () => {
    expect(validator().operation('GET', '/api/v1/links/export?x=1')?.template).toBe('/api/v1/links/export');
    expect(validator().operation('GET', '/api/v1/links/12')?.template).toBe('/api/v1/links/{id}');
    expect(validator().problem('GET', '/some-alias', 302, 'text/html', '')).toBeNull();
  });
});

describe('A client typed from the document', () => {
  let t: TestApp;
  const api = apiClient(() => t);
  let directory: string;

  beforeAll(async () => {
    t = await createTestApp();
    directory = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  });

  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await t?.close();
  });

  /** Type errors of `program` against the types openapi-typescript generates from the committed document. */
  async function typeErrors(program: string): Promise<string[]> {
    const types = join(directory, 'api.d.ts');
    await run(bin('openapi-typescript'), [DOCUMENT_FILE, '--output', types], { cwd: ROOT, timeout: 60_000 });
    const file = join(directory, `client-${Date.now()}.ts`);
    writeFileSync(file, program);
    const compiled = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      skipLibCheck: true,
    });
    return ts
      .getPreEmitDiagnostics(compiled)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  }

  it('is the document the service serves at /docs-json, whose server is APP_URL', async () => {
    const served = await t.http().get('/docs-json').set('Host', 'localhost:3000');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(committedDocument());
    // Read from another origin, that origin first, so that the UI's "Try it out" stays on the same origin.
    const elsewhere = await t.http().get('/docs-json').set('Host', 'sho.rt.example:8080');
    expect(elsewhere.body).toEqual({
      ...committedDocument(),
      servers: [
        { url: 'http://sho.rt.example:8080', description: 'The server this document was read from' },
        { url: 'http://localhost:3000' },
      ],
    });
    const app = await NestFactory.create(AppModule, { preview: true, logger: false, abortOnError: false });
    expect(openApiDocument(app, 'https://sho.rt.example').servers).toEqual([
      { url: 'https://sho.rt.example' },
    ]);
    await app.close();
  });

  it('accepts the API’s real answers: a space, a link, a list and an error', async () => {
    const account = await createAccount(t);
    const space = await api.form(account, 'post', '/api/v1/spaces', { name: 'Typed', color: '3' });
    const link = await api.form(
      account,
      'post',
      '/api/v1/links',
      `url=https://example.com/&space_id=${space.body.data.id}&targets_type=countries&targets[0][key]=US&targets[0][value]=https://us.example/`,
    );
    expect(link.status).toBe(201);
    const list = await api.call(account, 'get', '/api/v1/links');
    const missing = await api.call(account, 'get', '/api/v1/links/2147483647');
    const json = (value: unknown) => JSON.stringify(value, null, 2);
    const program = `import type { paths } from './api';
type Body<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export const space: Body<'/api/v1/spaces', 'post', 201> = ${json(space.body)};
export const link: Body<'/api/v1/links', 'post', 201> = ${json(link.body)};
export const list: Body<'/api/v1/links', 'get', 200> = ${json(list.body)};
export const missing: Body<'/api/v1/links/{id}', 'get', 404> = ${json(missing.body)};
export const alias: string = link.data.alias;
export const country: string | undefined = link.data.targets?.[0].key;
`;
    expect(await typeErrors(program)).toEqual([]);
  });

  it('refuses what the API does not answer', async () => {
    const errors = await typeErrors(`import type { components } from './api';
export const space: components['schemas']['SpaceResponse'] = {
  id: '1', name: 'A', color: 9, links_count: 0, created_at: '', updated_at: '', extra: true,
};
`);
    expect(errors.length).toBeGreaterThan(0);
  });
});
