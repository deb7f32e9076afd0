import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { Transactions } from '../database/transactions';
import { ApiSession } from './api-session.entity';
import { Invitation } from './invitation.entity';
import { InvitationsRepository } from './invitations.repository';
import { Mailer } from './mailer';
import { InvitationsController, MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';
import { Membership } from './membership.entity';
import { PasswordReset } from './password-reset.entity';
import { SessionCookies } from './session-cookies';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { SignInLimits } from './sign-in-limits';
import { SignInService } from './sign-in.service';
import { User } from './user.entity';
import { Passkey } from './passkey.entity';
import { PasskeysRepository } from './passkeys.repository';
import { SignInChallengesRepository } from './sign-in-challenges.repository';
import { PasskeysService } from './passkeys.service';
import { SignInChallenge } from './sign-in-challenge.entity';
import { SingleSignOnService } from './single-sign-on.service';
import { SecondFactorsController, TwoFactorRequirementController } from './two-factor.controller';
import { TwoFactorService } from './two-factor.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/**
 * People (contract §11): users and their sign-in, sessions (a person's, or a key exchanged for a cookie; the lookup
 * of every request is AuthModule's), workspaces' members and invitations, password resets and the mail they send.
 */
@Module({
  imports: [
    AuthModule,
    AuditModule,
    TypeOrmModule.forFeature([
      User,
      Membership,
      Invitation,
      PasswordReset,
      ApiSession,
      Passkey,
      SignInChallenge,
    ]),
  ],
  controllers: [
    SessionsController,
    UsersController,
    SecondFactorsController,
    TwoFactorRequirementController,
    MembersController,
    InvitationsController,
  ],
  providers: [
    SessionsService,
    SessionsRepository,
    SessionCookies,
    SignInService,
    SignInLimits,
    UsersService,
    UsersRepository,
    MembersService,
    MembersRepository,
    InvitationsRepository,
    Mailer,
    TwoFactorService,
    PasskeysService,
    PasskeysRepository,
    SignInChallengesRepository,
    SingleSignOnService,
    Transactions,
  ],
  exports: [UsersService, MembersService, MembersRepository],
})
export class PeopleModule {}
