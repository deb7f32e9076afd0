import { ServiceUnavailableException } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import proxyAddr from 'proxy-addr';
import { loadConfig } from '../config/app-config';
import type { ConnectionPool } from '../database/connection-pool';
import type { Domain } from '../domains/domain.entity';
import type { VisitLink } from '../links/link-cache';
import { MetricsService } from '../metrics/metrics.service';
import type { VisitorRateLimit } from './limits/visitor-rate-limit.guard';
import { LeanRedirect, rememberedTrust } from './lean-redirect';
import type { OutcomeWriter } from './outcome-writer';
import type { VisitPipeline } from './visit-pipeline';

describe('rememberedTrust', () => {
  it.each([
    ['loopback', proxyAddr.compile('loopback')],
    ['one hop', (_address: string, hop: number) => hop < 1],
    ['10.0.0.0/8 and ::1', proxyAddr.compile(['10.0.0.0/8', '::1'])],
  ])('decides as the trust it remembers (%s), hop by hop', (_name, trust) => {
    const remembered = rememberedTrust(trust);
    const addresses = ['127.0.0.1', '10.1.2.3', '203.0.113.9', '::1', '2001:db8::1', 'not an address'];
    for (let round = 0; round < 2; round += 1) {
      for (const address of addresses) {
        for (const hop of [0, 1, 2, 9]) expect(remembered(address, hop)).toBe(trust(address, hop));
      }
    }
  });

  it('asks once per hop and address, and every time past the eighth hop', () => {
    const trust = jest.fn((address: string, hop: number) => address === '127.0.0.1' && hop === 0);
    const remembered = rememberedTrust(trust);
    for (let visit = 0; visit < 5; visit += 1) {
      remembered('127.0.0.1', 0);
      remembered('127.0.0.1', 1);
      remembered('198.51.100.7', 0);
      remembered('127.0.0.1', 8);
    }
    expect(trust.mock.calls.filter(([, hop]) => hop < 8)).toHaveLength(3);
    expect(trust.mock.calls.filter(([, hop]) => hop === 8)).toHaveLength(5);
  });

  it('forgets what it knows rather than grow past 10,000 addresses a hop', () => {
    const trust = jest.fn(() => false);
    const remembered = rememberedTrust(trust);
    for (let n = 0; n < 10_000; n += 1) remembered(`10.0.${n >> 8}.${n & 255}`, 0);
    remembered('10.0.0.0', 0);
    expect(trust).toHaveBeenCalledTimes(10_000);
    remembered('192.0.2.1', 0);
    remembered('10.0.0.0', 0);
    expect(trust).toHaveBeenCalledTimes(10_002);
  });
});

describe('LeanRedirect', () => {
  const config = loadConfig({});
  const link = { id: 7, alias: 'abc' } as unknown as VisitLink;

  /** A server whose one request listener is the routes, with the fast path put in front of them. */
  function serverWith(pipeline: Partial<VisitPipeline>) {
    const routes = jest.fn();
    const server = new EventEmitter();
    server.on('request', routes);
    const lean = new LeanRedirect(
      pipeline as VisitPipeline,
      {} as OutcomeWriter,
      { enabled: false } as VisitorRateLimit,
      new MetricsService({} as ConnectionPool),
      config,
      config,
    );
    lean.install(server as unknown as Server, () => false);
    const request = { method: 'GET', url: '/abc', headers: {}, socket: { remoteAddress: '127.0.0.1' } };
    const response = { headersSent: false };
    return { routes, visit: () => server.emit('request', request, response), request, response };
  }

  it('hands a visit whose click cannot be kept (a full buffer) to the routes, which answer it, instead of throwing', () => {
    const { routes, visit, request, response } = serverWith({
      resolve: () => ({ domain: {} as Domain, alias: 'abc', link }),
      isPlain: () => true,
      plainVisit: () => {
        throw new ServiceUnavailableException();
      },
    });
    expect(visit).not.toThrow();
    expect(routes).toHaveBeenCalledWith(request, response);
  });
});
