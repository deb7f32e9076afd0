import { Inject, Injectable } from '@nestjs/common';
import type { ApiCaller } from '../auth/owner';
import { ValidationFailedException } from '../common/exceptions';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { Transactions } from '../database/transactions';
import { AuditRepository } from '../audit/audit.repository';
import { checkCurrentPassword } from './current-password';
import { toUserResponse, type UserResponse } from './people.mapper';
import {
  hashRecoveryCode,
  isRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUrl,
  totpStep,
} from './two-factor';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';

/** A two-factor set-up under way: the secret to enter in an authenticator app, shown once. */
export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
}

/**
 * Two-factor sign-in (RFC 6238 TOTP, with ten single-use recovery codes): turned on by confirming a code of the
 * app, checked at every sign-in by password once on, turned off with the password. A code works once: the step of
 * the last one used is kept, so a code seen over a shoulder cannot be replayed in its 30 seconds.
 */
@Injectable()
export class TwoFactorService {
  private readonly issuer: string;

  constructor(
    private readonly users: UsersRepository,
    private readonly audit: AuditRepository,
    private readonly transactions: Transactions,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.issuer = server.appName;
  }

  /** A new secret, pending until a code of it is confirmed; a user with two-factor on must turn it off first. */
  async start(caller: ApiCaller): Promise<TwoFactorSetup> {
    const user = await this.users.ofCaller(caller);
    if (user.totpSecret !== null) {
      throw ValidationFailedException.of('two_factor', 'Two-factor sign-in is already on.');
    }
    const secret = newTotpSecret();
    await this.users.setPendingTotp(user.id, secret);
    return { secret, otpauth_url: otpauthUrl(secret, this.issuer, user.email) };
  }

  /** Turns two-factor on with a code of the pending secret; the ten recovery codes, shown this once. */
  async confirm(caller: ApiCaller, otp: string): Promise<string[]> {
    const user = await this.users.ofCaller(caller);
    if (user.totpPendingSecret === null) {
      throw ValidationFailedException.of('otp', 'Start the two-factor set-up first.');
    }
    const step = totpStep(user.totpPendingSecret, otp, null);
    if (step === null) throw ValidationFailedException.of('otp', 'The code is incorrect.');
    const codes = newRecoveryCodes();
    await this.transactions.run(async (tx) => {
      await this.users.enableTotp(user.id, user.totpPendingSecret!, step, codes.map(hashRecoveryCode), tx);
      await this.recordEach('user.two_factor_enabled', user.id, tx);
    });
    return codes;
  }

  /** Turns two-factor off, with the password. */
  async disable(caller: ApiCaller, password: string): Promise<UserResponse> {
    const user = await this.withPassword(caller, password);
    await this.transactions.run(async (tx) => {
      await this.users.disableTotp(user.id, tx);
      await this.recordEach('user.two_factor_disabled', user.id, tx);
    });
    return toUserResponse((await this.users.findById(user.id))!);
  }

  /** Ten new recovery codes in place of the old, with the password. */
  async renewCodes(caller: ApiCaller, password: string): Promise<string[]> {
    const user = await this.withPassword(caller, password);
    if (user.totpSecret === null)
      throw ValidationFailedException.of('two_factor', 'Two-factor sign-in is off.');
    const codes = newRecoveryCodes();
    await this.users.setRecoveryCodes(user.id, codes.map(hashRecoveryCode));
    return codes;
  }

  /**
   * The second factor of a sign-in by password: nothing for a user without two-factor; otherwise `otp` must be a
   * code of the app not used before, or one of the recovery codes (which it uses up). A 422 on `otp` otherwise.
   */
  async check(user: User, otp: string | null | undefined): Promise<void> {
    if (user.totpSecret === null) return;
    if (otp == null || otp.trim() === '')
      throw ValidationFailedException.of('otp', 'The otp field is required.');
    const code = otp.trim();
    if (isRecoveryCode(code)) {
      if (await this.users.useRecoveryCode(user.id, hashRecoveryCode(code))) return;
    } else {
      const step = totpStep(
        user.totpSecret,
        code,
        user.totpLastStep === null ? null : Number(user.totpLastStep),
      );
      // The step is taken in one conditional update: two sign-ins with one code cannot both pass.
      if (step !== null && (await this.users.useTotpStep(user.id, step))) return;
    }
    throw ValidationFailedException.of('otp', 'The code is incorrect.');
  }

  private async withPassword(caller: ApiCaller, password: string): Promise<User> {
    const user = await this.users.ofCaller(caller);
    await checkCurrentPassword(user, password);
    return user;
  }

  /** The change, in the audit log of each of the user's workspaces: whoever administers one may want to know. */
  private async recordEach(action: string, userId: number, tx: Parameters<AuditRepository['record']>[0]) {
    for (const accountId of await this.users.workspaceIds(userId, tx)) {
      await this.audit.record(tx, { accountId, action, target: { type: 'member', id: userId } });
    }
  }
}
