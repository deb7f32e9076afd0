// A person's second factors: two-factor codes and passkeys. The passkeys' ceremonies run in the browser through
// @simplewebauthn/browser, loaded only when a passkey is used, so that the first load stays small.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { api, call } from './client';
import type { components } from './schema';
import type { Session } from './session';
import type { User } from './types';

type Schemas = components['schemas'];

export type TwoFactorSetup = Schemas['TwoFactorSetupResponse'];
export type Passkey = Schemas['PasskeyResponse'];

/** Starts turning two-factor on: a new secret, not in force until a code from it is confirmed. */
export async function startTwoFactor(): Promise<TwoFactorSetup> {
  return (await call(api.POST('/api/v1/user/two-factor'))).data;
}

/** Turns two-factor on with a code of the new secret; the recovery codes, given this once. */
export async function confirmTwoFactor(otp: string): Promise<string[]> {
  return (await call(api.POST('/api/v1/user/two-factor/confirm', { body: { otp } }))).data.recovery_codes;
}

export async function disableTwoFactor(currentPassword: string): Promise<User> {
  const body = { current_password: currentPassword };
  return (await call(api.POST('/api/v1/user/two-factor/disable', { body }))).data;
}

/** New recovery codes; the old ones stop working. */
export async function renewRecoveryCodes(currentPassword: string): Promise<string[]> {
  const body = { current_password: currentPassword };
  return (await call(api.POST('/api/v1/user/two-factor/recovery-codes', { body }))).data.recovery_codes;
}

export async function listPasskeys(signal?: AbortSignal): Promise<Passkey[]> {
  return (await call(api.GET('/api/v1/user/passkeys', { signal }))).data;
}

export async function deletePasskey(id: number): Promise<void> {
  await call(api.DELETE('/api/v1/user/passkeys/{id}', { params: { path: { id } } }));
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === 'function';
}

/** Makes a passkey with the browser's authenticator and records it under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  const { options } = (await call(api.POST('/api/v1/user/passkeys/options'))).data;
  const { startRegistration } = await import('@simplewebauthn/browser');
  // The API's options are the JSON the library reads (the document types them as any object).
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  const response = await startRegistration({ optionsJSON });
  return (await call(api.POST('/api/v1/user/passkeys', { body: { name, response: { ...response } } }))).data;
}

/** Signs in with a passkey of the browser's authenticator: a session, as a sign-in with a password gives. */
export async function signInWithPasskey(): Promise<Session> {
  const { options, challenge_id } = (await call(api.POST('/api/v1/session/passkey/options'))).data;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  const response = await startAuthentication({ optionsJSON });
  return (
    await call(api.POST('/api/v1/session/passkey', { body: { challenge_id, response: { ...response } } }))
  ).data;
}

/** The names of the browser's refusals: the person closed the prompt, it timed out, or the authenticator refused. */
const AUTHENTICATOR_ERRORS = new Set([
  'NotAllowedError',
  'AbortError',
  'InvalidStateError',
  'SecurityError',
  'WebAuthnError',
]);

/** Whether `error` is the browser's rather than the API's: a DOMException, or the library's WebAuthnError. */
export function isAuthenticatorError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    AUTHENTICATOR_ERRORS.has(String(error.name))
  );
}
