import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { appendFileSync } from 'node:fs';
import qs from 'qs';
import type { Response } from 'supertest';
import { committedDocument } from './openapi-document';

/*
 * Every request of the API that passes through a test app is checked against the OpenAPI document, as a
 * validating proxy would check it: the response's status must be declared for its operation and a JSON body must
 * match the declared schema; and a request the API accepted (a 2xx) must have sent a body the document accepts.
 * Requests that the API refused are left alone, since the suite sends many invalid ones on purpose. The suite's
 * own assertions check what each test is about; these check that the document tells the truth about all of it.
 *
 * The schemas are read as OpenAPI 3.0 defines them, with Ajv's own `nullable` keyword and nothing rewritten:
 * `nullable` lets null through only where the schema itself allows it (not beside a `$ref` in `allOf`, not past
 * an `enum` without null), and `additionalProperties` is what the document says.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** A JSON pointer's segment. */
export function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/**
 * Laravel's and the contract's form encoding: an empty value means null, and an empty entry of a list is none
 * (`pixel_ids[]=` sends an empty list, which a form cannot otherwise send).
 */
function emptyToNull(value: unknown): unknown {
  if (value === '') return null;
  if (Array.isArray(value)) return value.filter((item) => item !== '').map(emptyToNull);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, emptyToNull(item)]));
  }
  return value;
}

/** What a request sent, as the service reads it: JSON parsed, a form decoded with bracket notation. */
export interface SentBody {
  contentType: string;
  /** The body as sent: a string, or the object the client serialised. */
  data: unknown;
}

function newAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, ...(coerce ? { coerceTypes: 'array' } : {}) });
  addFormats(ajv);
  // What the document uses beyond JSON Schema's formats: annotations only.
  ajv.addFormat('password', true);
  ajv.addFormat('binary', true);
  return ajv;
}

export class ResponseValidator {
  /** JSON bodies, requests and responses: types as they are. */
  private readonly ajv = newAjv(false);
  /** Form bodies, whose values are all strings: coerced to the schema's types, as a validating proxy does. */
  private readonly formAjv = newAjv(true);
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object) {
    this.ajv.addSchema(document, 'openapi');
    this.formAjv.addSchema(structuredClone(document), 'openapi');
    const paths = (document as { paths: Record<string, Record<string, Operation>> }).paths;
    for (const [template, item] of Object.entries(paths)) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      for (const method of METHODS) {
        const operation = item[method];
        if (operation === undefined) continue;
        this.operations.push({
          method,
          template,
          pattern: new RegExp(`^${source}$`),
          params: (template.match(/\{/g) ?? []).length,
          requestBody: operation.requestBody,
          responses: operation.responses,
        });
      }
    }
    // A literal path wins over a template (`/links/export` over `/links/{id}`).
    this.operations.sort((a, b) => a.params - b.params);
  }

  /** The operation a request reached, or undefined when the document has none (visitor pages, /docs). */
  operation(method: string, url: string): Operation | undefined {
    const path = new URL(url, 'http://localhost').pathname;
    return this.operations.find(
      (operation) => operation.method === method.toLowerCase() && operation.pattern.test(path),
    );
  }

  private validator(ajv: Ajv, ref: string): ValidateFunction {
    const key = `${ajv === this.ajv ? 'json' : 'form'} ${ref}`;
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: ref });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with `value` as an instance of the document's component schema `name`, or null. */
  schemaProblem(name: string, value: unknown): string | null {
    return this.problemAt(`/components/schemas/${name}`, value, `not a ${name}`);
  }

  /** What is wrong with `value` as an instance of the schema at a JSON pointer into the document, or null. */
  problemAt(schemaPointer: string, value: unknown, what = `not valid at ${schemaPointer}`): string | null {
    const validate = this.validator(this.ajv, `openapi#${schemaPointer}`);
    return validate(value) ? null : `${what}: ${this.ajv.errorsText(validate.errors)}`;
  }

  /** What is wrong with a response, or null when the document declares it as it came. */
  problem(method: string, url: string, status: number, contentType: string, body: unknown): string | null {
    const operation = this.operation(method, url);
    if (operation === undefined) return null;
    const name = `${method.toUpperCase()} ${operation.template}`;
    const declared = operation.responses[String(status)];
    if (declared === undefined) {
      return `${name} answered ${status}, which the OpenAPI document does not declare for it`;
    }
    const type = mediaType(contentType);
    // An answer declared without a body (a redirect) comes without one.
    if (type === '' && declared.content === undefined) return null;
    const content = declared.content ?? {};
    if (!(type in content)) {
      return `${name} answered ${status} as ${type || 'no content type'}, which the document does not declare`;
    }
    if (type !== 'application/json') return null;
    const validate = this.validator(
      this.ajv,
      `openapi#/paths/${pointer(operation.template)}/${operation.method}/responses/${status}/content/${pointer(type)}/schema`,
    );
    if (validate(body)) return null;
    return `${name} answered ${status} with a body that does not match the document: ${this.ajv.errorsText(
      validate.errors,
      { dataVar: 'body' },
    )}\n${JSON.stringify(body).slice(0, 2000)}`;
  }

  /**
   * What is wrong with the body of a request the API accepted, or null when the document accepts it too: its
   * content type must be one the operation declares, and what it says must match that type's schema.
   */
  requestProblem(method: string, url: string, sent: SentBody | null): string | null {
    const operation = this.operation(method, url);
    if (operation === undefined) return null;
    const name = `${method.toUpperCase()} ${operation.template}`;
    const declared = operation.requestBody;
    if (sent === null) {
      return declared?.required === true ? `${name} accepted no body, which the document requires` : null;
    }
    // An operation without a body ignores one, as a validating proxy does.
    if (declared === undefined) return null;
    const type = mediaType(sent.contentType);
    if (!(type in declared.content)) {
      return `${name} accepted a body as ${type || 'no content type'}, which the document does not declare`;
    }
    // A file sent as its bytes (a logo) is, to its schema, a string of them (`format: binary`).
    let body: unknown = Buffer.isBuffer(sent.data) ? sent.data.toString('latin1') : sent.data;
    let ajv = this.ajv;
    if (type === 'application/json') {
      body = typeof body === 'string' ? JSON.parse(body) : structuredClone(body);
    } else if (type === 'application/x-www-form-urlencoded') {
      const text =
        typeof body === 'string' ? body : qs.stringify(body, { indices: false, strictNullHandling: true });
      body = emptyToNull(qs.parse(text, { allowPrototypes: true, arrayLimit: 1000, depth: 32 }));
      ajv = this.formAjv;
    }
    const validate = this.validator(
      ajv,
      `openapi#/paths/${pointer(operation.template)}/${operation.method}/requestBody/content/${pointer(type)}/schema`,
    );
    if (validate(body)) return null;
    return `${name} accepted a request body that does not match the document: ${ajv.errorsText(
      validate.errors,
      {
        dataVar: 'body',
      },
    )}\n${JSON.stringify(body).slice(0, 2000)}`;
  }
}

