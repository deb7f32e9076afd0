import type { OpenAPIObject } from '@nestjs/swagger';
import { Secret, TOTP } from 'otpauth';
import { PNG } from 'pngjs';
import qs from 'qs';
import type { Response, Test } from 'supertest';
import {
  DEFAULT_WEBHOOK_SEND_OPTIONS,
  WEBHOOK_SEND_OPTIONS,
  type WebhookSendOptions,
} from '../src/events/webhooks/webhook-sender';
import { MembersService } from '../src/people/members.service';
import { UsersService } from '../src/people/users.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { committedDocument } from './support/openapi-document';
import { pointer, ResponseValidator } from './support/openapi-responses';
import { unique } from './support/visitors';

/*
 * The document's examples are requests the service accepts, as a generator of contract tests builds them from the
 * document alone: each request body from its media type's `example`, and from its schema's examples assembled into
 * an object (what a tool that reads only schemas sends); each query parameter that has an example, with it. Only
 * the ids in a path are the test's own, of resources it made first. Every answer must be a 2xx, and the checked
 * agent of the test app holds the request and the answer to the document.
 */

type Node = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: Node;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Node; example?: unknown; examples?: Node }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The schema a reference names, or the schema itself. */
function resolved(document: OpenAPIObject, schema: Node): Node {
  let current = schema;
  while (typeof current.$ref === 'string') {
    const name = current.$ref.split('/').pop()!;
    current = (document.components!.schemas as Record<string, Node>)[name];
  }
  return current;
}

/** Whether a schema allows nothing but null: the null branch of a nullable reference. */
function onlyNull(schema: Node): boolean {
  return Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null;
}

/**
 * A value for `schema` as an example-driven generator makes one: the schema's own example, else its default,
 * else its first allowed value; an object of its required properties and of those that carry an example; a
 * list of one item. Only what no example covers is made up from the type.
 */
function sampled(document: OpenAPIObject, given: Node): unknown {
  const schema = resolved(document, given);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const choices = schema[key] as Node[] | undefined;
    if (choices !== undefined)
      return sampled(
        document,
        choices.find((choice) => !onlyNull(choice))!,
      );
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Node[]).map((part) => sampled(document, part)));
  }
  if (schema.type === 'object' || schema.properties !== undefined) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const properties = Object.entries((schema.properties as Record<string, Node> | undefined) ?? {});
    return Object.fromEntries(
      properties
        .filter(([name, property]) => required.has(name) || hasExample(document, property))
        .map(([name, property]) => [name, sampled(document, property)]),
    );
  }
  if (schema.type === 'array') return [sampled(document, schema.items as Node)];
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 0;
  if (schema.type === 'boolean') return true;
  return 'string';
}

/** Whether a property, or what it refers to, carries an example of its own. */
function hasExample(document: OpenAPIObject, schema: Node): boolean {
  return resolved(document, schema).example !== undefined;
}

type Media = { schema?: Node; example?: unknown; examples?: Node };

/**
 * What no document can give an example of: a one-time token the service made (an invitation's, a reset's), the
 * email of a new user (each is made once), a workspace of the person who asks. A generator's run gets them the
 * way a person does, from a mail or an earlier answer; the test puts its own in their place.
 */
type Own = (body: Node) => Promise<Node>;

/** The person's own routes: a key, which is no person, is refused them; the test sends a person's session. */
const PERSON_OPERATIONS = new Set([
  'updateUser',
  'replaceUser',
  'switchWorkspace',
  'confirmTwoFactor',
  'disableTwoFactor',
  'renewRecoveryCodes',
  'addPasskey',
  'setTwoFactorRequirement',
]);

/**
 * Bodies only a device makes: a passkey's answer is signed by an authenticator over a challenge of the moment, so
 * an example can only show its shape; the service answers it with the one refusal it owes, on `response`.
 */
const DEVICE_MADE = new Set(['addPasskey', 'createPasskeySession']);

/** Where a body comes from: the media type's own example, or its schema's fields' examples. */
type Source = 'its example' | 'its fields’ examples';

const SOURCES: Source[] = ['its example', 'its fields’ examples'];
const SCHEMA_ONLY: Source[] = ['its fields’ examples'];

/** The media type's own example, or its first named one. */
function mediaExample(media: Media): unknown {
  if (media.example !== undefined) return media.example;
  return (Object.values(media.examples ?? {})[0] as { value?: unknown } | undefined)?.value;
}

