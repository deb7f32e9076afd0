import { SpanKind } from '@opentelemetry/api';
import { isWrapped, type InstrumentationBase } from '@opentelemetry/instrumentation';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import http from 'node:http';
import pg from 'pg';
import { startTracing, type Tracing } from '../src/tracing/tracing';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestApp } from './support/app';
import { LINKS } from './support/links';

/**
 * Jest loads modules through a registry of its own, which the instrumentations' require hooks do not see: the modules
 * the app uses are patched here as main.ts's early start patches them in production, and unpatched after.
 */
function patchLoaded(instrumentations: InstrumentationBase[]): () => void {
  const loaded: Record<string, object> = { http, pg };
  const undo: (() => void)[] = [];
  for (const instrumentation of instrumentations) {
    for (const definition of instrumentation.getModuleDefinitions()) {
      const exports = loaded[definition.name];
      if (exports === undefined || definition.patch === undefined) continue;
      if (definition.name === 'http' && isWrapped(http.Server.prototype.emit)) continue;
      definition.patch(exports);
      undo.push(() => definition.unpatch?.(exports));
    }
  }
  return () => undo.forEach((step) => step());
}

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';

describe('traces', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let unpatch: () => void;
  let t: TestApp;
  const { call, form } = apiClient(() => t);

  beforeAll(async () => {
    // A visit with no caller's trace is not among the sampled ones: 0.5 is above the default ratio.
    const saved = process.env.OTEL_SERVICE_NAME;
    process.env.OTEL_SERVICE_NAME = 'shortlink-test';
    try {
      tracing = startTracing({ exporter, env: {}, random: () => 0.5 });
    } finally {
      if (saved === undefined) delete process.env.OTEL_SERVICE_NAME;
      else process.env.OTEL_SERVICE_NAME = saved;
    }
    unpatch = patchLoaded(tracing.instrumentations);
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    unpatch?.();
    await tracing?.shutdown();
  });
  beforeEach(() => exporter.reset());

  const servers = () => exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
  const childrenOf = (parent: ReadableSpan) =>
    exporter
      .getFinishedSpans()
      .filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
  /** The spans under `parent`, however deep. */
  const under = (parent: ReadableSpan): ReadableSpan[] =>
    childrenOf(parent).flatMap((child) => [child, ...under(child)]);

  async function createdLink(): Promise<{ id: number; alias: string }> {
    const account = await createAccount(t);
    const created = await form(account, 'post', LINKS, { url: 'https://example.com/traced' });
    expect(created.status).toBe(201);
    exporter.reset();
    const { id, alias } = created.body.data as { id: number; alias: string };
    return { id, alias };
  }

  it('makes a server span per API request, named by its route, with its queries as child spans', async () => {
    const account = await createAccount(t);
    const created = await form(account, 'post', LINKS, { url: 'https://example.com/traced' });
    const id = (created.body.data as { id: number }).id;
    exporter.reset();

    const read = await call(account, 'get', `${LINKS}/${id}`);
    expect(read.status).toBe(200);

    const [server] = servers();
    expect(servers()).toHaveLength(1);
    expect(server.name).toBe('GET /api/v1/links/:id');
    expect(server.attributes['http.route']).toBe('/api/v1/links/:id');
    expect(server.attributes['http.response.status_code']).toBe(200);
    expect(server.resource.attributes['service.name']).toBe('shortlink-test');
    const queries = under(server).filter(
      (span) => span.attributes['db.system.name'] ?? span.attributes['db.system'],
    );
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((span) => span.spanContext().traceId === server.spanContext().traceId)).toBe(true);
  });

  it('gives the status of a request that fails', async () => {
    const account = await createAccount(t);
    expect((await call(account, 'get', `${LINKS}/999999999`)).status).toBe(404);
    const [server] = servers();
    expect(server.attributes['http.route']).toBe('/api/v1/links/:id');
    expect(server.attributes['http.response.status_code']).toBe(404);
  });

  it("continues the caller's trace from its traceparent", async () => {
    const account = await createAccount(t);
    const list = await call(account, 'get', LINKS).set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`);
    expect(list.status).toBe(200);
    const [server] = servers();
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(server.attributes['http.route']).toBe('/api/v1/links');
    expect(under(server).length).toBeGreaterThan(0);
  });

  it('traces a visit only when sampled: not by default, yes under a sampled caller', async () => {
    const { alias } = await createdLink();
    expect((await t.http().get(`/${alias}`)).status).toBe(302);
    expect(servers()).toHaveLength(0);
    expect(exporter.getFinishedSpans()).toHaveLength(0);

    // The caller's trace is not sampled: neither is the visit.
    await t.http().get(`/${alias}`).set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-00`);
    expect(servers()).toHaveLength(0);

    await t.http().get(`/${alias}`).set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`);
    const [server] = servers();
    expect(server.name).toBe('GET /:alias');
    expect(server.attributes['http.route']).toBe('/:alias');
    expect(server.spanContext().traceId).toBe(TRACE_ID);
  });
});