let shared: ResponseValidator | undefined;

/** One validator per test process, on the committed document (a test keeps it equal to the code's). */
export function responseValidator(): ResponseValidator {
  shared ??= new ResponseValidator(committedDocument());
  return shared;
}

const offDocumentRequests = new WeakSet<object>();

/**
 * Marks a request that the API accepts although the document does not promise it, a tolerance a test checks on
 * purpose (spaces around a value, a digit string in JSON): its body is not checked against the document.
 */
export function offDocument<T extends object>(test: T, off = true): T {
  if (off) offDocumentRequests.add(test);
  return test;
}

/** The body a supertest request sent, read from its request, or null when it sent none. */
function sentBody(response: Pick<Response, 'request'>): SentBody | null {
  const request = response.request as unknown as
    { _data?: unknown; _header?: Record<string, string> } | undefined;
  const data = request?._data;
  if (data === undefined || data === null || data === '') return null;
  return { contentType: request?._header?.['content-type'] ?? '', data };
}

/**
 * Checks a request and its response as a supertest assertion, so that a mismatch fails the request's `await`
 * with its reason. With OPENAPI_RESPONSE_LOG set, each checked response is also written there, one line each.
 */
export function checkAgainstDocument(method: string, url: string) {
  return (
    response: Pick<Response, 'status' | 'headers' | 'body'> & Partial<Pick<Response, 'request'>>,
  ): void => {
    const validator = responseValidator();
    if (validator.operation(method, url) === undefined) return;
    const problem =
      validator.problem(
        method,
        url,
        response.status,
        String(response.headers['content-type'] ?? ''),
        response.body,
      ) ??
      (response.status >= 200 &&
      response.status < 300 &&
      response.request !== undefined &&
      !offDocumentRequests.has(response.request)
        ? validator.requestProblem(method, url, sentBody(response as Pick<Response, 'request'>))
        : null);
    if (problem !== null) throw new Error(problem);
    const log = process.env.OPENAPI_RESPONSE_LOG;
    if (log !== undefined)
      appendFileSync(
        log,
        `${method.toUpperCase()} ${new URL(url, 'http://localhost').pathname} ${response.status}\n`,
      );
  };
}
