import { Inject, Injectable } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { ApiCaller } from '../auth/owner';
import {
  ResourceNotFoundException,
  UnauthorizedActionException,
  ValidationFailedException,
} from '../common/exceptions';
import { isoDate } from '../common/dates';
import { serverConfig, type ServerConfig } from '../config/app-config';
import type { Passkey } from './passkey.entity';
import { PasskeysRepository } from './passkeys.repository';
import { SignInChallengesRepository } from './sign-in-challenges.repository';
import type { PasskeyResponse } from './people.mapper';
import { UsersRepository } from './users.repository';

/** How long a challenge waits for its answer. */
const CHALLENGE_MS = 5 * 60_000;

function toPasskeyResponse(passkey: Passkey): PasskeyResponse {
  return {
    id: passkey.id,
    name: passkey.name,
    created_at: isoDate(passkey.createdAt),
    last_used_at: passkey.lastUsedAt === null ? null : isoDate(passkey.lastUsedAt),
  };
}

/** The challenge a WebAuthn response answers, from its client data (verified again by the library). */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const data = response.response?.clientDataJSON;
  if (typeof data !== 'string') return null;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a user adds one signed in, then signs in with it alone. The
 * relying party is `APP_URL`: its host is the RP ID and its origin the one a response must come from. A passkey's
 * sign-in counts as two factors (the device, and its PIN or biometric).
 */
@Injectable()
export class PasskeysService {
  private readonly rpId: string;
  private readonly origin: string;
  private readonly rpName: string;

  constructor(
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: SignInChallengesRepository,
    private readonly users: UsersRepository,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    const url = new URL(server.appUrl);
    this.rpId = url.hostname;
    this.origin = url.origin;
    this.rpName = server.appName;
  }

  async list(caller: ApiCaller): Promise<PasskeyResponse[]> {
    return (await this.passkeys.ofUser(this.userIdOf(caller))).map(toPasskeyResponse);
  }

  /** The options a browser creates a passkey with (`navigator.credentials.create`). */
  async addOptions(caller: ApiCaller): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const userId = this.userIdOf(caller);
    const user = (await this.users.findById(userId))!;
    const options = await generateRegistrationOptions({
      rpName: this.rpName,
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(`user-${user.id}`),
      attestationType: 'none',
      excludeCredentials: (await this.passkeys.ofUser(userId)).map((passkey) => ({
        id: passkey.credentialId,
        transports: (passkey.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.challenges.put({
      kind: 'passkey-add',
      challenge: options.challenge,
      verifier: null,
      userId,
      expiresAt: new Date(Date.now() + CHALLENGE_MS),
    });
    return options;
  }

  /** Keeps the passkey the browser made from those options; a response that does not verify is a 422. */
  async add(caller: ApiCaller, name: string, response: RegistrationResponseJSON): Promise<PasskeyResponse> {
    const userId = this.userIdOf(caller);
    const refused = () => ValidationFailedException.of('response', 'The passkey could not be verified.');
    const challenge = challengeOf(response);
    const waiting = challenge === null ? null : await this.challenges.take('passkey-add', { challenge });
    if (waiting === null || waiting.userId !== userId) throw refused();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: waiting.challenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      requireUserVerification: false,
    }).catch(() => null);
    if (verification === null || !verification.verified) throw refused();
    const { credential } = verification.registrationInfo;
    if ((await this.passkeys.findByCredential(credential.id)) !== null) throw refused();
    const passkey = await this.passkeys.insert({
      userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: String(credential.counter),
      transports: credential.transports ?? null,
      name,
    });
    return toPasskeyResponse(passkey);
  }

  async remove(caller: ApiCaller, id: number): Promise<void> {
    if (!(await this.passkeys.remove(this.userIdOf(caller), id))) throw new ResourceNotFoundException();
  }

  /** The options a browser signs in with (`navigator.credentials.get`), any of its passkeys for this service. */
  async signInOptions(): Promise<{ challenge_id: number; options: PublicKeyCredentialRequestOptionsJSON }> {
    const options = await generateAuthenticationOptions({ rpID: this.rpId, userVerification: 'preferred' });
    const id = await this.challenges.put({
      kind: 'passkey',
      challenge: options.challenge,
      verifier: null,
      userId: null,
      expiresAt: new Date(Date.now() + CHALLENGE_MS),
    });
    return { challenge_id: id, options };
  }

  /** The user a passkey's answer to a sign-in challenge proves, once; a 422 on `response` otherwise. */
  async authenticate(challengeId: number, response: AuthenticationResponseJSON): Promise<number> {
    const refused = () => ValidationFailedException.of('response', 'The passkey could not be verified.');
    const waiting = await this.challenges.take('passkey', { id: challengeId });
    if (waiting === null || typeof response.id !== 'string') throw refused();
    const passkey = await this.passkeys.findByCredential(response.id);
    if (passkey === null) throw refused();
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: waiting.challenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: Number(passkey.counter),
        transports: (passkey.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
      },
      requireUserVerification: false,
    }).catch(() => null);
    if (verification === null || !verification.verified) throw refused();
    await this.passkeys.used(passkey.id, verification.authenticationInfo.newCounter);
    return passkey.userId;
  }

  private userIdOf(caller: ApiCaller): number {
    if (caller.user === null) throw new UnauthorizedActionException();
    return caller.user.id;
  }
}