/**
 * The body a generator sends for a media type: its own example where it has one; else, and for a tool that reads
 * only schemas, the schema's fields' examples.
 */
function exampleBody(document: OpenAPIObject, media: Media, source: Source): unknown {
  return source === 'its example' ? mediaExample(media) : sampled(document, media.schema ?? {});
}

/** Multipart fields in bracket notation, as a form names them. */
function formFields(body: unknown): [string, string][] {
  return qs
    .stringify(body, { encode: false, strictNullHandling: false })
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    });
}

/**
 * A file of each media type the API reads as the body itself, where the schema is binary (`format: binary`): a
 * generator has no example to take there, and sends a file of the type.
 */
const FILES: Record<string, Buffer> = {
  'image/png': PNG.sync.write(new PNG({ width: 8, height: 8 })),
  'image/svg+xml': Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  ),
};

/** The file a generator sends for a binary schema of `type`; undefined for any other schema. */
function binaryFile(type: string, media: Media): Buffer | undefined {
  if (media.schema?.format !== 'binary') return undefined;
  const file = FILES[type];
  if (file === undefined) throw new Error(`no file to send as ${type}`);
  return file;
}

/** The request for one media type's example body. */
function withBody(test: Test, type: string, body: unknown): Test {
  if (Buffer.isBuffer(body)) return test.set('Content-Type', type).send(body);
  if (type === 'application/json') return test.type('json').send(JSON.stringify(body));
  if (type === 'application/x-www-form-urlencoded') {
    return test.type('form').send(qs.stringify(body, { strictNullHandling: false }));
  }
  if (type === 'multipart/form-data') {
    return formFields(body).reduce((request, [name, value]) => request.field(name, value), test);
  }
  if (typeof body !== 'string') throw new Error(`no text example to send as ${type}`);
  return test.set('Content-Type', type).send(body);
}

