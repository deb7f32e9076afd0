import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { ScopedRoute } from '../auth/resource-route';
import { AnyScope } from '../auth/requires-scope.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { UnauthorizedActionException } from '../common/exceptions';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint } from '../common/openapi';
import { AccountsService } from '../auth/accounts.service';
import { AddPasskeyDto, CurrentPasswordDto, OtpDto, TwoFactorRequirementDto } from './dto/people.dto';
import { PasskeysService } from './passkeys.service';
import {
  PasskeyResponse,
  RecoveryCodesResponse,
  TwoFactorRequirementResponse,
  TwoFactorSetupResponse,
  UserResponse,
  WebAuthnOptionsResponse,
} from './people.mapper';
import { TwoFactorService } from './two-factor.service';

/** A user's second factors: two-factor sign-in by an authenticator app, and passkeys. A person's session only. */
@ApiTags('user')
@Controller('api/v1/user')
export class SecondFactorsController {
  constructor(
    private readonly twoFactor: TwoFactorService,
    private readonly passkeys: PasskeysService,
  ) {}

  @ApiEndpoint({
    operationId: 'startTwoFactor',
    summary: 'Start turning two-factor sign-in on',
    description: 'A new secret for an authenticator app, shown this once; on once a code of it is confirmed.',
    errors: [422],
  })
  @ApiDataResponse(TwoFactorSetupResponse, { status: 201 })
  @Post('two-factor')
  @AnyScope()
  async start(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope(await this.twoFactor.start(caller));
  }

  @ApiEndpoint({
    operationId: 'confirmTwoFactor',
    summary: 'Turn two-factor sign-in on',
    description: 'With a code of the app; answers the ten recovery codes, shown this once.',
    body: true,
    errors: [422],
    example: { otp: '123456' },
  })
  @ApiDataResponse(RecoveryCodesResponse)
  @Post('two-factor/confirm')
  @HttpCode(200)
  @AnyScope()
  async confirm(@CurrentCaller() caller: ApiCaller, @Body() dto: OtpDto) {
    return dataEnvelope({ recovery_codes: await this.twoFactor.confirm(caller, dto.otp) });
  }

  @ApiEndpoint({
    operationId: 'disableTwoFactor',
    summary: 'Turn two-factor sign-in off',
    body: true,
    errors: [422],
    example: { current_password: 'correct horse battery' },
  })
  @ApiDataResponse(UserResponse)
  @Post('two-factor/disable')
  @HttpCode(200)
  @AnyScope()
  async disable(@CurrentCaller() caller: ApiCaller, @Body() dto: CurrentPasswordDto) {
    return dataEnvelope(await this.twoFactor.disable(caller, dto.current_password));
  }

  @ApiEndpoint({
    operationId: 'renewRecoveryCodes',
    summary: 'New recovery codes',
    description: 'Ten new codes in place of the old ones, shown this once.',
    body: true,
    errors: [422],
    example: { current_password: 'correct horse battery' },
  })
  @ApiDataResponse(RecoveryCodesResponse)
  @Post('two-factor/recovery-codes')
  @HttpCode(200)
  @AnyScope()
  async renew(@CurrentCaller() caller: ApiCaller, @Body() dto: CurrentPasswordDto) {
    return dataEnvelope({ recovery_codes: await this.twoFactor.renewCodes(caller, dto.current_password) });
  }

  @ApiEndpoint({ operationId: 'listPasskeys', summary: 'The user’s passkeys' })
  @ApiDataResponse(PasskeyResponse, { isArray: true })
  @Get('passkeys')
  @AnyScope()
  async list(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope(await this.passkeys.list(caller));
  }

  @ApiEndpoint({
    operationId: 'passkeyOptions',
    summary: 'Options to make a passkey with',
    description: 'For `navigator.credentials.create`; good for five minutes, once.',
  })
  @ApiDataResponse(WebAuthnOptionsResponse)
  @Post('passkeys/options')
  @HttpCode(200)
  @AnyScope()
  async options(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope({ options: await this.passkeys.addOptions(caller) });
  }

  @ApiEndpoint({
    operationId: 'addPasskey',
    summary: 'Add a passkey',
    description:
      'What the browser made from the options; a response that does not verify is a 422 on `response`.',
    body: true,
    errors: [422],
    example: { name: 'Laptop', response: { id: '…', rawId: '…', type: 'public-key', response: {} } },
  })
  @ApiDataResponse(PasskeyResponse, { status: 201 })
  @Post('passkeys')
  @AnyScope()
  async add(@CurrentCaller() caller: ApiCaller, @Body() dto: AddPasskeyDto) {
    return dataEnvelope(await this.passkeys.add(caller, dto.name, dto.response));
  }

  @ApiEndpoint({ operationId: 'deletePasskey', summary: 'Remove a passkey', errors: [404] })
  @ApiDeletedResponse('passkey')
  @Delete('passkeys/:id')
  @HttpCode(200)
  @AnyScope()
  async remove(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    await this.passkeys.remove(caller, id);
    return deletedEnvelope(id, 'passkey');
  }
}

/** Whether a workspace requires a second factor of its members: an owner's choice. */
@ApiTags('account')
@Controller('api/v1/account/two-factor')
export class TwoFactorRequirementController {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService) {}

  @ScopedRoute('account.read', Get(), {
    operationId: 'showTwoFactorRequirement',
    summary: 'Whether the workspace requires a second factor',
  })
  @ApiDataResponse(TwoFactorRequirementResponse)
  show(@CurrentCaller() caller: ApiCaller) {
    return dataEnvelope({ required: caller.account.requireTwoFactor ? 1 : 0 });
  }

  @ScopedRoute('members.write', Put(), {
    operationId: 'setTwoFactorRequirement',
    summary: 'Require a second factor of every member, or not',
    description:
      'An owner’s choice (others: 403). A member whose session began without a second factor keeps only their ' +
      'own account’s routes, to turn two-factor on, until they sign in with it.',
    body: true,
    errors: [422],
    example: { required: 1 },
  })
  @ApiDataResponse(TwoFactorRequirementResponse)
  async set(@CurrentCaller() caller: ApiCaller, @Body() dto: TwoFactorRequirementDto) {
    if (caller.user?.role !== 'owner') throw new UnauthorizedActionException();
    const account = await this.accounts.setRequireTwoFactor(caller.account, dto.required);
    return dataEnvelope({ required: account.requireTwoFactor ? 1 : 0 });
  }
}
