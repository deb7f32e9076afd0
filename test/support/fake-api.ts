import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RecordedRequest } from '../fixtures/openapi/conformance';
import { closeServer, listenOnLoopback } from './http-server';

/** A JSON answer, `application/json` unless said otherwise (a problem document). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  response.writeHead(status, { 'content-type': contentType, ...headers });
  response.end(JSON.stringify(body));
}

/** How a fake refuses in its product's words: a 429's body (and its type), and a body that is not JSON. */
export interface FakeApiRefusals {
  tooManyRequests: object;
  errorType?: string;
  malformed: string;
}

/**
 * What every stand-in for a third party's API shares: a server on a free loopback port, every request recorded
 * for the OpenAPI check, and the next request answered once with a 429 (Retry-After) or with a body that is not
 * JSON. A fake answers the rest from its options.
 */
export abstract class FakeApi<Options> {
  /** Every request, in order, as the OpenAPI check reads them. */
  readonly requests: RecordedRequest[] = [];
  url = '';
  private server: Server | null = null;
  private next: ((response: ServerResponse) => void) | null = null;

  protected constructor(
    protected readonly options: Options,
    private readonly refusals: FakeApiRefusals,
  ) {}

  protected static async serve<T extends FakeApi<unknown>>(fake: T): Promise<T> {
    const server = createServer((request, response) => fake.receive(request, response));
    fake.server = server;
    fake.url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
    return fake;
  }

  /** The next request gets a 429 with `Retry-After: seconds`. */
  rateLimitOnce(seconds: number): void {
    this.next = (response) =>
      sendJson(
        response,
        429,
        this.refusals.tooManyRequests,
        { 'retry-after': String(seconds) },
        this.refusals.errorType,
      );
  }

  /** The next request gets a 200 whose body is not JSON. */
  malformedOnce(): void {
    this.next = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(this.refusals.malformed);
    };
  }

  close(): Promise<void> {
    return this.server === null ? Promise.resolve() : closeServer(this.server);
  }

  protected abstract answer(request: IncomingMessage, response: ServerResponse, url: URL): void;

  private receive(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.url);
    this.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: [...url.searchParams.keys()],
    });
    const once = this.next;
    this.next = null;
    if (once !== null) return once(response);
    this.answer(request, response, url);
  }
}
