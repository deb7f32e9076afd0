import { Body, Controller, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { Public } from '../auth/public.decorator';
import { RequestAccount } from '../auth/request-account';
import { resourceRoutes, ScopedRoute } from '../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ListQueryDto } from '../common/list-query.dto';
import { ApiDataResponse, ApiEndpoint } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { AcceptInvitationDto, InviteDto, SetRoleDto } from './dto/people.dto';
import { MembersService } from './members.service';
import { CreatedInvitationResponse, InvitationResponse, MemberResponse } from './people.mapper';
import { SessionResponse } from './session.mapper';
import { SessionCookies } from './session-cookies';
import { clientOf } from './sessions.controller';
import { SignInService } from './sign-in.service';

const memberRoutes = resourceRoutes({
  scopes: 'members',
  id: 'Member',
  one: 'a member',
  many: 'members',
  response: MemberResponse,
  object: 'member',
});

const invitationRoutes = resourceRoutes({
  scopes: 'members',
  id: 'Invitation',
  one: 'a pending invitation',
  many: 'pending invitations',
  response: InvitationResponse,
  object: 'invitation',
  examples: { create: { email: 'bo@example.com', role: 'editor' } },
});

/** A workspace's members (contract §11). */
@ApiTags('members')
@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @memberRoutes.list()
  async list(@CurrentCaller() caller: ApiCaller, @Query() query: ListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(
      request,
      query.pageRequest(),
      await this.members.list(caller.account.id, query.pageRequest()),
    );
  }

  @memberRoutes.show()
  async show(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.members.show(caller.account.id, id));
  }

  @ScopedRoute('members.write', Patch(':id'), {
    operationId: 'updateMember',
    summary: "Change a member's role",
    description: 'Only an owner makes or demotes an owner; the last owner stays (422 on `role`).',
    body: true,
    errors: [404],
    example: { role: 'editor' },
  })
  @ApiDataResponse(MemberResponse)
  async update(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number, @Body() dto: SetRoleDto) {
    return dataEnvelope(await this.members.setRole(caller, caller.account.id, id, dto.role));
  }

  @ScopedRoute('members.write', Put(':id'), {
    operationId: 'replaceMember',
    summary: "Change a member's role (PUT)",
    description: 'The same as PATCH.',
    body: true,
    errors: [404],
    example: { role: 'editor' },
  })
  @ApiDataResponse(MemberResponse)
  async replace(
    @CurrentCaller() caller: ApiCaller,
    @Param('id', IdPipe) id: number,
    @Body() dto: SetRoleDto,
  ) {
    return dataEnvelope(await this.members.setRole(caller, caller.account.id, id, dto.role));
  }

  @memberRoutes.remove({
    summary: 'Remove a member',
    description:
      'Their sessions in this workspace end at once, on every instance. Only an owner removes an owner.',
    errors: [404, 422],
  })
  async remove(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    await this.members.remove(caller, caller.account.id, id);
    return deletedEnvelope(id, 'member');
  }
}

/** Invitations to a workspace (contract §11). */
@ApiTags('members')
@Controller('api/v1/invitations')
export class InvitationsController {
  constructor(
    private readonly members: MembersService,
    private readonly signIns: SignInService,
    private readonly requestAccount: RequestAccount,
    private readonly cookies: SessionCookies,
  ) {}

  @invitationRoutes.list()
  async list(@CurrentCaller() caller: ApiCaller, @Query() query: ListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(
      request,
      query.pageRequest(),
      await this.members.invitationList(caller.account.id, query.pageRequest()),
    );
  }

  @invitationRoutes.show()
  async show(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.members.invitation(caller.account.id, id));
  }

  @invitationRoutes.create({
    summary: 'Invite a person',
    description:
      '`accept_url` is in this answer only; it is mailed too when SMTP_URL is set. Only an owner invites an owner.',
    response: CreatedInvitationResponse,
  })
  async create(@CurrentCaller() caller: ApiCaller, @Body() dto: InviteDto) {
    return dataEnvelope(await this.members.invite(caller, caller.account.id, dto));
  }

  @invitationRoutes.remove({ summary: 'Revoke an invitation' })
  async remove(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    await this.members.revokeInvitation(caller, caller.account.id, id);
    return deletedEnvelope(id, 'invitation');
  }

  @ApiEndpoint({
    operationId: 'acceptInvitation',
    summary: 'Accept an invitation',
    description:
      'Makes the user (with `name` and `password`) or, signed in as the invited user, adds the membership; answers ' +
      'as a sign-in does. A used, revoked or expired token: 422 on `token`.',
    body: true,
    errors: [422],
    example: { token: 'lsi_…', name: 'Bo Chen', password: 'correct horse battery' },
  })
  @ApiDataResponse(SessionResponse, { status: 201 })
  @Post('accept')
  @Public()
  async accept(
    @Body() dto: AcceptInvitationDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    const caller = await this.requestAccount.of(request.headers);
    const started = await this.signIns.accept(dto, caller, clientOf(request));
    return this.cookies.answer(response, started);
  }
}
