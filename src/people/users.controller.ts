import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { Public } from '../auth/public.decorator';
import { AnyScope } from '../auth/requires-scope.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint } from '../common/openapi';
import { ForgotPasswordDto, RegisterDto, ResetPasswordDto, UpdateUserDto } from './dto/people.dto';
import { PasswordEmailResponse, UserResponse, UserSessionResponse } from './people.mapper';
import { SessionResponse } from './session.mapper';
import { SessionCookies } from './session-cookies';
import { clientOf } from './sessions.controller';
import { SignInService } from './sign-in.service';
import { UsersService } from './users.service';

/** A signed-in user's own account, an open registration, and the password reset (contract §11). */
@ApiTags('user')
@Controller('api/v1')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly signIns: SignInService,
    private readonly cookies: SessionCookies,
  ) {}

  @ApiEndpoint({
    operationId: 'showUser',
    summary: 'The signed-in user',
    description: "A user's session only.",
  })
  @ApiDataResponse(UserResponse)
  @Get('user')
  @AnyScope()
  async show(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope(await this.users.me(caller));
  }

  @ApiEndpoint({
    operationId: 'updateUser',
    summary: 'Change the signed-in user',
    description:
      '`name`, `email` or `password`; the last two with `current_password`. A new password ends every other ' +
      'session of the user.',
    body: true,
    errors: [422],
    example: { name: 'Ann Lee' },
  })
  @ApiDataResponse(UserResponse)
  @Patch('user')
  @AnyScope()
  async update(@CurrentCaller() caller: ApiCaller, @Body() dto: UpdateUserDto) {
    return dataEnvelope(await this.users.update(caller, dto));
  }

  @ApiEndpoint({
    operationId: 'listUserSessions',
    summary: "The signed-in user's sessions",
    description: 'Newest first.',
  })
  @ApiDataResponse(UserSessionResponse, { isArray: true })
  @Get('user/sessions')
  @AnyScope()
  async sessions(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope(await this.users.sessionList(caller));
  }

  @ApiEndpoint({ operationId: 'deleteUserSession', summary: 'End one of the user’s sessions', errors: [404] })
  @ApiDeletedResponse('session')
  @Delete('user/sessions/:id')
  @HttpCode(200)
  @AnyScope()
  async endSession(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    await this.users.endSession(caller, id);
    return deletedEnvelope(id, 'session');
  }

  @ApiEndpoint({
    operationId: 'register',
    summary: 'Register (when REGISTRATION=open)',
    description:
      'Makes a user and a workspace they own, and signs them in. Refused (403) while registration is closed.',
    body: true,
    errors: [422],
    example: { name: 'Ann Lee', email: 'ann@example.com', password: 'correct horse battery' },
  })
  @ApiDataResponse(SessionResponse, { status: 201 })
  @Post('users')
  @Public()
  async register(
    @Body() dto: RegisterDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const started = await this.signIns.register(dto, clientOf(request));
    return this.cookies.answer(response, started);
  }

  @ApiEndpoint({
    operationId: 'forgotPassword',
    summary: 'Ask for a password reset',
    description:
      'Mails a link (60 minutes, used once) when a user has the email; the answer is the same either way.',
    body: true,
    errors: [422],
    example: { email: 'ann@example.com' },
  })
  @ApiDataResponse(PasswordEmailResponse, { status: 202, description: 'Accepted, whatever the email.' })
  @Post('password/forgot')
  @HttpCode(202)
  @Public()
  async forgot(@Body() dto: ForgotPasswordDto, @Req() request: Request) {
    await this.users.forgot(dto.email, request.ip ?? null);
    // The same answer whether the email has a user or not.
    return dataEnvelope({ email: dto.email });
  }

  @ApiEndpoint({
    operationId: 'resetPassword',
    summary: 'Set a new password with a reset link’s token',
    description: 'Every session of the user ends.',
    body: true,
    errors: [422],
    example: { token: 'lsr_…', password: 'correct horse battery' },
  })
  @ApiDataResponse(PasswordEmailResponse)
  @Post('password/reset')
  @HttpCode(200)
  @Public()
  async reset(@Body() dto: ResetPasswordDto, @Req() request: Request) {
    return dataEnvelope({ email: await this.users.reset(dto.token, dto.password, request.ip ?? null) });
  }

  @Put('user')
  @AnyScope()
  @ApiEndpoint({
    operationId: 'replaceUser',
    summary: 'Change the signed-in user (PUT)',
    body: true,
    errors: [422],
  })
  @ApiDataResponse(UserResponse)
  async replace(@CurrentCaller() caller: ApiCaller, @Body() dto: UpdateUserDto) {
    return dataEnvelope(await this.users.update(caller, dto));
  }
}
