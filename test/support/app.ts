import { IMPORT_RUNNER_SCOPE, type ImportRunnerScope } from '../../src/imports/import-runner';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import type { Server } from 'node:http';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { configureApp } from '../../src/app';
import { AppModule } from '../../src/app.module';
import { AccountsService } from '../../src/auth/accounts.service';
import { EVENT_WORKER_OPTIONS, type EventWorkerOptions } from '../../src/events/event-worker';
import {
  DEFAULT_TITLE_FETCH_OPTIONS,
  TITLE_FETCH_OPTIONS,
  type TitleFetchOptions,
} from '../../src/links/title-fetcher';
import {
  DEFAULT_LINK_CHECKER_OPTIONS,
  LINK_CHECK_SCOPE,
  LINK_CHECKER_OPTIONS,
  type LinkCheckerOptions,
  type LinkCheckScope,
} from '../../src/links/health/link-health-checker';
import { checkAgainstDocument } from './openapi-responses';
import { testRedisUrl, uniqueKeyPrefix } from './redis';

/** No test reaches the internet: title fetches resolve no name unless a test says otherwise. */
export const OFFLINE_TITLE_FETCH: TitleFetchOptions = {
  ...DEFAULT_TITLE_FETCH_OPTIONS,
  resolve: () => Promise.reject(new Error('no DNS in tests')),
};

/** Link checks, where a test turns them on, resolve no name unless the test says otherwise. */
export const OFFLINE_LINK_CHECKS: LinkCheckerOptions = {
  ...DEFAULT_LINK_CHECKER_OPTIONS,
  check: {
    ...DEFAULT_LINK_CHECKER_OPTIONS.check,
    resolve: () => Promise.reject(new Error('no DNS in tests')),
  },
};

/** An event worker that makes no pass of its own: a test calls `tick()` and `drain()`. */
export const MANUAL_EVENT_WORKER: EventWorkerOptions = {
  pollMs: null,
  webhookTimeoutMs: 1000,
  retentionMs: 7 * 86_400_000,
  backlogMax: 100_000,
  streamBacklogMax: 1_000_000,
  perWebhook: 2,
};

export interface TestAppOptions {
  /** Provider overrides, applied to the testing module before it compiles. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']);

/** Requests whose responses are checked against the OpenAPI document (see openapi-responses.ts). */
function checkedAgent(agent: ReturnType<typeof request>): ReturnType<typeof request> {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !VERBS.has(property) || typeof value !== 'function') return value;
      const method = property === 'del' ? 'delete' : property;
      return (url: string, ...rest: unknown[]) =>
        (value as (url: string, ...rest: unknown[]) => request.Test)
          .call(target, url, ...rest)
          .expect(checkAgainstDocument(method, url));
    },
  });
}

export interface TestApp {
  app: INestApplication;
  /** The accounts `createAccount` made on this app: its import runner takes their imports alone. */
  accountIds: number[];
  http: () => ReturnType<typeof request>;
  dataSource: DataSource;
  close: () => Promise<void>;
}

/**
 * Boots AppModule exactly as main.ts does, on the run's test database. `env` overrides settings for this app
 * only (they are read while it boots). Passport keeps one strategy per name for the whole process: the app made
 * last authenticates API requests for every app of a file, so a file that closes an app early makes no other
 * after the ones it keeps.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  // In Redis, each app counts its limits under keys of its own, as each counts in a memory of its own without it.
  if (testRedisUrl() !== undefined && env.REDIS_KEY_PREFIX === undefined) {
    env = { ...env, REDIS_KEY_PREFIX: uniqueKeyPrefix('app') };
  }
  const accountIds: number[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    const builder = Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(TITLE_FETCH_OPTIONS)
      .useValue(OFFLINE_TITLE_FETCH)
      // Apps of different files share the run's database: none sends the others' events unless its file says so
      // (the event tests drive their own worker, on a database of their own).
      .overrideProvider(EVENT_WORKER_OPTIONS)
      .useValue(MANUAL_EVENT_WORKER)
      // Apps of different files share the run's database, each with settings of its own: each runs the imports of
      // its own accounts only, so that no app runs another's under its settings.
      .overrideProvider(IMPORT_RUNNER_SCOPE)
      .useValue({ accountIds: () => accountIds } satisfies ImportRunnerScope)
      // ... and checks the links of its own accounts only.
      .overrideProvider(LINK_CHECK_SCOPE)
      .useValue({ accountIds: () => accountIds } satisfies LinkCheckScope)
      .overrideProvider(LINK_CHECKER_OPTIONS)
      .useValue(OFFLINE_LINK_CHECKS);
    const moduleRef = await (options.override?.(builder) ?? builder).compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({
      bodyParser: false,
      bufferLogs: true,
    });
    configureApp(app);
    await app.init();
    const server: Server = app.getHttpServer();
    return {
      app,
      accountIds,
      http: () => checkedAgent(request(server)),
      dataSource: app.get(DataSource),
      close: () => app.close(),
    };
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

export interface TestAccount {
  id: number;
  name: string;
  apiKey: string;
  /** The Authorization header value. */
  auth: string;
}

let counter = 0;

/** A fresh account with a live key: every test makes its own, so tests never see each other's data. */
export async function createAccount(testApp: TestApp, name?: string): Promise<TestAccount> {
  counter += 1;
  const { account, apiKey } = await testApp.app
    .get(AccountsService)
    .createAccount(name ?? `Account ${process.pid}-${counter}`);
  testApp.accountIds.push(account.id);
  return { id: account.id, name: account.name, apiKey, auth: `Bearer ${apiKey}` };
}
