import { Inject, Injectable } from '@nestjs/common';
import { AccountsService } from '../auth/accounts.service';
import type { ApiCaller } from '../auth/owner';
import { actingAs, setActor } from '../common/actor';
import { UnauthorizedActionException, ValidationFailedException } from '../common/exceptions';
import { hashSecret, verifySecret } from '../common/secret-hash';
import { peopleConfig, type PeopleConfig } from '../config/app-config';
import { Transactions, type Transaction } from '../database/transactions';
import { AuditRepository } from '../audit/audit.repository';
import type { AcceptInvitationDto, PasskeySignInDto, RegisterDto, SignInDto } from './dto/people.dto';
import { InvitationsRepository } from './invitations.repository';
import { MembersRepository } from './members.repository';
import { SessionsService, type Client, type StartedSession } from './sessions.service';
import { PasskeysService } from './passkeys.service';
import { SignInLimits } from './sign-in-limits';
import { SingleSignOnService, type VouchedPerson } from './single-sign-on.service';
import { TwoFactorService } from './two-factor.service';
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
    private readonly twoFactor: TwoFactorService,
    private readonly passkeys: PasskeysService,
    private readonly sso: SingleSignOnService,
    private readonly transactions: Transactions,
    @Inject(peopleConfig.KEY) private readonly config: PeopleConfig,
  ) {}

  async signIn(dto: SignInDto, client: Client): Promise<StartedSession> {
    await this.limits.attempt(dto.email, client.ip ?? undefined);
    const user = await this.users.findByEmail(dto.email);
    const matches = await verifySecret(dto.password, user?.passwordHash ?? (await this.decoy));
    if (user === null || user.passwordHash === null || !matches) {
      await this.limits.failed(dto.email, client.ip ?? undefined);
      throw ValidationFailedException.of('email', WRONG_CREDENTIALS);
    }
    await this.counted(dto.email, client, () => this.twoFactor.check(user, dto.otp));
    return this.into(user, dto.workspace_id, client, user.totpSecret !== null);
  }

  /** A sign-in with a passkey: the device and its PIN or biometric are two factors. */
  async signInWithPasskey(dto: PasskeySignInDto, client: Client): Promise<StartedSession> {
    await this.limits.attempt(null, client.ip ?? undefined);
    const userId = await this.counted(null, client, () =>
      this.passkeys.authenticate(dto.challenge_id, dto.response),
    );
    const user = await this.users.findById(userId);
    if (user === null) throw ValidationFailedException.of('response', 'The passkey could not be verified.');
    return this.into(user, dto.workspace_id, client, true);
  }

  /**
   * A sign-in by single sign-on, once the issuer vouched for the person: a user already known, or (for an email of
   * an allowed domain) a new one, who joins the first workspace with the default role. Null when refused.
   */
  async signInWithSso(person: VouchedPerson, client: Client): Promise<StartedSession | null> {
    // The way back is a browser's GET, which opens no actor's scope of its own: this sign-in writes, so it opens one.
    return actingAs({ type: 'user', id: null, name: person.name, ip: client.ip }, () =>
      this.ssoSignIn(person, client),
    );
  }

  private async ssoSignIn(person: VouchedPerson, client: Client): Promise<StartedSession | null> {
    await this.limits.attempt(person.email, client.ip ?? undefined);
    let user = await this.users.findByEmail(person.email);
    const allowed = this.sso.allows(person.email);
    if (user === null && !allowed) return null;
    if (user === null)
      user = await this.users.insert({ name: person.name, email: person.email, passwordHash: null });
    if ((await this.members.workspacesOf(user.id)).length === 0) {
      const first = await this.accounts.firstWorkspaceId();
      if (!allowed || first === null) return null;
      setActor({ type: 'user', id: user.id, name: user.name, ip: client.ip });
      await this.transactions.run(async (tx) => {
        await this.members.add(first, user.id, this.sso.defaultRole, tx);
        await this.audit.record(tx, {
          accountId: first,
          action: 'member.created',
          target: { type: 'member', id: user.id },
          changes: { role: [null, this.sso.defaultRole] },
        });
      });
    }
    return this.into(user, null, client, false);
  }

  /** The session of a user who proved who they are, in the workspace asked for or their first. */
  private async into(
    user: User,
    workspaceId: number | null | undefined,
    client: Client,
    secondFactor: boolean,
  ): Promise<StartedSession> {
    const workspaces = await this.members.workspacesOf(user.id);
    const workspace = workspaceId == null ? workspaces[0] : workspaces.find((one) => one.id === workspaceId);
    if (workspace === undefined) {
      throw workspaceId == null
        ? ValidationFailedException.of('email', 'This user belongs to no workspace.')
        : ValidationFailedException.of('workspace_id', 'The selected workspace id is invalid.');
    }
    return this.transactions.run((tx) => this.open(user, workspace.id, client, secondFactor, tx));
  }

  /** `work`, whose refusal (a 422) counts as a failed attempt of the email and the client's address. */
  private async counted<T>(email: string | null, client: Client, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ValidationFailedException) await this.limits.failed(email, client.ip ?? undefined);
      throw error;
    }
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
      if (invitation === null) {
        await this.limits.failed(null, client.ip ?? undefined);
        throw invalid();
      }
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
      return this.open(user, invitation.accountId, client, false, tx);
    });
  }

  get registrationOpen(): boolean {
    return this.config.registration === 'open';
  }

  /** An open registration: a user and a workspace they own. */
  async register(dto: RegisterDto, client: Client): Promise<StartedSession> {
    if (this.config.registration !== 'open') throw new UnauthorizedActionException();
    await this.limits.attempt(dto.email, client.ip ?? undefined);
    checkPassword(dto.password, dto.email);
    const passwordHash = await hashSecret(dto.password);
    return this.transactions.run(async (tx) => {
      if ((await this.users.findByEmail(dto.email, tx)) !== null) {
        // Counted as a failure: whoever probes for addresses this way meets the sign-in's limits.
        await this.limits.failed(dto.email, client.ip ?? undefined);
        throw ValidationFailedException.of('email', 'The email has already been taken.');
      }
      const user = await this.users.insert({ name: dto.name, email: dto.email, passwordHash }, tx);
      const workspace = await this.accounts.createWorkspace(dto.name, tx);
      await this.members.add(workspace.id, user.id, 'owner', tx);
      return this.open(user, workspace.id, client, false, tx);
    });
  }

  /** The session of a user who just proved who they are, recorded as `session.created`. */
  private async open(
    user: User,
    accountId: number,
    client: Client,
    secondFactor: boolean,
    tx: Transaction,
  ): Promise<StartedSession> {
    setActor({ type: 'user', id: user.id, name: user.name, ip: client.ip });
    const { token, expiresAt } = await this.sessions.startForUser(
      user.id,
      accountId,
      client,
      secondFactor,
      tx,
    );
    await this.audit.record(tx, {
      accountId,
      action: 'session.created',
      target: { type: 'member', id: user.id },
    });
    const caller = await this.sessions.callerOfUser(user, accountId, expiresAt, secondFactor, tx);
    return { session: await this.sessions.describe(caller, tx), token, expiresAt };
  }
}

/** The contract's password rules beyond length: not the email. */
export function checkPassword(password: string, email: string): void {
  if (password.trim().toLowerCase() === email.toLowerCase()) {
    throw ValidationFailedException.of('password', 'The password must not be the email address.');
  }
}
