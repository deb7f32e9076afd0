import { Controller, Get } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { configureApp } from '../src/app';
import { AppModule } from '../src/app.module';
import { AccountsService } from '../src/auth/accounts.service';
import { RequiresScope } from '../src/auth/requires-scope.decorator';
import { TITLE_FETCH_OPTIONS } from '../src/links/title-fetcher';
import { OFFLINE_TITLE_FETCH } from './support/app';

/** A route that forgot its scope, beside one that has it: what the global guard does with each. */
@Controller('api/v1/fixture')
class FixtureController {
  @Get('forgotten')
  forgotten() {
    return { reached: true };
  }

  @Get('scoped')
  @RequiresScope('account.read')
  scoped() {
    return { reached: true };
  }
}

describe('the scope guard', () => {
  let app: NestExpressApplication;
  let auth: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
      controllers: [FixtureController],
    })
      .overrideProvider(TITLE_FETCH_OPTIONS)
      .useValue(OFFLINE_TITLE_FETCH)
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true });
    configureApp(app);
    await app.init();
    const { apiKey } = await app.get(AccountsService).createAccount('Scope guard');
    auth = `Bearer ${apiKey}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses a route that declares no scope even to a key with every scope: it fails closed', async () => {
    const response = await request(app.getHttpServer())
      .get('/api/v1/fixture/forgotten')
      .set('Authorization', auth);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'This action is unauthorized.', status: 403 });
  });

  it('serves the same kind of route once it declares its scope (the control)', async () => {
    const response = await request(app.getHttpServer())
      .get('/api/v1/fixture/scoped')
      .set('Authorization', auth);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reached: true });
  });

  it('asks for the key before the scope: no key is a 401 on either', async () => {
    for (const path of ['/api/v1/fixture/forgotten', '/api/v1/fixture/scoped']) {
      expect((await request(app.getHttpServer()).get(path)).status).toBe(401);
    }
  });
});
