import { Inject, Injectable } from '@nestjs/common';
import type { ApiCaller } from '../auth/owner';
import { ResourceNotFoundException, ValidationFailedException } from '../common/exceptions';
import { hashSecret } from '../common/secret-hash';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { Transactions } from '../database/transactions';
import { checkCurrentPassword } from './current-password';
import type { UpdateUserDto } from './dto/people.dto';
import { Mailer } from './mailer';
import {
  toUserResponse,
  toUserSessionResponse,
  type UserResponse,
  type UserSessionResponse,
} from './people.mapper';
import { SessionsRepository } from './sessions.repository';
import { SignInLimits } from './sign-in-limits';
import { checkPassword } from './sign-in.service';
import { generateToken, hashToken } from './tokens';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';

/** How long a password reset's link works. */
export const RESET_MINUTES = 60;

/** A user's own account: profile, password, sessions; and the password reset by mail. */
@Injectable()
export class UsersService {
  private readonly appUrl: string;

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly mailer: Mailer,
    private readonly limits: SignInLimits,
    private readonly transactions: Transactions,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.appUrl = server.appUrl;
  }

  async me(caller: ApiCaller): Promise<UserResponse> {
    return toUserResponse(await this.users.ofCaller(caller));
  }

  /**
   * Changes the user's name, email or password; the last two need the current password. A new password ends every
   * other session of the user.
   */
  async update(caller: ApiCaller, dto: UpdateUserDto): Promise<UserResponse> {
    const user = await this.users.ofCaller(caller);
    const sensitive = dto.email !== undefined || dto.password !== undefined;
    if (sensitive) {
      if (dto.current_password == null) {
        throw ValidationFailedException.of('current_password', 'The current password field is required.');
      }
      await checkCurrentPassword(user, dto.current_password);
    }
    if (dto.password !== undefined) checkPassword(dto.password, dto.email ?? user.email);
    if (
      dto.email !== undefined &&
      dto.email !== user.email &&
      (await this.users.findByEmail(dto.email)) !== null
    ) {
      throw ValidationFailedException.of('email', 'The email has already been taken.');
    }
    const saved = await this.transactions.run(async (tx) => {
      if (dto.name !== undefined) user.name = dto.name;
      if (dto.email !== undefined) user.email = dto.email;
      if (dto.password !== undefined) {
        user.passwordHash = await hashSecret(dto.password);
        await this.sessions.removeAllOfUser(user.id, caller.sessionId, tx);
      }
      return this.users.save(user, tx);
    });
    return toUserResponse(saved);
  }

  async sessionList(caller: ApiCaller): Promise<UserSessionResponse[]> {
    const user = await this.users.ofCaller(caller);
    return (await this.sessions.ofUser(user.id)).map((row) => toUserSessionResponse(row, caller.sessionId));
  }

  async endSession(caller: ApiCaller, id: number): Promise<void> {
    const user = await this.users.ofCaller(caller);
    if (!(await this.sessions.removeOfUser(user.id, id))) throw new ResourceNotFoundException();
  }

  /** Mails a reset link when a user has the email; says nothing either way (the caller answers 202). */
  async forgot(email: string, ip: string | null): Promise<void> {
    await this.limits.attempt(email, ip ?? undefined);
    const link = await this.resetLink(email);
    if (link === null) return;
    await this.mailer.send({
      to: email,
      subject: 'Reset your password',
      text:
        `A new password was asked for your account. Choose one within ${RESET_MINUTES} minutes:\n\n` +
        `${link}\n\n` +
        'If you did not ask, ignore this mail: your password stays as it is.\n',
    });
  }

  /** A new one-time link to choose a password (60 minutes), or null when no user has the email. */
  async resetLink(email: string): Promise<string | null> {
    const user = await this.users.findByEmail(email);
    if (user === null) return null;
    const token = generateToken('lsr');
    await this.users.insertReset(user.id, hashToken(token), new Date(Date.now() + RESET_MINUTES * 60_000));
    return `${this.appUrl}/app/reset-password?token=${token}`;
  }

  /** Sets a new password with a reset's token, once; every session of the user ends. Their email. */
  async reset(token: string, password: string, ip: string | null): Promise<string> {
    await this.limits.attempt(null, ip ?? undefined);
    const passwordHash = await hashSecret(password);
    return this.transactions.run(async (tx) => {
      const userId = await this.users.useReset(hashToken(token), tx);
      const user = userId === null ? null : await this.users.findById(userId, tx);
      if (user === null) {
        await this.limits.failed(null, ip ?? undefined);
        throw ValidationFailedException.of('token', 'This password reset token is invalid.');
      }
      checkPassword(password, user.email);
      user.passwordHash = passwordHash;
      await this.users.save(user, tx);
      await this.sessions.removeAllOfUser(user.id, null, tx);
      return user.email;
    });
  }

  /** A user made by the CLI (`user:create`), or their password set (`user:reset-password`). */
  async createOrSetPassword(fields: {
    name?: string;
    email: string;
    password: string;
  }): Promise<{ user: User; created: boolean }> {
    checkPassword(fields.password, fields.email);
    const passwordHash = await hashSecret(fields.password);
    return this.transactions.run(async (tx) => {
      const found = await this.users.findByEmail(fields.email, tx);
      if (found !== null) {
        found.passwordHash = passwordHash;
        if (fields.name !== undefined) found.name = fields.name;
        await this.sessions.removeAllOfUser(found.id, null, tx);
        return { user: await this.users.save(found, tx), created: false };
      }
      const user = await this.users.insert(
        { name: fields.name ?? fields.email.split('@')[0], email: fields.email, passwordHash },
        tx,
      );
      return { user, created: true };
    });
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(email);
  }
}