/** The resource a path's id belongs to, by the segment before it. */
function resourceOf(path: string): string {
  const segment = /\/api\/v1\/([\w-]+)\/\{/.exec(path)?.[1];
  if (segment === undefined) throw new Error(`no resource for the id of ${path}`);
  return segment === 'stats' ? 'links' : segment;
}

/** The ids of what a create made, deleted after it so that the example's unique values (a host) are free again. */
function createdIds(response: Response): number[] {
  const data = (response.body as { data?: unknown }).data;
  const items = Array.isArray(data) ? data : [data];
  return items.flatMap((item) =>
    typeof item === 'object' && item !== null && typeof (item as Node).id === 'number'
      ? [(item as Node).id as number]
      : [],
  );
}

/**
 * Every example of the document, with the pointer of the schema it must match: a schema's own, a parameter's
 * (its schema), a media type's (its schema).
 */
function examples(node: unknown, at = ''): { at: string; schemaAt: string; example: unknown }[] {
  if (typeof node !== 'object' || node === null) return [];
  const found = Object.entries(node).flatMap(([key, value]) => examples(value, `${at}/${pointer(key)}`));
  const { example } = node as Node;
  if (example === undefined || Array.isArray(node)) return found;
  const isMediaType = /\/(requestBody|responses\/[^/]+)\/content\/[^/]+$/.test(at);
  const isParameter = 'in' in node && 'name' in node;
  const schemaAt = isMediaType || isParameter ? `${at}/schema` : at;
  return [{ at, schemaAt, example }, ...found];
}

describe('The OpenAPI document’s examples', () => {
  let t: TestApp;
  let account: TestAccount;
  const { call, json } = apiClient(() => t);
  const document = committedDocument();
  /** The test's own resources, by path segment, whose ids stand in for a path's `{id}`. */
  const ids: Record<string, number> = {};
  /** The session of a person (an owner of the account), for the person's own routes. */
  let cookie = '';
  let own: Record<string, Own> = {};
  const PASSWORD = 'correct horse battery';

  beforeAll(async () => {
    // The examples name public hosts (example.com): they resolve to a public address here, with no DNS.
    const send: WebhookSendOptions = {
      ...DEFAULT_WEBHOOK_SEND_OPTIONS,
      resolve: () => Promise.resolve(['93.184.215.14']),
      timeoutMs: 1000,
    };
    t = await createTestApp(
      { RATE_LIMIT_PER_MINUTE: '0', REGISTRATION: 'open' },
      { override: (builder) => builder.overrideProvider(WEBHOOK_SEND_OPTIONS).useValue(send) },
    );
    account = await createAccount(t, 'OpenAPI examples');
    const made = async (path: string, body: Node) => {
      const response = await json(account, 'post', `/api/v1/${path}`, body);
      expect([path, response.status]).toEqual([path, 201]);
      ids[path] = (response.body as { data: { id: number } }).data.id;
    };
    await made('spaces', { name: 'Examples' });
    await made('pixels', { name: 'Examples', type: 'google-tag-manager', value: 'GTM-EXAMPLE' });
    await made('domains', { name: `${unique('examples')}.sho.rt.example` });
    await made('links', { url: 'https://example.com/' });
    await made('keys', { name: 'Examples', scopes: ['links.read'] });
    await made('webhooks', { name: 'Examples', url: 'https://example.com/hook', events: ['link.created'] });
    await made('invitations', { email: 'examples@example.com', role: 'viewer' });
    await made('utm-templates', { name: 'Examples', utm_source: 'examples' });
    await made('tags', { name: 'Examples' });
    const users = t.app.get(UsersService);
    const members = t.app.get(MembersService);
    const { user } = await users.createOrSetPassword({ email: 'member@examples.test', password: PASSWORD });
    await members.add(account.id, user.id, 'viewer');
    ids.members = user.id;
    const { user: person } = await users.createOrSetPassword({
      email: 'person@examples.test',
      password: PASSWORD,
    });
    await members.add(account.id, person.id, 'owner');
    const signedIn = await t
      .http()
      .post('/api/v1/session')
      .send({ email: 'person@examples.test', password: PASSWORD });
    cookie = String(([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0]).split(';')[0];
    let serial = 0;
    const freshLinks = async (count: number) => {
      const response = await json(account, 'post', '/api/v1/links/bulk', {
        links: Array.from({ length: count }, () => ({ url: 'https://example.com/' })),
      });
      expect(response.status).toBe(201);
      return (response.body as { data: { id: number }[] }).data.map((link) => link.id);
    };
    own = {
      acceptInvitation: async (body) => {
        const invited = await members.invite(null, account.id, {
          email: `invited-${++serial}@examples.test`,
          role: 'viewer',
        });
        return { ...body, token: new URL(invited.accept_url).searchParams.get('token') };
      },
      resetPassword: async (body) => {
        const link = await users.resetLink('member@examples.test');
        return { ...body, token: new URL(link!).searchParams.get('token') };
      },
      register: (body) => Promise.resolve({ ...body, email: `registered-${++serial}@examples.test` }),
      // A bulk change or delete names links of the test's own, made for it: a deleted one is gone for the next.
      updateLinks: async (body) => ({ ...body, ids: await freshLinks(2) }),
      deleteLinks: async (body) => ({ ...body, ids: await freshLinks(2) }),
      switchWorkspace: (body) => Promise.resolve({ ...body, workspace_id: account.id }),
      // A code of the app, for a secret being set up, as the person's app would show it.
      confirmTwoFactor: async (body) => {
        const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
        await t.dataSource.query(
          'UPDATE users SET totp_secret = NULL, totp_pending_secret = $1 WHERE id = $2',
          [secret, person.id],
        );
        return { ...body, otp: new TOTP({ secret: Secret.fromBase32(secret) }).generate() };
      },
      // New codes are for a person with two-factor on.
      renewRecoveryCodes: async (body) => {
        await t.dataSource.query(
          `UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' WHERE id = $1`,
          [person.id],
        );
        return body;
      },
      // Each run starts where a workspace does, requiring nothing.
      setTwoFactorRequirement: async (body) => {
        await t.dataSource.query('UPDATE accounts SET require_two_factor = false WHERE id = $1', [
          account.id,
        ]);
        return body;
      },
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The example body of a create, as a generator builds it from `source`. */
  function exampleOf(path: string, type: string, source: Source): unknown {
    const operation = (document.paths[path] as Record<string, Operation>).post;
    return exampleBody(document, operation.requestBody!.content[type], source);
  }

  /** Each request the document's examples make, named by its operation and media type. */
  const requests = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (operation === undefined) return [];
      const withExamples = (operation.parameters ?? []).filter(
        (parameter) =>
          parameter.in === 'query' &&
          (parameter.required === true ||
            parameter.example !== undefined ||
            (parameter.schema !== undefined && hasExample(document, parameter.schema))),
      );
      const content = operation.requestBody?.content ?? {};
      const bodies = Object.entries(content).flatMap(([type, media]) =>
        (mediaExample(media) === undefined ? SCHEMA_ONLY : SOURCES).map((source) => ({
          type,
          body: binaryFile(type, media) ?? exampleBody(document, media, source),
          source: `, ${type}, ${source}`,
        })),
      );
      if (bodies.length === 0 && withExamples.length === 0) return [];
      return (bodies.length === 0 ? [{ type: undefined, body: undefined, source: '' }] : bodies).map(
        ({ type, body, source }) => ({
          name: `${operation.operationId} (${method.toUpperCase()} ${path}${source})`,
          method,
          path,
          type,
          body,
          query: withExamples,
        }),
      );
    }),
  );

  it('each match the schema they illustrate, in requests and in responses alike', () => {
    const validator = new ResponseValidator(document);
    const all = examples(document);
    expect(all.length).toBeGreaterThan(50);
    const problems = all.flatMap(({ at, schemaAt, example }) => {
      const problem = validator.problemAt(schemaAt, example, at);
      return problem === null ? [] : [problem];
    });
    expect(problems).toEqual([]);
  });

  it.each(SOURCES)(
    'make links that can be made again, one after another, as a run of the examples sends them: %s',
    async (source) => {
      const form = 'application/x-www-form-urlencoded';
      const bodies: [string, string, unknown][] = [
        ['/api/v1/links', 'application/json', exampleOf('/api/v1/links', 'application/json', source)],
        [
          '/api/v1/links/bulk',
          'application/json',
          exampleOf('/api/v1/links/bulk', 'application/json', source),
        ],
        [
          '/api/v1/links/import',
          'text/csv',
          exampleOf('/api/v1/links/import', 'text/csv', 'its fields’ examples'),
        ],
        ['/api/v1/links', form, exampleOf('/api/v1/links', form, source)],
      ];
      for (const [path, type, body] of bodies) {
        const response = await withBody(call(account, 'post', path), type, body);
        const message = (response.body as { message?: unknown }).message;
        expect([path, type, response.status, message]).toEqual([path, type, 201, undefined]);
      }
    },
  );

  it('make a request of every operation that takes a body or has query examples', () => {
    expect(requests.map((request) => request.name)).toEqual(
      expect.arrayContaining([
        'createLink (POST /api/v1/links, application/json, its example)',
        'createLink (POST /api/v1/links, application/x-www-form-urlencoded, its fields’ examples)',
        'createLinks (POST /api/v1/links/bulk, application/json, its example)',
        'createKey (POST /api/v1/keys, application/json, its example)',
        'importLinks (POST /api/v1/links/import, text/csv, its fields’ examples)',
        'showLinkQrCode (GET /api/v1/links/{id}/qr)',
      ]),
    );
  });

  it.each(requests.map((request) => [request.name, request] as const))(
    'are accepted: %s',
    async (name, { method, path, type, query, ...request }) => {
      const operation = name.split(' ')[0];
      const body = own[operation] === undefined ? request.body : await own[operation](request.body as Node);
      const url = path.replace(/\{\w+\}/g, () => String(ids[resourceOf(path)]));
      const search = qs.stringify(
        Object.fromEntries(
          query.map((parameter) => [
            parameter.name,
            parameter.example ?? sampled(document, parameter.schema ?? {}),
          ]),
        ),
      );
      const target = search === '' ? url : `${url}?${search}`;
      let test = PERSON_OPERATIONS.has(operation)
        ? t.http()[method](target).set('Cookie', cookie).set('X-Shortlink-Session', '1')
        : call(account, method, target);
      if (type !== undefined) test = withBody(test, type, body);
      const response = await test;
      const message = (response.body as { message?: unknown }).message;
      if (DEVICE_MADE.has(operation)) {
        expect(`${response.status} ${Object.keys(message ?? {}).join(',')}`).toBe('422 response');
        return;
      }
      expect(`${String(response.status).slice(0, 1)}xx ${JSON.stringify(message ?? '')}`).toBe('2xx ""');
      if (method === 'post' && response.status === 201) {
        const made = path.replace(/^\/api\/v1\//, '').replace(/\/.*$/, '');
        for (const id of createdIds(response)) {
          const removed = await call(account, 'delete', `/api/v1/${made}/${id}`);
          expect(removed.status).toBe(200);
        }
      }
    },
  );
});
