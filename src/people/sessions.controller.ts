import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Put,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { Public } from '../auth/public.decorator';
import { RequestAccount } from '../auth/request-account';
import { AnyScope } from '../auth/requires-scope.decorator';
import { recordedAddress } from '../common/client-address';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint } from '../common/openapi';
import { createValidationPipe } from '../common/validation.pipe';
import { SessionCookies } from './session-cookies';
import { PasskeySignInDto, SignInDto, SwitchWorkspaceDto } from './dto/people.dto';
import { PasskeysService } from './passkeys.service';
import { PasskeySignInOptionsResponse, SignInProvidersResponse } from './people.mapper';
import { SingleSignOnService } from './single-sign-on.service';
import { ResourceNotFoundException } from '../common/exceptions';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { SessionResponse } from './session.mapper';
import { SessionsService, type Client, type StartedSession } from './sessions.service';
import { SignInService } from './sign-in.service';

/** A browser's way on, without a body (Express's own redirect writes one in text). */
function redirect(response: Response, location: string): void {
  response.status(302).setHeader('Location', location).setHeader('Cache-Control', 'no-store').end();
}

/** Where a request comes from, as a session records it. */
export function clientOf(request: Request): Client {
  return { ip: recordedAddress(request.ip), userAgent: request.headers['user-agent'] ?? null };
}

/**
 * The dashboard's sign-in (contract §11): a person's email and password, or a key sent once as a bearer, becomes a
 * session cookie (HttpOnly, SameSite=Strict, Secure over https) that carries no secret. Requests made with the
 * cookie must carry `X-Shortlink-Session: 1` and come from this origin; see docs/SECURITY.md.
 */
