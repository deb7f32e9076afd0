import { type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { Express, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { dirname } from 'node:path';
import { AppModule } from './app.module';
import { actorScopeMiddleware } from './common/actor';
import { AppLogger, requestIdMiddleware } from './common/logger';
import { APP_LOG } from './common/logging.module';
import { requestPath } from './common/pagination';
import { warnOfUntrustedProxy } from './common/proxy-warning';
import { parseApiQuery } from './common/query-string';
import { serverConfig, type ServerConfig } from './config/app-config';
import { MetricsService } from './metrics/metrics.service';
import { DASHBOARD_DIST, DASHBOARD_PATH, DashboardUi } from './dashboard/dashboard-ui';
import { DOCS_ASSETS_PATH, DocsUi } from './docs/docs-ui';
import { LeanRedirect } from './visits/lean-redirect';
import { openApiDocument, servedTo } from './openapi-document';

/**
 * Everything about the HTTP application that is not a provider: shared by main.ts and the e2e tests, so that a
 * test app is configured exactly as production.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get<ServerConfig>(serverConfig.KEY);
  app.useLogger(new AppLogger(app.get(APP_LOG)));
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', parseApiQuery);
  app.disable('x-powered-by');
  app.use(requestIdMiddleware);
  app.use(actorScopeMiddleware);
  app.use(app.get(MetricsService).middleware());
  if (config.trustProxy === false) app.use(warnOfUntrustedProxy());
  // Served over plain HTTP too (behind a TLS proxy or on a laptop): do not tell browsers to upgrade.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  // Plain redirects are answered ahead of Express, with the client address Express itself would see.
  const express = app.getHttpAdapter().getInstance() as { get(setting: string): unknown };
  app
    .get(LeanRedirect)
    .install(app.getHttpServer(), express.get('trust proxy fn') as (address: string, hop: number) => boolean);

  const document = openApiDocument(app, config.appUrl);
  // The documents from Nest's module; the UI from the service itself (see DocsUi).
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    ui: false,
    // Swagger types the request as anything; Express gives its own.
    patchDocumentOnRequest: (request, _response, served) =>
      servedTo(served, new URL(requestPath(request as Request)).origin),
  });
  const docs = new DocsUi(`${config.appName} API`, dirname(require.resolve('swagger-ui-dist/package.json')));
  const http = app.getHttpAdapter().getInstance() as Pick<Express, 'get'>;
  http.get('/docs', (request: Request, response: Response) => docs.sendPage(request, response));
  http.get(
    `${DOCS_ASSETS_PATH}/:name`,
    (request: Request<{ name: string }>, response: Response, next: NextFunction) => {
      docs.sendAsset(request, response, request.params.name).then((sent) => {
        if (!sent) next();
      }, next);
    },
  );
  new DashboardUi(DASHBOARD_DIST).install(http);
  return app;
}

export async function createApp(): Promise<INestApplication> {
  // Body parsing is a middleware of AppModule, so that its errors get the API's envelope.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    // Start-up lines wait for the structured logger; if start-up fails, main.ts reports the error alone.
    bufferLogs: true,
    logger: false,
    // Failures reach main.ts, which prints them as one clear line instead of Nest's exit with a stack trace.
    abortOnError: false,
  });
  return configureApp(app);
}

/** The start's line for the person starting the server: where it listens, and where a newcomer goes next. */
export function startedMessage(config: Pick<ServerConfig, 'port' | 'appUrl'>): string {
  return (
    `Listening on port ${config.port}; public URL ${config.appUrl}; ` +
    `dashboard ${config.appUrl}${DASHBOARD_PATH}; API docs ${config.appUrl}/docs\n`
  );
}
