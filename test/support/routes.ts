import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '../../src/auth/public.decorator';

/** Walks the application's own router, so that a test covers every route, including routes added later. */

export interface NestRoute {
  /** `GET /api/v1/spaces/:id` */
  route: string;
  method: string;
  path: string;
  isPublic: boolean;
}

export function asArray(value: unknown): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

function joinPath(...parts: string[]): string {
  const joined = `/${parts.join('/')}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** Every handler of every controller in the application, with its path and whether it says @Public(). */
export function nestRoutes(app: INestApplication): NestRoute[] {
  const scanner = new MetadataScanner();
  const reflector = app.get(Reflector);
  const routes: NestRoute[] = [];
  for (const moduleRef of app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (controller === null || controller === undefined) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        const handlerPath: unknown = Reflect.getMetadata(PATH_METADATA, handler);
        if (handlerPath === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const isPublic =
          reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [handler, controller]) === true;
        for (const prefix of asArray(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const path of asArray(handlerPath)) {
            const full = joinPath(prefix, path);
            routes.push({ route: `${method} ${full}`, method, path: full, isPublic });
          }
        }
      }
    }
  }
  return routes;
}