@ApiTags('session')
@Controller('api/v1/session')
export class SessionsController {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly sessions: SessionsService,
    private readonly signIns: SignInService,
    private readonly requestAccount: RequestAccount,
    private readonly cookies: SessionCookies,
    private readonly passkeys: PasskeysService,
    private readonly sso: SingleSignOnService,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.appUrl = server.appUrl;
  }

  private readonly appUrl: string;

  @ApiEndpoint({
    operationId: 'createSession',
    summary: 'Sign in',
    description:
      'With `email` and `password` (and `otp` when two-factor is on): a session of the user in a workspace, with ' +
      "their role's scopes. With a bearer key instead: a session with exactly the key's scopes and spaces, never " +
      "past the key's expiry. Either lasts SESSION_TTL_HOURS at most. Wrong email or password: 422 on `email`.",
    body: true,
    errors: [422],
    example: { email: 'ann@example.com', password: 'correct horse battery' },
  })
  @ApiBody({ type: SignInDto, required: false })
  @ApiDataResponse(SessionResponse, { status: 201 })
  @Post()
  @Public()
  async create(@Req() request: Request, @Res({ passthrough: true }) response: Response) {
    let started: StartedSession;
    if (request.headers.authorization !== undefined) {
      const caller = await this.requestAccount.of(request.headers);
      if (caller === null) throw new UnauthorizedException();
      started = await this.sessions.start(caller);
    } else {
      const dto = (await this.validation.transform(request.body ?? {}, {
        type: 'body',
        metatype: SignInDto,
      })) as SignInDto;
      started = await this.signIns.signIn(dto, clientOf(request));
    }
    return this.cookies.answer(response, started);
  }

  @ApiEndpoint({
    operationId: 'passkeySignInOptions',
    summary: 'Options to sign in with a passkey',
    description: 'For `navigator.credentials.get`; good for five minutes, once.',
  })
  @ApiDataResponse(PasskeySignInOptionsResponse)
  @Post('passkey/options')
  @HttpCode(200)
  @Public()
  async passkeyOptions() {
    return dataEnvelope(await this.passkeys.signInOptions());
  }

  @ApiEndpoint({
    operationId: 'createPasskeySession',
    summary: 'Sign in with a passkey',
    description:
      'What the browser answered to the options; a passkey counts as two factors. 422 on `response`.',
    body: true,
    errors: [422],
    example: { challenge_id: 9, response: { id: '…', rawId: '…', type: 'public-key', response: {} } },
  })
  @ApiDataResponse(SessionResponse, { status: 201 })
  @Post('passkey')
  @Public()
  async passkey(
    @Body() dto: PasskeySignInDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    return this.cookies.answer(response, await this.signIns.signInWithPasskey(dto, clientOf(request)));
  }

  @ApiEndpoint({
    operationId: 'signInProviders',
    summary: 'The ways in this service offers',
    description: 'Whether single sign-on is set up, and whether anyone may register.',
  })
  @ApiDataResponse(SignInProvidersResponse)
  @Get('providers')
  @Public()
  providers() {
    return dataEnvelope({
      oidc: this.sso.enabled ? 1 : 0,
      registration: this.signIns.registrationOpen ? 1 : 0,
    });
  }

  @ApiEndpoint({
    operationId: 'startSingleSignOn',
    summary: 'Sign in by single sign-on',
    description:
      'Sends the browser to the OpenID Connect issuer (`OIDC_ISSUER_URL`); a 404 when none is set.',
    errors: [404],
  })
  @ApiResponse({
    status: 302,
    description: 'To the issuer.',
    headers: { Location: { schema: { type: 'string' } } },
  })
  @Get('oidc')
  @Public()
  async startSso(@Res() response: Response) {
    if (!this.sso.enabled) throw new ResourceNotFoundException();
    redirect(response, await this.sso.start());
  }

  @ApiEndpoint({
    operationId: 'finishSingleSignOn',
    summary: 'The way back from single sign-on',
    description:
      'Where the issuer sends the browser: signed in, it goes on to the dashboard with its session cookie; ' +
      'refused, to the dashboard with `?sso=failed`.',
    errors: [404],
  })
  @ApiResponse({
    status: 302,
    description: 'To the dashboard.',
    headers: { Location: { schema: { type: 'string' } } },
  })
  @Get('oidc/callback')
  @Public()
  async finishSso(@Req() request: Request, @Res() response: Response) {
    if (!this.sso.enabled) throw new ResourceNotFoundException();
    const person = await this.sso.finish(new URL(request.originalUrl, this.appUrl));
    const started = person === null ? null : await this.signIns.signInWithSso(person, clientOf(request));
    if (started !== null) this.cookies.set(response, started);
    redirect(response, started === null ? '/app/?sso=failed' : '/app/');
  }

  @ApiEndpoint({ operationId: 'showSession', summary: 'What the session (or key) may do' })
  @ApiDataResponse(SessionResponse)
  @Get()
  @AnyScope()
  async show(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope(await this.sessions.describe(caller));
  }

  @ApiEndpoint({
    operationId: 'switchWorkspace',
    summary: 'Switch to another workspace',
    description: "A user's session acts in another of their workspaces from its next request on.",
    body: true,
    errors: [422],
    example: { workspace_id: 1 },
  })
  @ApiDataResponse(SessionResponse)
  @Put()
  @AnyScope()
  async switch(@CurrentCaller() caller: ApiCaller, @Body() dto: SwitchWorkspaceDto, @Req() request: Request) {
    await this.signIns.switchWorkspace(caller, dto.workspace_id);
    const switched = await this.requestAccount.fresh(request.headers);
    return dataEnvelope(await this.sessions.describe(switched ?? caller));
  }

  @ApiEndpoint({
    operationId: 'deleteSession',
    summary: 'Sign out',
    description:
      'Ends the session and removes its cookie. With a key instead of a session, it only removes the cookie.',
  })
  @ApiDeletedResponse('session')
  @Delete()
  @HttpCode(200)
  @AnyScope()
  async remove(@CurrentCaller() caller: ApiCaller, @Res({ passthrough: true }) response: Response) {
    await this.sessions.end(caller);
    this.cookies.clear(response);
    return deletedEnvelope(caller.sessionId ?? 0, 'session');
  }
}
