import { Controller, Delete, Get, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { AnyScope } from '../auth/requires-scope.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint } from '../common/openapi';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { clearedSessionCookie, sessionCookie } from '../auth/session-cookie';
import { SessionResponse } from './session.mapper';
import { SessionsService } from './sessions.service';

/**
 * The dashboard's sign-in: its key, sent once as a bearer, becomes a session cookie (HttpOnly, SameSite=Strict,
 * Secure over https) that carries no key. Requests made with the cookie must carry `X-Shortlink-Session: 1` and
 * come from this origin; see docs/SECURITY.md.
 */
@ApiTags('session')
@Controller('api/v1/session')
export class SessionsController {
  private readonly secure: boolean;

  constructor(
    private readonly sessions: SessionsService,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.secure = new URL(server.appUrl).protocol === 'https:';
  }

  @ApiEndpoint({
    operationId: 'createSession',
    summary: 'Sign in to the dashboard',
    description:
      'Exchanges the bearer key for a session cookie with exactly its scopes and spaces, for SESSION_TTL_HOURS ' +
      "at most (and never past the key's expiry). Only a key may sign in, not a session.",
  })
  @ApiDataResponse(SessionResponse, { status: 201 })
  @Post()
  @AnyScope()
  async create(@CurrentCaller() caller: ApiCaller, @Res({ passthrough: true }) response: Response) {
    const { session, token, expiresAt } = await this.sessions.start(caller);
    const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    response.setHeader('Set-Cookie', sessionCookie(token, maxAge, this.secure));
    response.setHeader('Cache-Control', 'no-store');
    return dataEnvelope(session);
  }

  @ApiEndpoint({ operationId: 'showSession', summary: 'What the session (or key) may do' })
  @ApiDataResponse(SessionResponse)
  @Get()
  @AnyScope()
  async show(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope(await this.sessions.describe(caller));
  }

  @ApiEndpoint({
    operationId: 'deleteSession',
    summary: 'Sign out of the dashboard',
    description:
      'Ends the session and removes its cookie. With a key instead of a session, it only removes the cookie.',
  })
  @ApiDeletedResponse('session')
  @Delete()
  @HttpCode(200)
  @AnyScope()
  async remove(@CurrentCaller() caller: ApiCaller, @Res({ passthrough: true }) response: Response) {
    await this.sessions.end(caller);
    response.setHeader('Set-Cookie', clearedSessionCookie(this.secure));
    return deletedEnvelope(caller.sessionId ?? 0, 'session');
  }
}
