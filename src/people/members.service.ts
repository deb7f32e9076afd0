import { Inject, Injectable } from '@nestjs/common';
import type { ApiCaller } from '../auth/owner';
import type { Role } from '../auth/roles';
import { AuditRepository } from '../audit/audit.repository';
import {
  ResourceNotFoundException,
  UnauthorizedActionException,
  ValidationFailedException,
} from '../common/exceptions';
import { mapPage, type Page, type PageRequest } from '../common/pagination';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { Transactions, type Transaction } from '../database/transactions';
import type { InviteDto } from './dto/people.dto';
import { InvitationsRepository } from './invitations.repository';
import { Mailer } from './mailer';
import { MembersRepository } from './members.repository';
import {
  toInvitationResponse,
  toMemberResponse,
  type CreatedInvitationResponse,
  type InvitationResponse,
  type MemberResponse,
} from './people.mapper';
import { generateToken, hashToken } from './tokens';
import { UsersRepository } from './users.repository';

/** How long an invitation may be accepted. */
export const INVITATION_DAYS = 7;

/**
 * A workspace's members and invitations (contract §11). Owners are guarded: only an owner (a person, or the CLI)
 * makes, demotes or removes an owner, or invites one; an admin or a key that tries is refused (403), and the last
 * owner stays (422 on `role`).
 */
@Injectable()
export class MembersService {
  private readonly appUrl: string;

  constructor(
    private readonly members: MembersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditRepository,
    private readonly mailer: Mailer,
    private readonly transactions: Transactions,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.appUrl = server.appUrl;
  }

  async list(accountId: number, request: PageRequest): Promise<Page<MemberResponse>> {
    return mapPage(await this.members.page(accountId, request), toMemberResponse);
  }

  async show(accountId: number, userId: number): Promise<MemberResponse> {
    const row = await this.members.member(accountId, userId);
    if (row === null) throw new ResourceNotFoundException();
    return toMemberResponse(row);
  }

  /** Changes a member's role; `caller` null for the CLI, which may do anything. */
  async setRole(
    caller: ApiCaller | null,
    accountId: number,
    userId: number,
    role: Role,
  ): Promise<MemberResponse> {
    await this.transactions.run(async (tx) => {
      const member = await this.members.find(accountId, userId, tx);
      if (member === null) throw new ResourceNotFoundException();
      if (member.role === role) return;
      if ((member.role === 'owner' || role === 'owner') && !isOwnerOrCli(caller)) {
        throw new UnauthorizedActionException();
      }
      if (member.role === 'owner' && (await this.members.lockOwners(accountId, tx)) <= 1) {
        throw ValidationFailedException.of('role', 'The last owner of a workspace cannot be demoted.');
      }
      await this.members.setRole(accountId, userId, role, tx);
      await this.audit.record(tx, {
        accountId,
        action: 'member.updated',
        target: { type: 'member', id: userId },
        changes: { role: [member.role, role] },
      });
    });
    return this.show(accountId, userId);
  }

  /** Removes a member: their sessions in the workspace end at once, on every instance (the lookup joins it). */
  async remove(caller: ApiCaller, accountId: number, userId: number): Promise<void> {
    await this.transactions.run(async (tx) => {
      const member = await this.members.find(accountId, userId, tx);
      if (member === null) throw new ResourceNotFoundException();
      if (member.role === 'owner') {
        if (!isOwnerOrCli(caller)) throw new UnauthorizedActionException();
        if ((await this.members.lockOwners(accountId, tx)) <= 1) {
          throw ValidationFailedException.of('role', 'The last owner of a workspace cannot be removed.');
        }
      }
      await this.members.remove(accountId, userId, tx);
      await this.audit.record(tx, {
        accountId,
        action: 'member.removed',
        target: { type: 'member', id: userId },
        changes: { role: [member.role, null] },
      });
    });
  }

