import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

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
 * Gives each API request a scope whose actor its authentication sets, and which every transaction the request opens
 * reads (audit/), so that a change is recorded with who made it. Visits pass straight through: they change nothing
 * that is audited.
 */
export function actorScopeMiddleware(request: Request, _response: Response, next: NextFunction): void {
  if (!request.url.startsWith('/api/')) {
    next();
    return;
  }
  scopes.run({ actor: null }, next);
}

/** Names the actor of the request under way (a no-op outside one). */
export function setActor(actor: Actor): void {
  const scope = scopes.getStore();
  if (scope !== undefined) scope.actor = actor;
}

/** Runs `work` as `actor` (the CLI's commands, the first start). */
export function actingAs<T>(actor: Actor, work: () => T): T {
  return scopes.run({ actor }, work);
}

/** The actor of the work under way, or null. */
export function currentActor(): Actor | null {
  return scopes.getStore()?.actor ?? null;
}
