import { Inject, Injectable } from '@nestjs/common';
import { hashApiKey } from '../auth/api-key';
import { AccountsService } from '../auth/accounts.service';
import type { ApiCaller } from '../auth/owner';
import { inScopeOrder } from '../auth/scopes';
import { authConfig, type AuthConfig } from '../config/app-config';
import { isoDate } from '../common/dates';
import { UnauthorizedActionException } from '../common/exceptions';
import { generateSessionToken } from '../auth/session-cookie';
import type { SessionResponse } from './session.mapper';
import { SessionsRepository } from './sessions.repository';

/** A session just made: what the API answers, and the token the cookie carries (never answered in a body). */
export interface StartedSession {
  session: SessionResponse;
  token: string;
  expiresAt: Date;
}

/** The dashboard's sign-in and sign-out: a key exchanged for a session with exactly its scopes and spaces. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly repository: SessionsRepository,
    private readonly accounts: AccountsService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  /** A new session of the caller's key; a session cannot make another (it would outlive its own end). */
  async start(caller: ApiCaller): Promise<StartedSession> {
    if (caller.sessionId !== null) throw new UnauthorizedActionException();
    const token = generateSessionToken();
    const expiresAt = await this.repository.create(
      caller.keyId,
      hashApiKey(token),
      new Date(Date.now() + this.config.sessionTtlHours * 3_600_000),
    );
    return { session: await this.describe({ ...caller, sessionExpiresAt: expiresAt }), token, expiresAt };
  }

  /** What the caller's session (or key) may do, as the dashboard shows it. */
  async describe(caller: ApiCaller): Promise<SessionResponse> {
    const key = await this.accounts.findKey(caller.account.id, caller.keyId);
    return {
      scopes: inScopeOrder(caller.granted),
      space_ids: caller.owner.spaceIds === null ? [] : [...caller.owner.spaceIds],
      expires_at: isoDate(sessionEnd(caller)),
      key: { id: caller.keyId, name: key?.name ?? '', prefix: key?.prefix ?? null },
    };
  }

  /** Ends the caller's session; a request made with the key itself has none to end. */
  async end(caller: ApiCaller): Promise<void> {
    if (caller.sessionId !== null) await this.repository.remove(caller.sessionId);
  }
}

/** When what the caller signed in with stops working: the earlier of the session's end and its key's expiry. */
function sessionEnd(caller: ApiCaller): Date | null {
  const ends = [caller.expiresAt, caller.sessionExpiresAt].filter((end): end is Date => end !== null);
  return ends.length === 0 ? null : new Date(Math.min(...ends.map((end) => end.getTime())));
}
