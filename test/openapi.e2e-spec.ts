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
    for (const [name, operation] of api) {
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

  it('reads bodies as JSON and as forms', () => {
    for (const [name, operation] of operations(document)) {
      if (operation.requestBody === undefined || name === 'POST /api/v1/links/import') continue;
      expect([name, Object.keys(operation.requestBody.content)]).toEqual([
        name,
        ['application/json', 'application/x-www-form-urlencoded'],
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
    expect(property('CreateLinkDto', 'sensitive_content')).toMatchObject({ type: 'integer', enum: [0, 1] });
    expect(property('CreateLinkDto', 'alias')).toMatchObject({ pattern: '^[A-Za-z0-9_-]+$', maxLength: 255 });
    expect(property('CreateLinkDto', 'active_period_start_at')).not.toHaveProperty('format');
    expect(property('CreateSpaceDto', 'name')).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 255,
    });
    expect(property('LinkResponse', 'created_at')).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('lists the response fields in the contract’s order', () => {
    const schemas = document.components!.schemas as Record<string, { properties: object }>;
    expect(Object.keys(schemas.LinkResponse.properties)).toEqual(
      'id alias url short_url title targets_type targets last_rotation sensitive_content privacy password redirect_password active_period_start_at active_period_end_at clicks_limit expiration_url clicks disabled space domain pixels expires_at created_at updated_at'.split(
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
