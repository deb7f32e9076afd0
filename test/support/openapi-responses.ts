import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { appendFileSync } from 'node:fs';
import type { Response } from 'supertest';
import { committedDocument } from './openapi-document';

/*
 * Every response of the API that passes through a test app is checked against the OpenAPI document: its status
 * must be declared for its operation, and a JSON body must match the declared schema. The suite's own
 * assertions check what each test is about; these check that the document tells the truth about all of it.
 */

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * OpenAPI 3.0's schemas as JSON Schema, for Ajv: `nullable` becomes a `null` type (or an `anyOf` around a
 * reference), and an object lists all its properties, so that a field the document does not know is an error.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const converted: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // Examples are data, not schemas: they are left as they are.
    converted[key] = key === 'example' ? value : toJsonSchema(value);
  }
  if (
    'properties' in converted &&
    typeof converted.properties === 'object' &&
    !('additionalProperties' in converted)
  ) {
    converted.additionalProperties = false;
  }
  if (converted.nullable !== true) return converted;
  delete converted.nullable;
  if (typeof converted.type === 'string' && !('allOf' in converted) && !('anyOf' in converted)) {
    converted.type = [converted.type, 'null'];
    if (Array.isArray(converted.enum)) converted.enum = [...(converted.enum as unknown[]), null];
    return converted;
  }
  const { description, ...rest } = converted;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** A JSON pointer's segment. */
function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    // What the document uses beyond JSON Schema's formats: annotations only.
    this.ajv.addFormat('password', true);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(toJsonSchema(document) as Json, 'openapi');
    const paths = (document as { paths: Record<string, Record<string, Operation['responses']>> }).paths;
    for (const [template, item] of Object.entries(paths)) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      for (const method of METHODS) {
        const operation = item[method] as unknown as { responses: Operation['responses'] } | undefined;
        if (operation === undefined) continue;
        this.operations.push({
          method,
          template,
          pattern: new RegExp(`^${source}$`),
          params: (template.match(/\{/g) ?? []).length,
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

  /** What is wrong with a response, or null when the document declares it as it came. */
  problem(method: string, url: string, status: number, contentType: string, body: unknown): string | null {
    const operation = this.operation(method, url);
    if (operation === undefined) return null;
    const name = `${method.toUpperCase()} ${operation.template}`;
    const declared = operation.responses[String(status)];
    if (declared === undefined) {
      return `${name} answered ${status}, which the OpenAPI document does not declare for it`;
    }
    const type = contentType.split(';')[0].trim();
    const content = declared.content ?? {};
    if (!(type in content)) {
      return `${name} answered ${status} as ${type || 'no content type'}, which the document does not declare`;
    }
    if (type !== 'application/json') return null;
    const ref = `openapi#/paths/${pointer(operation.template)}/${operation.method}/responses/${status}/content/${pointer(type)}/schema`;
    let validate = this.compiled.get(ref);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(body)) return null;
    return `${name} answered ${status} with a body that does not match the document: ${this.ajv.errorsText(
      validate.errors,
      { dataVar: 'body' },
    )}\n${JSON.stringify(body).slice(0, 2000)}`;
  }
}

let shared: ResponseValidator | undefined;

/** One validator per test process, on the committed document (a test keeps it equal to the code's). */
export function responseValidator(): ResponseValidator {
  shared ??= new ResponseValidator(committedDocument());
  return shared;
}

/**
 * Checks a response as a supertest assertion, so that a mismatch fails the request's `await` with its reason.
 * With OPENAPI_RESPONSE_LOG set, each checked response is also written there, one line each, to count them.
 */
export function checkAgainstDocument(method: string, url: string) {
  return (response: Pick<Response, 'status' | 'headers' | 'body'>): void => {
    const validator = responseValidator();
    if (validator.operation(method, url) === undefined) return;
    const problem = validator.problem(
      method,
      url,
      response.status,
      String(response.headers['content-type'] ?? ''),
      response.body,
    );
    if (problem !== null) throw new Error(problem);
    const log = process.env.OPENAPI_RESPONSE_LOG;
    if (log !== undefined)
      appendFileSync(
        log,
        `${method.toUpperCase()} ${new URL(url, 'http://localhost').pathname} ${response.status}\n`,
      );
  };
}
