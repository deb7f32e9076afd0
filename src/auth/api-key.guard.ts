import { Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { setActor } from '../common/actor';
import { recordedAddress } from '../common/client-address';
import { UnauthorizedActionException } from '../common/exceptions';
import type { ApiCaller } from './owner';
import { IS_PUBLIC } from './public.decorator';
import { RequestAccount } from './request-account';
import { ANY_SCOPE, REQUIRED_SCOPE } from './requires-scope.decorator';
import type { Scope } from './scopes';

/**
 * Every route needs a live API key, or the dashboard session a key was exchanged for, unless it is marked @Public(),
 * and the key needs the scope the route declares with @RequiresScope() (or any, with @AnyScope()); a route that
 * declares none is refused to every key. Registered once, as APP_GUARD.
 */
@Injectable()
export class ApiKeyGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly requestAccount: RequestAccount,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true) return true;
    const request = context.switchToHttp().getRequest<Request & { user: ApiCaller }>();
    if (request.headers.authorization !== undefined) {
      await super.canActivate(context);
    } else {
      // No key: the dashboard's session, which only a request that proves it comes from the dashboard may use.
      if (this.requestAccount.crossSite(request.headers)) throw new UnauthorizedActionException();
      const caller = await this.requestAccount.of(request.headers);
      if (caller === null) throw new UnauthorizedException();
      request.user = caller;
    }
    const caller = request.user;
    // Whatever the request changes is recorded as this caller's (audit/).
    setActor({
      type: caller.user === null ? 'key' : 'user',
      id: caller.user?.id ?? caller.keyId,
      name: caller.user?.name ?? caller.keyName,
      ip: recordedAddress(request.ip),
    });
    if (this.reflector.getAllAndOverride<boolean>(ANY_SCOPE, targets) === true) return true;
    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets);
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
