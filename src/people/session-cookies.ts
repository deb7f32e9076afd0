import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { clearedSessionCookie, sessionCookie } from '../auth/session-cookie';
import { dataEnvelope } from '../common/envelope';
import { serverConfig, type ServerConfig } from '../config/app-config';
import type { StartedSession } from './sessions.service';

/** The answer of every way in (sign-in, invitation, registration): the cookie, and the session in the body. */
@Injectable()
export class SessionCookies {
  /** Secure when the service is served over https. */
  private readonly secure: boolean;

  constructor(@Inject(serverConfig.KEY) server: ServerConfig) {
    this.secure = new URL(server.appUrl).protocol === 'https:';
  }

  answer(response: Response, started: StartedSession) {
    this.set(response, started);
    response.status(201);
    return dataEnvelope(started.session);
  }

  /** The session's cookie alone (a redirect carries it). */
  set(response: Response, { token, expiresAt }: StartedSession): void {
    const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    response.setHeader('Set-Cookie', sessionCookie(token, maxAge, this.secure));
    response.setHeader('Cache-Control', 'no-store');
  }

  clear(response: Response): void {
    response.setHeader('Set-Cookie', clearedSessionCookie(this.secure));
  }
}
