import type { IncomingMessage } from 'node:http';
import { parentSampled, redirectRatio, routeOf, tracingWanted, untracedRequests } from './settings';

const request = (method: string, url: string, traceparent?: string) =>
  ({ method, url, headers: traceparent === undefined ? {} : { traceparent } }) as unknown as IncomingMessage;
const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331';

describe('tracing settings', () => {
  it('is on only with an OTLP endpoint, and off when the SDK or the exporter is turned off', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'shortlink' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(
      false,
    );
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBe(false);
  });

  it('reads the share of visits traced', () => {
    expect(redirectRatio({})).toBe(0.01);
    expect(redirectRatio({ TRACE_REDIRECT_RATIO: '0.25' })).toBe(0.25);
    expect(redirectRatio({ TRACE_REDIRECT_RATIO: '0' })).toBe(0);
    expect(() => redirectRatio({ TRACE_REDIRECT_RATIO: '2' })).toThrow('TRACE_REDIRECT_RATIO');
    expect(() => redirectRatio({ TRACE_REDIRECT_RATIO: 'half' })).toThrow('TRACE_REDIRECT_RATIO');
  });

  it("reads a traceparent's sampled flag", () => {
    expect(parentSampled(`${PARENT}-01`)).toBe(true);
    expect(parentSampled(`${PARENT}-00`)).toBe(false);
    expect(parentSampled('garbage')).toBeUndefined();
    expect(parentSampled(undefined)).toBeUndefined();
  });

  it('traces the API always, visits by their caller or by the ratio, probes never', () => {
    const skipAbove = untracedRequests(0.01, () => 0.5);
    const takeBelow = untracedRequests(0.01, () => 0.001);
    expect(skipAbove(request('GET', '/api/v1/links'))).toBe(false);
    expect(skipAbove(request('POST', '/abc'))).toBe(false);
    expect(skipAbove(request('GET', '/abc?utm=x'))).toBe(true);
    expect(takeBelow(request('GET', '/abc'))).toBe(false);
    expect(skipAbove(request('GET', '/abc', `${PARENT}-01`))).toBe(false);
    expect(takeBelow(request('GET', '/abc', `${PARENT}-00`))).toBe(true);
    expect(takeBelow(request('GET', '/health'))).toBe(true);
    expect(takeBelow(request('GET', '/health/ready'))).toBe(true);
    expect(takeBelow(request('GET', '/metrics'))).toBe(true);
  });

  it('names the route pattern, never the path', () => {
    const routed = {
      ...request('GET', '/api/v1/links/7'),
      baseUrl: '',
      route: { path: '/api/v1/links/:id' },
    };
    expect(routeOf(routed as never)).toBe('/api/v1/links/:id');
    expect(routeOf(request('GET', '/abc'))).toBe('/:alias');
    expect(routeOf(request('GET', '/no/such/page'))).toBeUndefined();
  });
});
