import { Inject, Injectable } from '@nestjs/common';
import { AccountsService } from '../auth/accounts.service';
import type { ApiCaller } from '../auth/owner';
import { setActor } from '../common/actor';
import { UnauthorizedActionException, ValidationFailedException } from '../common/exceptions';
import { hashSecret, verifySecret } from '../common/secret-hash';
import { peopleConfig, type PeopleConfig } from '../config/app-config';
import { Transactions, type Transaction } from '../database/transactions';
import { AuditRepository } from '../audit/audit.repository';
import type { AcceptInvitationDto, RegisterDto, SignInDto } from './dto/people.dto';
import { InvitationsRepository } from './invitations.repository';
import { MembersRepository } from './members.repository';
import { SessionsService, type Client, type StartedSession } from './sessions.service';
import { SignInLimits } from './sign-in-limits';
import { hashToken } from './tokens';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';

/** The one message of a wrong email and of a wrong password, so that neither tells which it was. */
export const WRONG_CREDENTIALS = 'These credentials do not match our records.';

/**
 * A person's way in (contract §11): the sign-in by email and password, the acceptance of an invitation, and an
 * open registration. Each ends in a session of the user in one of their workspaces, made in the transaction that
 * records it in the audit log.
 */
@Injectable()
export class SignInService {
  /** A hash no password matches, checked when no user has the email: the answer takes the time it would. */
  private readonly decoy: Promise<string> = hashSecret(`decoy-${Math.random()}`);

  constructor(
    private readonly users: UsersRepository,
    private readonly members: MembersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    private readonly audit: AuditRepository,
    private readonly limits: SignInLimits,
    private readonly transactions: Transactions,
    @Inject(peopleConfig.KEY) private readonly config: PeopleConfig,
  ) {}

  async signIn(dto: SignInDto, client: Client): Promise<StartedSession> {
    await this.limits.attempt(dto.email, client.ip ?? undefined);
    const user = await this.users.findByEmail(dto.email);
    const matches = await verifySecret(dto.password, user?.passwordHash ?? (await this.decoy));
    if (user === null || user.passwordHash === null || !matches) {
      throw ValidationFailedException.of('email', WRONG_CREDENTIALS);
    }
    const workspaces = await this.members.workspacesOf(user.id);
    const workspace =
      dto.workspace_id == null ? workspaces[0] : workspaces.find((one) => one.id === dto.workspace_id);
    if (workspace === undefined) {
      throw ValidationFailedException.of(
        dto.workspace_id == null ? 'email' : 'workspace_id',
        dto.workspace_id == null
          ? 'This user belongs to no workspace.'
          : 'The selected workspace id is invalid.',
      );
    }
    return this.transactions.run((tx) => this.open(user, workspace.id, client, tx));
  }

  /** Moves the caller's session to another of the user's workspaces. */
  async switchWorkspace(caller: ApiCaller, workspaceId: number): Promise<void> {
    if (caller.user === null || caller.sessionId === null) throw new UnauthorizedActionException();
    const membership = await this.members.find(workspaceId, caller.user.id);
    if (membership === null)
      throw ValidationFailedException.of('workspace_id', 'The selected workspace id is invalid.');
    await this.sessions.switchWorkspace(caller.sessionId, workspaceId);
  }

  /**
   * Accepts an invitation: a new user with the name and password given, or, for a signed-in user whose email the
   * invitation names, a membership of theirs. A used, revoked or expired token is a 422 on `token`.
   */
  async accept(dto: AcceptInvitationDto, caller: ApiCaller | null, client: Client): Promise<StartedSession> {
    await this.limits.attempt(null, client.ip ?? undefined);
    const invalid = () => ValidationFailedException.of('token', 'The invitation is invalid or has expired.');
    return this.transactions.run(async (tx) => {
      const invitation = await this.invitations.end({ tokenHash: hashToken(dto.token) }, tx);
      if (invitation === null) throw invalid();
      const email = invitation.email ?? dto.email;
      if (email === undefined) throw ValidationFailedException.of('email', 'The email field is required.');
      let user = await this.users.findByEmail(email, tx);
      if (user !== null && caller?.user?.id !== user.id) {
        // The address has a user already: they accept signed in, so that nobody takes over their account.
        throw ValidationFailedException.of('token', 'Sign in as the invited user to accept this invitation.');
      }
      if (user === null) {
        const missing: Record<string, string[]> = {};
        if (dto.name === undefined) missing.name = ['The name field is required.'];
        if (dto.password === undefined) missing.password = ['The password field is required.'];
        if (Object.keys(missing).length > 0) throw new ValidationFailedException(missing);
        checkPassword(dto.password!, email);
        user = await this.users.insert(
          { name: dto.name!, email, passwordHash: await hashSecret(dto.password!) },
          tx,
        );
      }
      await this.members.add(invitation.accountId, user.id, invitation.role, tx);
      setActor({ type: 'user', id: user.id, name: user.name, ip: client.ip });
      await this.audit.record(tx, {
        accountId: invitation.accountId,
        action: 'invitation.accepted',
        target: { type: 'member', id: user.id },
        changes: { email: [null, email], role: [null, invitation.role] },
      });
      return this.open(user, invitation.accountId, client, tx);
    });
  }

  /** An open registration: a user and a workspace they own. */
  async register(dto: RegisterDto, client: Client): Promise<StartedSession> {
    if (this.config.registration !== 'open') throw new UnauthorizedActionException();
    await this.limits.attempt(dto.email, client.ip ?? undefined);
    checkPassword(dto.password, dto.email);
    const passwordHash = await hashSecret(dto.password);
    return this.transactions.run(async (tx) => {
      if ((await this.users.findByEmail(dto.email, tx)) !== null) {
        throw ValidationFailedException.of('email', 'The email has already been taken.');
      }
      const user = await this.users.insert({ name: dto.name, email: dto.email, passwordHash }, tx);
      const workspace = await this.accounts.createWorkspace(dto.name, tx);
      await this.members.add(workspace.id, user.id, 'owner', tx);
      return this.open(user, workspace.id, client, tx);
    });
  }

  /** The session of a user who just proved who they are, recorded as `session.created`. */
  private async open(
    user: User,
    accountId: number,
    client: Client,
    tx: Transaction,
  ): Promise<StartedSession> {
    setActor({ type: 'user', id: user.id, name: user.name, ip: client.ip });
    const { token, expiresAt } = await this.sessions.startForUser(user.id, accountId, client, tx);
    await this.audit.record(tx, {
      accountId,
      action: 'session.created',
      target: { type: 'member', id: user.id },
    });
    const caller = await this.sessions.callerOfUser(user, accountId, expiresAt, tx);
    return { session: await this.sessions.describe(caller, tx), token, expiresAt };
  }
}

/** The contract's password rules beyond length: not the email. */
export function checkPassword(password: string, email: string): void {
  if (password.trim().toLowerCase() === email.toLowerCase()) {
    throw ValidationFailedException.of('password', 'The password must not be the email address.');
  }
}
