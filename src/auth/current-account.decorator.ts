import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Account } from './account.entity';

/** The account whose API key authenticated the request. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): Account => {
  return context.switchToHttp().getRequest<Request & { user: Account }>().user;
});