  /** Adds a user to a workspace (the CLI's `user:create --account`); a member already keeps their role. */
  async add(accountId: number, userId: number, role: Role): Promise<void> {
    await this.transactions.run(async (tx) => {
      if (await this.members.add(accountId, userId, role, tx)) {
        await this.audit.record(tx, {
          accountId,
          action: 'member.created',
          target: { type: 'member', id: userId },
          changes: { role: [null, role] },
        });
      }
    });
  }

  /**
   * The first owner's link, printed at the first start when no `INITIAL_ADMIN_EMAIL` is set: an owner invitation
   * that names no email (whoever opens it gives theirs), used once, within the invitation's days.
   */
  async firstOwnerLink(accountId: number): Promise<string> {
    const { token } = await this.transactions.run((tx) => this.newInvitation(accountId, null, 'owner', tx));
    return this.acceptUrl(token);
  }

  /** Invites a person by email; the answer alone carries the link, which is mailed too when SMTP is set. */
  async invite(
    caller: ApiCaller | null,
    accountId: number,
    dto: InviteDto,
  ): Promise<CreatedInvitationResponse> {
    if (dto.role === 'owner' && !isOwnerOrCli(caller)) throw new UnauthorizedActionException();
    const { invitation, token } = await this.transactions.run(async (tx) => {
      const user = await this.users.findByEmail(dto.email, tx);
      if (user !== null && (await this.members.find(accountId, user.id, tx)) !== null) {
        throw ValidationFailedException.of('email', 'This person is already a member of the workspace.');
      }
      return this.newInvitation(accountId, dto.email, dto.role, tx);
    });
    const acceptUrl = this.acceptUrl(token);
    await this.mailer.send({
      to: dto.email,
      subject: 'You are invited to a workspace',
      text:
        `You are invited to join a workspace as ${dto.role}.\n\n` +
        `Accept within ${INVITATION_DAYS} days: ${acceptUrl}\n\n` +
        'If you did not expect this, ignore this mail.\n',
    });
    return { ...toInvitationResponse(invitation), accept_url: acceptUrl };
  }

  /** An invitation and its token (kept only as its hash), recorded as `invitation.created`, in `tx`. */
  private async newInvitation(accountId: number, email: string | null, role: Role, tx: Transaction) {
    const token = generateToken('lsi');
    const invitation = await this.invitations.insert(
      {
        accountId,
        email,
        role,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
      },
      tx,
    );
    await this.audit.record(tx, {
      accountId,
      action: 'invitation.created',
      target: { type: 'invitation', id: invitation.id },
      changes: { ...(email === null ? {} : { email: [null, email] }), role: [null, role] },
    });
    return { invitation, token };
  }

  private acceptUrl(token: string): string {
    return `${this.appUrl}/app/accept-invitation?token=${token}`;
  }

  async invitationList(accountId: number, request: PageRequest): Promise<Page<InvitationResponse>> {
    return mapPage(await this.invitations.pending(accountId, request), toInvitationResponse);
  }

  async invitation(accountId: number, id: number): Promise<InvitationResponse> {
    const pending = await this.invitations.findPending(accountId, id);
    if (pending === null) throw new ResourceNotFoundException();
    return toInvitationResponse(pending);
  }

  async revokeInvitation(caller: ApiCaller, accountId: number, id: number): Promise<void> {
    const pending = await this.invitations.findPending(accountId, id);
    if (pending === null) throw new ResourceNotFoundException();
    if (pending.role === 'owner' && !isOwnerOrCli(caller)) throw new UnauthorizedActionException();
    await this.transactions.run(async (tx) => {
      const ended = await this.invitations.end({ id }, tx);
      if (ended === null) throw new ResourceNotFoundException();
      await this.audit.record(tx, {
        accountId,
        action: 'invitation.revoked',
        target: { type: 'invitation', id },
        changes: { email: [ended.email, null], role: [ended.role, null] },
      });
    });
  }
}

/** Whether the caller may act on owners: an owner signed in as a person, or the CLI (null). */
function isOwnerOrCli(caller: ApiCaller | null): boolean {
  return caller === null || caller.user?.role === 'owner';
}
