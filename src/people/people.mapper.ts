import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../auth/roles';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiFlag, ApiInteger } from '../common/openapi';
import type { Invitation } from './invitation.entity';
import { SessionUserResponse } from './session.mapper';
import type { MemberRow } from './members.repository';
import type { UserSessionRow } from './sessions.repository';
import type { User } from './user.entity';

/** The signed-in user, as `GET /api/v1/user` shows them: their session's user, and more. */
export class UserResponse extends SessionUserResponse {
  @ApiFlag('1 when two-factor sign-in is on.')
  two_factor!: 0 | 1;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
}

export function toUserResponse(user: User): UserResponse {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    two_factor: user.totpSecret === null ? 0 : 1,
    created_at: isoDate(user.createdAt),
    updated_at: isoDate(user.updatedAt),
  };
}

export class MemberResponse {
  @ApiInteger({ example: 7, description: "The user's id." })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Ann Lee' })
  name!: string;

  @ApiProperty({ type: 'string', format: 'email', example: 'ann@example.com' })
  email!: string;

  @ApiProperty({ type: 'string', enum: [...ROLES], enumName: 'Role' })
  role!: Role;

  @ApiFlag('1 when two-factor sign-in is on.')
  two_factor!: 0 | 1;

  @ApiDateTime()
  joined_at!: string;

  @ApiDateTime({ nullable: true })
  last_sign_in_at!: string | null;
}

export function toMemberResponse(row: MemberRow): MemberResponse {
  return {
    id: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role,
    two_factor: row.two_factor ? 1 : 0,
    joined_at: isoDate(new Date(row.joined_at)),
    last_sign_in_at: row.last_sign_in_at === null ? null : isoDate(new Date(row.last_sign_in_at)),
  };
}

export class InvitationResponse {
  @ApiInteger({ example: 4 })
  id!: number;

  @ApiProperty({
    type: 'string',
    format: 'email',
    nullable: true,
    example: 'bo@example.com',
    description: "Null for the first owner's link, which whoever opens it gives an email to.",
  })
  email!: string | null;

  @ApiProperty({ type: 'string', enum: [...ROLES], enumName: 'Role' })
  role!: Role;

  @ApiDateTime()
  expires_at!: string;

  @ApiDateTime()
  created_at!: string;
}

export class CreatedInvitationResponse extends InvitationResponse {
  @ApiProperty({
    type: 'string',
    format: 'uri',
    description: 'Where the invited person accepts; shown in this answer only (and mailed when SMTP is set).',
  })
  accept_url!: string;
}

export function toInvitationResponse(invitation: Invitation): InvitationResponse {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expires_at: isoDate(invitation.expiresAt),
    created_at: isoDate(invitation.createdAt),
  };
}

export class UserSessionResponse {
  @ApiInteger({ example: 12 })
  id!: number;

  @ApiProperty({ type: 'string', nullable: true, example: '203.0.113.7' })
  ip!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Mozilla/5.0 (X11; Linux x86_64)' })
  user_agent!: string | null;

  @ApiInteger({ example: 1, description: 'The workspace the session acts in.' })
  workspace_id!: number;

  @ApiProperty({ type: 'integer', enum: [0, 1], description: '1 for the session this request came with.' })
  current!: 0 | 1;

  @ApiDateTime({ description: 'When the user signed in.' })
  created_at!: string;

  @ApiDateTime()
  expires_at!: string;
}

export function toUserSessionResponse(row: UserSessionRow, currentId: number | null): UserSessionResponse {
  return {
    id: row.id,
    ip: row.ip,
    user_agent: row.user_agent,
    workspace_id: row.account_id,
    current: row.id === currentId ? 1 : 0,
    created_at: isoDate(new Date(row.created_at)),
    expires_at: isoDate(new Date(row.expires_at)),
  };
}

/** What a password's forgotten or reset answer holds: the email, as given (the same whether it has a user). */
export class PasswordEmailResponse {
  @ApiProperty({ type: 'string', format: 'email', example: 'ann@example.com' })
  email!: string;
}

export class TwoFactorSetupResponse {
  @ApiProperty({
    type: 'string',
    example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    description: 'Base32, for an app.',
  })
  secret!: string;

  @ApiProperty({
    type: 'string',
    example: 'otpauth://totp/sho.rt:ann%40example.com?secret=JBSW…&issuer=sho.rt',
  })
  otpauth_url!: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', example: 'ABCD-EFGH-JKLM-NPQR' },
    description: 'Ten codes, each good for one sign-in instead of the app’s; shown this once.',
  })
  recovery_codes!: string[];
}

export class PasskeyResponse {
  @ApiInteger({ example: 2 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Laptop' })
  name!: string;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime({ nullable: true })
  last_used_at!: string | null;
}

export class WebAuthnOptionsResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'WebAuthn options as JSON, for `navigator.credentials` (or @simplewebauthn/browser).',
  })
  options!: object;
}

export class PasskeySignInOptionsResponse extends WebAuthnOptionsResponse {
  @ApiInteger({ example: 9, description: 'To send back with the answer.' })
  challenge_id!: number;
}

export class TwoFactorRequirementResponse {
  @ApiFlag('1: every member signs in with a second factor (an app’s code or a passkey).')
  required!: 0 | 1;
}

export class SignInProvidersResponse {
  @ApiFlag('1 when single sign-on (OpenID Connect) is set up: `GET /api/v1/session/oidc` starts it.')
  oidc!: 0 | 1;

  @ApiFlag('1 when anyone may register (`POST /api/v1/users`).')
  registration!: 0 | 1;
}
