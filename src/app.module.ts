import { Inject, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Logger as Pino } from 'pino';
import { AccountModule } from './accounts/account.module';
import { AuthServerModule } from './auth/auth.module';
import { BodyParserInterceptor } from './common/body-parser';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { MediaTypeInterceptor } from './common/media-type.interceptor';
import { requestLogger } from './common/logger';
import { APP_LOG, LoggingModule } from './common/logging.module';
import { createValidationPipe } from './common/validation.pipe';
import { authConfig, type AuthConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { ChangeFeedModule } from './database/change-feed';
import { ReadReplicasModule, ReplicaWritesInterceptor } from './database/read-replicas';
import { OutboxModule } from './events/outbox/outbox.module';
import { DatabaseModule } from './database/database.module';
import { PreparedStatementsModule } from './database/prepared-statements';
import { DomainsModule } from './domains/domains.module';
import { EventsModule } from './events/events.module';
import { EventStreamModule } from './events/stream/event-stream.module';
import { HealthModule } from './health/health.module';
import { KeysModule } from './keys/keys.module';
import { ActorScopeInterceptor } from './common/actor';
import { PeopleModule } from './people/people.module';
import { FirstStartModule } from './people/first-start.service';
import { AuditModule } from './audit/audit.module';
import { LimitsModule } from './limits/limits.module';
import { LimitsStorage } from './limits/limits-storage';
import { LinksModule } from './links/links.module';
import { MetricsModule } from './metrics/metrics.module';
import { PixelsModule } from './pixels/pixels.module';
import { VisitsModule } from './visits/visits.module';
import { SpacesModule } from './spaces/spaces.module';
import { TagsModule } from './tags/tags.module';
import { StatsModule } from './stats/stats.module';
import { UtmTemplatesModule } from './utm-templates/utm-templates.module';
import { ImportsModule } from './imports/imports.module';
import { WebhooksModule } from './events/webhooks/webhooks.module';

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    MetricsModule,
    ThrottlerModule.forRootAsync({
      imports: [LimitsModule],
      inject: [authConfig.KEY, LimitsStorage],
      useFactory: (config: AuthConfig, storage: LimitsStorage) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimitPerMinute }],
        skipIf: () => config.rateLimitPerMinute === 0,
        storage,
      }),
    }),
    DatabaseModule.forRoot(),
    ChangeFeedModule,
    ReadReplicasModule,
    OutboxModule,
    PreparedStatementsModule,
    AuthServerModule,
    AccountModule,
    KeysModule,
    PeopleModule,
    FirstStartModule,
    AuditModule,
    HealthModule,
    SpacesModule,
    TagsModule,
    DomainsModule,
    PixelsModule,
    LinksModule,
    UtmTemplatesModule,
    StatsModule,
    ImportsModule,
    WebhooksModule,
    EventsModule,
    EventStreamModule,
    // Last: its /:alias routes must not shadow any other route.
    VisitsModule,
  ],
  providers: [
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_FILTER, useClass: HttpExceptionFilter },
    // In this order: a body in a type the route does not read is refused before any of it is read.
    { provide: APP_INTERCEPTOR, useClass: ActorScopeInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ReplicaWritesInterceptor },
    { provide: APP_INTERCEPTOR, useClass: MediaTypeInterceptor },
    { provide: APP_INTERCEPTOR, useClass: BodyParserInterceptor },
  ],
})
export class AppModule implements NestModule {
  constructor(@Inject(APP_LOG) private readonly log: Pino) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(requestLogger(this.log)).forRoutes('*path');
  }
}
