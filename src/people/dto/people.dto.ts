import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { IsObject } from 'class-validator';
import { ROLES, type Role } from '../../auth/roles';
import {
  FormBool,
  FormEmail,
  FormEnum,
  FormId,
  FormPassword,
  FormSecret,
  FormString,
  Nullable,
  Optional,
  OptionalNotNull,
  Required,
} from '../../common/validation';

/** The workspace a sign-in acts in: one of the user's; their first when absent. */
const SignInWorkspace = () =>
  applyDecorators(
    FormId({ description: 'The workspace to act in; the first joined when absent.', example: 1 }),
    Nullable(),
  );

/** A person's sign-in (contract §11); with a bearer key instead, the dashboard's key sign-in. */
export class SignInDto {
  @Required()
  @FormEmail()
  email!: string;

  @Required()
  @FormSecret({ max: 256, description: 'The password.' })
  password!: string;

  @Nullable()
  @FormString({
    max: 32,
    description: 'The code of the authenticator app, or a recovery code, when two-factor is on.',
  })
  otp?: string | null;

  @SignInWorkspace()
  workspace_id?: number | null;
}

export class SwitchWorkspaceDto {
  @Required()
  @FormId({ description: 'One of the user’s workspaces.', example: 1 })
  workspace_id!: number;
}

export class InviteDto {
  @Required()
  @FormEmail()
  email!: string;

  @Required()
  @FormEnum(ROLES, 'Role', { example: 'editor' })
  role!: Role;
}

export class AcceptInvitationDto {
  @Required()
  @FormString({
    max: 255,
    description: 'The `token` of the invitation’s `accept_url`.',
    example: 'lsi_3q2-7wEXAMPLEexampleEXAMPLEexampleEXAMPLEex',
  })
  token!: string;

  @Optional()
  @FormEmail({ description: 'Only for the first owner’s link, which names no email: the new user’s.' })
  email?: string;

  @Optional()
  @FormString({
    max: 255,
    description: 'The new user’s name; not needed when signed in as the invited user.',
    example: 'Bo Chen',
  })
  name?: string;

  @Optional()
  @FormPassword({ description: 'The new user’s password; not needed when signed in as the invited user.' })
  password?: string;
}

export class SetRoleDto {
  @Required()
  @FormEnum(ROLES, 'Role', { example: 'editor' })
  role!: Role;
}

export class UpdateUserDto {
  @OptionalNotNull()
  @FormString({ max: 255, example: 'Ann Lee' })
  name?: string;

  @OptionalNotNull()
  @FormEmail()
  email?: string;

  @OptionalNotNull()
  @FormPassword()
  password?: string;

  @Nullable()
  @FormSecret({
    max: 256,
    description: 'Needed to change `email` or `password`.',
    example: 'correct horse battery',
  })
  current_password?: string | null;
}

export class RegisterDto {
  @Required()
  @FormString({ max: 255, example: 'Ann Lee' })
  name!: string;

  @Required()
  @FormEmail()
  email!: string;

  @Required()
  @FormPassword()
  password!: string;
}

export class ForgotPasswordDto {
  @Required()
  @FormEmail()
  email!: string;
}

export class ResetPasswordDto {
  @Required()
  @FormString({
    max: 255,
    description: 'The `token` of the link the reset mail holds.',
    example: 'lsr_3q2-7wEXAMPLEexampleEXAMPLEexampleEXAMPLEex',
  })
  token!: string;

  @Required()
  @FormPassword()
  password!: string;
}

export class OtpDto {
  @Required()
  @FormString({ max: 32, description: 'A code of the authenticator app.', example: '123456' })
  otp!: string;
}

export class CurrentPasswordDto {
  @Required()
  @FormSecret({ max: 256, description: 'The user’s password.', example: 'correct horse battery' })
  current_password!: string;
}

/** A WebAuthn response, as the browser (or @simplewebauthn/browser) gives it: checked by the verification. */
function WebAuthnResponse(description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'object', additionalProperties: true, description }),
    IsObject({ message: 'The response field must be an object.' }),
  );
}

export class AddPasskeyDto {
  @Required()
  @FormString({ max: 100, description: 'To recognise the passkey by.', example: 'Laptop' })
  name!: string;

  @Required()
  @WebAuthnResponse('What `navigator.credentials.create` gave, as JSON (`RegistrationResponseJSON`).')
  response!: RegistrationResponseJSON;
}

export class PasskeySignInDto {
  @Required()
  @FormId({ description: 'The `challenge_id` of the sign-in options.', example: 1 })
  challenge_id!: number;

  @Required()
  @WebAuthnResponse('What `navigator.credentials.get` gave, as JSON (`AuthenticationResponseJSON`).')
  response!: AuthenticationResponseJSON;

  @SignInWorkspace()
  workspace_id?: number | null;
}

export class TwoFactorRequirementDto {
  @Required()
  @FormBool({ description: '1: every member signs in with a second factor (an app’s code or a passkey).' })
  required!: boolean;
}
