import { applyDecorators, Delete, Get, HttpCode, Patch, Post, Put, type Type } from '@nestjs/common';
import {
  ApiDataResponse,
  ApiDeletedResponse,
  ApiEndpoint,
  ApiListResponse,
  type EndpointOptions,
} from '../common/openapi';
import { RequiresScope } from './requires-scope.decorator';
import type { Scope } from './scopes';

/** A resource whose routes need `<name>.read` to read and `<name>.write` to change. */
type ScopedResource = Scope extends infer S ? (S extends `${infer R}.write` ? R : never) : never;

/** What a resource's routes are named and answer. */
export interface Resource {
  /** Its scopes' prefix: `spaces` for `spaces.read` and `spaces.write`. */
  scopes: ScopedResource;
  /** In operation ids, one and many: `Space` and `Spaces` make `listSpaces`, `showSpace`, `patchSpace`... */
  id: string;
  ids: string;
  /** In summaries, one and many: `a space` and `spaces` make "List spaces", "Show a space"... */
  one: string;
  many: string;
  /** What a route answers it as. */
  response: Type;
  /** What a delete names it in its envelope (`"object": "space"`). */
  object: string;
  /** What PUT and PATCH say of an update; by default, that what is absent stays as it is. */
  update?: string;
}

/** What one route says beyond its resource's defaults. */
type RouteOptions = Partial<Omit<EndpointOptions, 'body'>> & { response?: Type };

/**
 * The routes every resource of the API has (links, spaces, domains, pixels, keys, webhooks), each kind composed
 * once: its verb and path, its name and summary from the resource's, its answer in the OpenAPI document, the
 * errors of its kind, and the scope it needs. So a rule of the contract such as "a delete answers 200 with the
 * deleted envelope", or a naming rule such as `patch<Resource>`, has one home. Decorators apply bottom-up: each list
 * below reads as the stack it replaces, upside down.
 */
export function resourceRoutes(resource: Resource) {
  const read: Scope = `${resource.scopes}.read`;
  const write: Scope = `${resource.scopes}.write`;
  const endpoint = (defaults: EndpointOptions, route: RouteOptions) =>
    ApiEndpoint({ ...defaults, ...withoutResponse(route) });
  const update = (verb: MethodDecorator, route: RouteOptions, names: EndpointOptions) =>
    applyDecorators(
      RequiresScope(write),
      verb,
      ApiDataResponse(route.response ?? resource.response),
      endpoint({ ...names, body: true, errors: [404] }, route),
    );
  return {
    /** `GET /`: a page of the resources; 422 for a query it cannot read. */
    list: (route: RouteOptions = {}): MethodDecorator =>
      applyDecorators(
        RequiresScope(read),
        Get(),
        ApiListResponse(route.response ?? resource.response),
        endpoint(
          { operationId: `list${resource.ids}`, summary: `List ${resource.many}`, errors: [422] },
          route,
        ),
      ),

    /** `GET /:id`: one resource; 404 for another account's or none. */
    show: (route: RouteOptions = {}): MethodDecorator =>
      applyDecorators(
        RequiresScope(read),
        Get(':id'),
        ApiDataResponse(route.response ?? resource.response),
        endpoint(
          { operationId: `show${resource.id}`, summary: `Show ${resource.one}`, errors: [404] },
          route,
        ),
      ),

    /** `POST /`: creates one from a JSON or form body, and answers it with 201. */
    create: (route: RouteOptions = {}): MethodDecorator =>
      applyDecorators(
        RequiresScope(write),
        Post(),
        ApiDataResponse(route.response ?? resource.response, { status: 201 }),
        endpoint(
          { operationId: `create${resource.id}`, summary: `Create ${resource.one}`, body: true },
          route,
        ),
      ),

    /** `PUT /:id`: what is absent stays as it is, as with PATCH (the contract's PUT is PATCH's twin). */
    replace: (route: RouteOptions = {}): MethodDecorator =>
      update(Put(':id'), route, {
        operationId: `update${resource.id}`,
        summary: `Update ${resource.one}`,
        description: resource.update ?? 'Fields that are absent stay as they are; PATCH does the same.',
      }),

    /** `PATCH /:id`: the same as PUT. */
    patch: (route: RouteOptions = {}): MethodDecorator =>
      update(Patch(':id'), route, {
        operationId: `patch${resource.id}`,
        summary: `Update ${resource.one} (PATCH)`,
        description: resource.update ?? 'The same as PUT: fields that are absent stay as they are.',
      }),

    /** `DELETE /:id`: 200 with `{"id", "object", "deleted": true, "status"}`. */
    remove: (route: RouteOptions = {}): MethodDecorator =>
      applyDecorators(
        HttpCode(200),
        RequiresScope(write),
        Delete(':id'),
        ApiDeletedResponse(resource.object),
        endpoint(
          { operationId: `delete${resource.id}`, summary: `Delete ${resource.one}`, errors: [404] },
          route,
        ),
      ),
  };
}

function withoutResponse(route: RouteOptions): Partial<EndpointOptions> {
  const { response: _response, ...rest } = route;
  return rest;
}
