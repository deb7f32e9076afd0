import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations, type InstrumentationBase } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { redirectRatio, routeOf, untracedRequests } from './settings';

/**
 * The OpenTelemetry SDK, started only when traces are on (see start.ts): a span per HTTP request, named by its route
 * pattern, with a child span per database query; W3C `traceparent` in and out. The standard variables configure it:
 * the OTLP exporter reads `OTEL_EXPORTER_OTLP_*`, the provider `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`,
 * the resource `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
 */

export interface TracingOptions {
  /** Where the spans go: the OTLP exporter, batched, unless given (a test's in-memory exporter, sent at once). */
  exporter?: SpanExporter;
  /** The settings of this module's own (`TRACE_REDIRECT_RATIO`); the SDK reads the standard ones from process.env. */
  env?: NodeJS.ProcessEnv;
  /** For tests: decides the visits traced without a caller's trace (see `untracedRequests`). */
  random?: () => number;
}

export interface Tracing {
  /** The instrumentations registered: they patch `http` and `pg` as they are required. */
  instrumentations: InstrumentationBase[];
  /** Sends the spans still buffered, then stops the SDK. */
  shutdown(): Promise<void>;
}

/** Registers the tracer provider and the instrumentations: call it before `http` or `pg` is required. */
export function startTracing(options: TracingOptions = {}): Tracing {
  const env = options.env ?? process.env;
  const ratio = redirectRatio(env);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'shortlink' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const processor =
    options.exporter === undefined
      ? new BatchSpanProcessor(new OTLPTraceExporter())
      : new SimpleSpanProcessor(options.exporter);
  // No sampler given: the provider takes OTEL_TRACES_SAMPLER and its argument (parentbased_always_on by default).
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register({ propagator: new W3CTraceContextPropagator() });

  const instrumentations: InstrumentationBase[] = [
    new HttpInstrumentation({
      // Requests the service sends (titles, webhooks) are traced within a traced request only.
      requireParentforOutgoingSpans: true,
      ignoreIncomingRequestHook: untracedRequests(ratio, options.random),
      // The span is named by the route pattern the request matched, not by its path.
      applyCustomAttributesOnSpan: (span, request) => {
        if (!('url' in request)) return;
        const route = routeOf(request);
        if (route === undefined) return;
        span.setAttribute('http.route', route);
        span.updateName(`${request.method ?? 'GET'} ${route}`);
      },
    }),
    // Queries outside a traced request (the background workers) make no trace of their own.
    new PgInstrumentation({ requireParentSpan: true }),
  ];
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations });

  return {
    instrumentations,
    shutdown: async () => {
      unregister();
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}
