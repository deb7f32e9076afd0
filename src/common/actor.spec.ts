import { EventEmitter } from 'node:events';
import { lastValueFrom, of } from 'rxjs';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { actingAs, actorScopeMiddleware, ActorScopeInterceptor, currentActor, setActor } from './actor';

const KEY = { type: 'key', id: 7, name: 'Ops', ip: '203.0.113.7' } as const;

function request(method: string, url = '/api/v1/links'): Request {
  return { method, url } as Request;
}

function response(): Response & EventEmitter {
  return new EventEmitter() as Response & EventEmitter;
}

function contextOf(req: Request): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
}

describe('the actor of the work under way', () => {
  it('is what a changing API request names, in everything its handler runs, and nothing outside', async () => {
    const req = request('POST');
    let seen: unknown;
    await new Promise<void>((resolve) => {
      actorScopeMiddleware(req, response(), (() => {
        setActor(KEY);
        void Promise.resolve().then(() => {
          seen = currentActor();
          resolve();
        });
      }) as NextFunction);
    });
    expect(seen).toEqual(KEY);
    expect(currentActor()).toBeNull();
  });

  it('is nobody for a read or a visit: they open no scope', () => {
    for (const req of [request('GET'), request('POST', '/abc/password')]) {
      let seen: unknown = 'unset';
      actorScopeMiddleware(req, response(), (() => {
        setActor(KEY);
        seen = currentActor();
      }) as NextFunction);
      expect(seen).toBeNull();
    }
  });

  it('stays through a handler whose client went away, and ends with the handler', async () => {
    const req = request('PATCH');
    const res = response();
    let during: unknown;
    await new Promise<void>((resolve) => {
      actorScopeMiddleware(req, res, (() => {
        setActor(KEY);
        const handler: CallHandler = {
          handle: () => {
            res.emit('close');
            during = currentActor();
            return of('done');
          },
        };
        void lastValueFrom(new ActorScopeInterceptor().intercept(contextOf(req), handler)).then(() =>
          resolve(),
        );
      }) as NextFunction);
    });
    expect(during).toEqual(KEY);
    // Answered after the handler: the scope was settled once, by the handler's end.
    res.emit('finish');
    expect(currentActor()).toBeNull();
  });

  it('names the CLI for the whole of its work', async () => {
    const seen = await actingAs({ type: 'cli', id: null, name: null, ip: null }, async () => {
      await Promise.resolve();
      return currentActor();
    });
    expect(seen).toEqual({ type: 'cli', id: null, name: null, ip: null });
    expect(currentActor()).toBeNull();
  });
});
