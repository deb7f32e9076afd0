import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppModule } from '../src/app.module';
import { serialiseDocument } from '../src/write-openapi';
import { DOCUMENT_FILE, generatedDocument } from './support/openapi-document';
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
