import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import type { ApiCaller } from './owner';
import { RequestAccount } from './request-account';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly requestAccount: RequestAccount) {
    super({ passReqToCallback: true });
  }

  /**
   * The key comes from the Authorization header only: passport-http-bearer also reads an `access_token` query or
   * body field, which would put keys in URLs and turn a body field that should be ignored into a 401.
   */
  override authenticate(request: Request, options?: object): void {
    super.authenticate({ headers: request.headers } as Request, options);
  }

  /** Passport turns `false` into a 401. */
  async validate(request: Pick<Request, 'headers'>): Promise<ApiCaller | false> {
    return (await this.requestAccount.of(request.headers)) ?? false;
  }
}
