import {
  Injectable,
  UnsupportedMediaTypeException,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { FORM_BODY_TYPES, REQUEST_BODY_TYPES } from './openapi';

/** Whether a request carries a body: a length over 0, or one sent in chunks. */
export function sendsBody(request: Pick<Request, 'headers'>): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

/** A Content-Type's media type, lower case, without its parameters (`charset`); empty when there is none. */
export function mediaTypeOf(request: Pick<Request, 'headers'>): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * A body in a media type its route does not read is refused with 415, before validation could read an absent
 * body as empty: an XML create would otherwise be a 422 on its first required field, an XML update a 200 that
 * changes nothing. The types are those the route documents (`ApiEndpoint`'s `body`); a route without a body
 * ignores a JSON or form one. A request without a body is never refused, whatever its Content-Type. Routes the
 * document does not describe are left alone.
 */
@Injectable()
export class MediaTypeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const types = this.reflector.get<readonly string[] | undefined>(REQUEST_BODY_TYPES, context.getHandler());
    if (types !== undefined && context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<Request>();
      // A route that reads no body ignores JSON and form fields, as every route ignores the fields it does not know.
      const read: readonly string[] = types.length === 0 ? FORM_BODY_TYPES : types;
      if (sendsBody(request) && !read.includes(mediaTypeOf(request))) {
        throw new UnsupportedMediaTypeException();
      }
    }
    return next.handle();
  }
}
