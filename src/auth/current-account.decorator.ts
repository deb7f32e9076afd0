import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Account } from './account.entity';
import type { ApiCaller, Owner } from './owner';

function callerOf(context: ExecutionContext): ApiCaller {
  return context.switchToHttp().getRequest<Request & { user: ApiCaller }>().user;
}

/** The account whose API key authenticated the request. */
export const CurrentAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Account => callerOf(context).account,
);

/** What the request's key may reach: its account, within its spaces when it is restricted to some. */
export const CurrentOwner = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Owner => callerOf(context).owner,
);

/** The key that authenticated the request, with its scopes and restriction. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): ApiCaller =>
  callerOf(context),
);
