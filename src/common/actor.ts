import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { finalize, type Observable } from 'rxjs';

/** Who makes a change, as the audit log records it (contract §11). */
export interface Actor {
  type: 'user' | 'key' | 'cli' | 'system';
  id: number | null;
  name: string | null;
  /** The client's address; null for the CLI and the service itself. */
  ip: string | null;
}

/** The actor of the work under way, set once its request is authenticated; null until then. */
interface ActorScope {
  actor: Actor | null;
}

const scopes = new AsyncLocalStorage<ActorScope>();

/**
 * Gives each API request that may change something a scope whose actor its authentication sets, and which every
 * transaction the request opens reads (audit/), so that a change is recorded with who made it. Reads and visits
 * pass straight through: they change nothing that is audited.
 */
export function actorScopeMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (!request.url.startsWith('/api/') || !CHANGES.has(request.method)) {
    next();
    return;
  }
  changing += 1;
  let done = false;
  const marked = request as Request & Marked;
  marked[SETTLE] = () => {
    if (done) return;
    done = true;
    changing -= 1;
    if (changing === 0) scopes.disable();
  };
  // A request refused before its handler (a guard's 401) is done when its answer is; one whose handler runs is done
  // when the handler is (ActorScopeInterceptor), though its client may have gone before.
  response.once('finish', () => {
    if (marked[HANDLING] !== true) marked[SETTLE]!();
  });
  scopes.run({ actor: null }, next);
}

const SETTLE = Symbol('settle the actor scope');
const HANDLING = Symbol('handled in the actor scope');

interface Marked {
  [SETTLE]?: () => void;
  [HANDLING]?: boolean;
}

/** The methods that may change something; a read names no actor, since it writes nothing that is audited. */
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** API requests that may change something, under way. */
let changing = 0;

/**
 * Ends a changing request's actor scope when its handler is done, whatever became of its client. While no change is
 * under way the storage is disabled: on Node.js before 24 an enabled AsyncLocalStorage keeps promise hooks on for the
 * whole process, which cost every visit about 2 µs of CPU in the redirect bench; the next change enables it again.
 */
@Injectable()
export class ActorScopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Partial<Request> & Marked>();
    const settle = request[SETTLE];
    if (settle === undefined) return next.handle();
    request[HANDLING] = true;
    return next.handle().pipe(finalize(settle));
  }
}

/** Names the actor of the request under way (a no-op outside one). */
export function setActor(actor: Actor): void {
  const scope = scopes.getStore();
  if (scope !== undefined) scope.actor = actor;
}

/** Runs `work` as `actor` (the CLI's commands, the first start); the storage is disabled again once it is done. */
export async function actingAs<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
  changing += 1;
  try {
    return await scopes.run({ actor }, work);
  } finally {
    changing -= 1;
    if (changing === 0) scopes.disable();
  }
}

/** The actor of the work under way, or null. */
export function currentActor(): Actor | null {
  return scopes.getStore()?.actor ?? null;
}
