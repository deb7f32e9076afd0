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
  /** In operation ids, its plural adding an s: `Space` makes `listSpaces`, `showSpace`, `patchSpace`... */
  id: string;
  /** In summaries, one and many: `a space` and `spaces` make "List spaces", "Show a space"... */
  one: string;
  many: string;
  /** What a route answers it as. */
  response: Type;
  /** What a delete names it in its envelope (`"object": "space"`). */
  object: string;
  /** What PUT and PATCH say of an update; by default, that what is absent stays as it is. */
  update?: string;
  /**
   * The example bodies of a create and of an update (PUT and PATCH alike), as the document shows them; none for a
   * resource whose creates and updates are routes of their own.
   */
  examples?: { create?: object; update?: object };
}

/**
 * A route of the API in one decorator: the scope it needs, its verb and path, and what the document names it and
 * the errors it may answer. The six routes of a resource are made of it ({@link resourceRoutes}); any other route
 * takes it directly, with its success answer, which differs route by route (a file, a page, one model), below it.
 */
export const ScopedRoute = (
  scope: Scope,
  verb: MethodDecorator,
  endpoint: EndpointOptions,
): MethodDecorator => applyDecorators(RequiresScope(scope), verb, ApiEndpoint(endpoint));

/** The removal by id (`@Delete(':id')`) with 200 and the deleted envelope: every removal's verb and status. */
export const DeleteById = (): MethodDecorator => applyDecorators(Delete(':id'), HttpCode(200));

/** What one route says beyond its resource's defaults. */
type RouteOptions = Partial<Omit<EndpointOptions, 'body'>> & { response?: Type };

/**
 * The routes every resource of the API has (links, spaces, domains, pixels, keys, webhooks; members, invitations
 * and imports those of them they have), each kind composed
 * once: its verb and path, its name and summary from the resource's, its answer in the OpenAPI document, the
 * errors of its kind, and the scope it needs. So a rule of the contract such as "a delete answers 200 with the
 * deleted envelope", or a naming rule such as `patch<Resource>`, has one home.
 */
export function resourceRoutes(resource: Resource) {
  const read: Scope = `${resource.scopes}.read`;
  const write: Scope = `${resource.scopes}.write`;
  /** A kind of route: what one route passes overrides the kind's `endpoint`, and `response` the model it answers. */
  const compose =
    (
      scope: Scope,
      verb: MethodDecorator,
      answer: (model: Type) => MethodDecorator,
      endpoint: EndpointOptions,
    ) =>
    ({ response, ...own }: RouteOptions = {}): MethodDecorator =>
      applyDecorators(
        answer(response ?? resource.response),
        ScopedRoute(scope, verb, { ...endpoint, ...own }),
      );
  const updated = (description: string): Omit<EndpointOptions, 'operationId' | 'summary'> => ({
    description: resource.update ?? description,
    body: true,
    errors: [404],
    example: resource.examples?.update,
  });
  return {
    /** `GET /`: a page of the resources; 422 for a query it cannot read. */
    list: compose(read, Get(), ApiListResponse, {
      operationId: `list${resource.id}s`,
      summary: `List ${resource.many}`,
      errors: [422],
    }),
    /** `GET /:id`: one resource; 404 for another account's or none. */
    show: compose(read, Get(':id'), (model) => ApiDataResponse(model), {
      operationId: `show${resource.id}`,
      summary: `Show ${resource.one}`,
      errors: [404],
    }),
    /** `POST /`: creates one from a JSON or form body, and answers it with 201. */
    create: compose(write, Post(), (model) => ApiDataResponse(model, { status: 201 }), {
      operationId: `create${resource.id}`,
      summary: `Create ${resource.one}`,
      body: true,
      example: resource.examples?.create,
    }),
    /** `PUT /:id`: what is absent stays as it is, as with PATCH (the contract's PUT is PATCH's twin). */
    replace: compose(write, Put(':id'), (model) => ApiDataResponse(model), {
      operationId: `update${resource.id}`,
      summary: `Update ${resource.one}`,
      ...updated('Fields that are absent stay as they are; PATCH does the same.'),
    }),
    /** `PATCH /:id`: the same as PUT. */
    patch: compose(write, Patch(':id'), (model) => ApiDataResponse(model), {
      operationId: `patch${resource.id}`,
      summary: `Update ${resource.one} (PATCH)`,
      ...updated('The same as PUT: fields that are absent stay as they are.'),
    }),
    /** The removal by id: 200 with `{"id", "object", "deleted": true, "status"}`. */
    remove: compose(write, DeleteById(), () => ApiDeletedResponse(resource.object), {
      operationId: `delete${resource.id}`,
      summary: `Delete ${resource.one}`,
      errors: [404],
    }),
  };
}
