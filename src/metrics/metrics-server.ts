import { HttpStatus, Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_MESSAGES } from '../common/envelope';
import { metricsConfig, type MetricsConfig } from '../config/app-config';
import { MetricsAccess } from './metrics-access';
import { MetricsService } from './metrics.service';

/**
 * The metrics port (`METRICS_PORT` on `METRICS_HOST`): `GET /metrics` and nothing else, apart from the public port so
 * that a balancer or a published port never shows them to the internet. Prometheus scrapes it from the private
 * network; with `METRICS_TOKEN` it sends the token here too.
 */
@Injectable()
export class MetricsServer implements BeforeApplicationShutdown {
  private readonly server: Server;

  constructor(
    private readonly metrics: MetricsService,
    private readonly access: MetricsAccess,
    @Inject(metricsConfig.KEY) private readonly config: MetricsConfig,
  ) {
    this.server = createServer((request, response) => {
      this.answer(request, response).catch(() => this.send(response, HttpStatus.INTERNAL_SERVER_ERROR));
    });
  }

  /** The port it listens on (the one chosen when `METRICS_PORT` is 0). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /**
   * Listens; `main.ts` calls it once the public port listens, so that a metrics port chosen by the system
   * (`METRICS_PORT=0`) can never take the public port that a supervisor picked free a moment before.
   */
  async start(): Promise<void> {
    if (this.server.listening) return;
    const { metricsHost: host, metricsPort: port } = this.config;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          new Error(
            `The metrics port cannot listen on ${host}:${port} (METRICS_PORT, METRICS_HOST): ${error.code ?? error.message}`,
          ),
        );
      });
      this.server.listen(port, host, resolve);
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return this.send(response, HttpStatus.NOT_FOUND);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return this.send(response, HttpStatus.METHOD_NOT_ALLOWED);
    }
    if (!this.access.allows(request.headers.authorization)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      return this.send(response, HttpStatus.UNAUTHORIZED);
    }
    const text = await this.metrics.text();
    response.writeHead(HttpStatus.OK, {
      'Content-Type': this.metrics.contentType,
      'Cache-Control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  }

  /** An error in the API's envelope. */
  private send(response: ServerResponse, status: number): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const body = JSON.stringify({ message: ERROR_MESSAGES[status], status });
    response.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    response.end(body);
  }
}
