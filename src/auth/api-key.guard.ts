import { Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { UnauthorizedActionException } from '../common/exceptions';
import type { ApiCaller } from './owner';
import { IS_PUBLIC } from './public.decorator';
import { REQUIRED_SCOPE } from './requires-scope.decorator';
import type { Scope } from './scopes';

/**
 * Every route needs a live API key unless it is marked @Public(), and the key needs the scope the route declares
 * with @RequiresScope(); a route that declares none is refused to every key. Registered once, as APP_GUARD.
 */
@Injectable()
export class ApiKeyGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true) return true;
    await super.canActivate(context);
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets);
    const caller = context.switchToHttp().getRequest<Request & { user: ApiCaller }>().user;
    if (scope === undefined || !caller.granted.has(scope)) throw new UnauthorizedActionException();
    return true;
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    if (error instanceof Error) throw error;
    if (error !== null && error !== undefined) throw new UnauthorizedException();
    if (user === false || user === null || user === undefined) throw new UnauthorizedException();
    return user;
  }
}
