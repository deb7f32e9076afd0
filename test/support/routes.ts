import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { IS_PUBLIC } from '../../src/auth/public.decorator';
import { ANY_SCOPE, REQUIRED_SCOPE } from '../../src/auth/requires-scope.decorator';

/** Walks the application's own router, so that a test covers every route, including routes added later. */

export interface NestRoute {
  /** `GET /api/v1/spaces/:id` */
  route: string;
  method: string;
  path: string;
  isPublic: boolean;
  /** What `@RequiresScope()` says, or undefined where it says nothing. */
  scope: unknown;
  /** The status of its success: `@HttpCode()`'s, else Nest's (201 for a POST, 200 otherwise). */
  status: number;
  /** The fields its `@Body()` DTO declares, as the validation pipe sees them. */
  bodyFields: string[];
  /** The parameters its `@Query()` DTO declares. */
  queryFields: string[];
}

export function asArray(value: unknown): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

function joinPath(...parts: string[]): string {
  const joined = `/${parts.join('/')}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/** The properties that class-validator knows of a DTO class, its parents' included. */
function dtoFields(dto: unknown): string[] {
  if (typeof dto !== 'function' || dto === Object || dto === String) return [];
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(metadata.map((entry) => entry.propertyName))].sort();
}

/** The fields of a handler's `@Body()` and `@Query()` parameters, read from the decorators' metadata. */
function declaredFields(controller: Type, name: string): { bodyFields: string[]; queryFields: string[] } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as unknown[];
  const fields = { bodyFields: [] as string[], queryFields: [] as string[] };
  for (const [key, arg] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]);
    // A whole DTO only: `@Body('password')` names one field, which is the field itself.
    const named = typeof arg.data === 'string' ? [arg.data] : dtoFields(types[arg.index]);
    if (kind === Number(RouteParamtypes.BODY)) fields.bodyFields.push(...named);
    if (kind === Number(RouteParamtypes.QUERY)) fields.queryFields.push(...named);
  }
  return fields;
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
        const fields = declaredFields(controller, name);
        const isPublic =
          reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [handler, controller]) === true;
        // 'any': a route every live key may use (the dashboard's sign-in), said by @AnyScope().
        const scope: unknown =
          reflector.getAllAndOverride<boolean | undefined>(ANY_SCOPE, [handler, controller]) === true
            ? 'any'
            : reflector.getAllAndOverride(REQUIRED_SCOPE, [handler, controller]);
        const status =
          (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
          (method === 'POST' ? 201 : 200);
        for (const prefix of asArray(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const path of asArray(handlerPath)) {
            const full = joinPath(prefix, path);
            routes.push({
              route: `${method} ${full}`,
              method,
              path: full,
              isPublic,
              scope,
              status,
              ...fields,
            });
          }
        }
      }
    }
  }
  return routes;
}

/** The ways in of a person without a session (contract §11): public, each limited per email and address. */
export const PEOPLE_WAYS_IN = [
  'POST /api/v1/session',
  'POST /api/v1/users',
  'POST /api/v1/password/forgot',
  'POST /api/v1/password/reset',
  'POST /api/v1/invitations/accept',
  'POST /api/v1/session/passkey/options',
  'POST /api/v1/session/passkey',
  'GET /api/v1/session/providers',
  'GET /api/v1/session/oidc',
  'GET /api/v1/session/oidc/callback',
];
