import { Inject, Injectable } from '@nestjs/common';
import { hashApiKey } from '../auth/api-key';
import { AccountsService } from '../auth/accounts.service';
import type { ApiCaller } from '../auth/owner';
import { Account } from '../auth/account.entity';
import { ROLE_SCOPES } from '../auth/roles';
import { grantedScopes, inScopeOrder } from '../auth/scopes';
import { generateSessionToken } from '../auth/session-cookie';
import { isoDate } from '../common/dates';
import { UnauthorizedActionException } from '../common/exceptions';
import { authConfig, type AuthConfig } from '../config/app-config';
import type { Transaction } from '../database/transactions';
import { MembersRepository } from './members.repository';
import type { SessionResponse } from './session.mapper';
import { SessionsRepository } from './sessions.repository';

/** A session just made: what the API answers, and the token the cookie carries (never answered in a body). */
export interface StartedSession {
  session: SessionResponse;
  token: string;
  expiresAt: Date;
}

/** Where a person signs in from, as their sessions list shows it. */
export interface Client {
  ip: string | null;
  userAgent: string | null;
}

/** The dashboard's sessions: a key exchanged for a cookie, or a person's sign-in to one of their workspaces. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly repository: SessionsRepository,
    private readonly members: MembersRepository,
    private readonly accounts: AccountsService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  /** A new session of the caller's key; a session cannot make another (it would outlive its own end). */
  async start(caller: ApiCaller): Promise<StartedSession> {
    if (caller.sessionId !== null || caller.keyId === null) throw new UnauthorizedActionException();
    const token = generateSessionToken();
    const expiresAt = await this.repository.create(caller.keyId, hashApiKey(token), this.newEnd());
    return { session: await this.describe({ ...caller, sessionExpiresAt: expiresAt }), token, expiresAt };
  }

  /** A new session of a user in one of their workspaces, in `tx`: its token and end. */
  async startForUser(
    userId: number,
    accountId: number,
    client: Client,
    secondFactor: boolean,
    tx: Transaction,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = generateSessionToken();
    const expiresAt = this.newEnd();
    await this.repository.createForUser(
      { userId, accountId, tokenHash: hashApiKey(token), expiresAt, secondFactor, ...client },
      tx,
    );
    return { token, expiresAt };
  }

  /** The caller of a user's session just made in `tx`, as the lookup of its next request will find it. */
  async callerOfUser(
    user: { id: number; name: string; email: string },
    accountId: number,
    expiresAt: Date,
    secondFactor: boolean,
    tx: Transaction,
  ): Promise<ApiCaller> {
    const workspace = (await this.members.workspacesOf(user.id, tx)).find((one) => one.id === accountId);
    if (workspace === undefined) throw new UnauthorizedActionException();
    const barred = workspace.require_two_factor && !secondFactor;
    return {
      account: Object.assign(new Account(), { id: workspace.id, name: workspace.name }),
      keyId: null,
      keyName: null,
      user: { id: user.id, name: user.name, email: user.email, role: workspace.role },
      granted: grantedScopes(barred ? [] : ROLE_SCOPES[workspace.role]),
      owner: { accountId, spaceIds: null },
      expiresAt: null,
      sessionId: null,
      sessionExpiresAt: expiresAt,
    };
  }

  /** Moves a user's session to another of their workspaces. */
  async switchWorkspace(sessionId: number, accountId: number): Promise<void> {
    await this.repository.switchWorkspace(sessionId, accountId);
  }

  /** What the caller's session (or key) may do, as the dashboard shows it; in `tx` when given. */
  async describe(caller: ApiCaller, tx?: Transaction): Promise<SessionResponse> {
    const key = caller.keyId === null ? null : await this.accounts.findKey(caller.account.id, caller.keyId);
    const workspaces = caller.user === null ? [] : await this.members.workspacesOf(caller.user.id, tx);
    return {
      scopes: inScopeOrder(caller.granted),
      space_ids: caller.owner.spaceIds === null ? [] : [...caller.owner.spaceIds],
      expires_at: isoDate(sessionEnd(caller)),
      key:
        caller.keyId === null
          ? null
          : { id: caller.keyId, name: key?.name ?? '', prefix: key?.prefix ?? null },
      user:
        caller.user === null
          ? null
          : { id: caller.user.id, name: caller.user.name, email: caller.user.email },
      workspace: { id: caller.account.id, name: caller.account.name, role: caller.user?.role ?? null },
      workspaces: workspaces.map(({ id, name, role }) => ({ id, name, role })),
    };
  }

  /** Ends the caller's session; a request made with the key itself has none to end. */
  async end(caller: ApiCaller): Promise<void> {
    if (caller.sessionId !== null) await this.repository.remove(caller.sessionId);
  }

  /** When a session made now ends (a key's, sooner if the key expires first). */
  private newEnd(): Date {
    return new Date(Date.now() + this.config.sessionTtlHours * 3_600_000);
  }
}

/** When what the caller signed in with stops working: the earlier of the session's end and its key's expiry. */
function sessionEnd(caller: ApiCaller): Date | null {
  const ends = [caller.expiresAt, caller.sessionExpiresAt].filter((end): end is Date => end !== null);
  return ends.length === 0 ? null : new Date(Math.min(...ends.map((end) => end.getTime())));
}
