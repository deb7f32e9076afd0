import { Inject, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { peopleConfig, serverConfig, type PeopleConfig, type ServerConfig } from '../config/app-config';
import { SignInChallengesRepository } from './sign-in-challenges.repository';

/** How long a sign-in at the issuer may take, from the redirect there to the way back. */
const STATE_MS = 10 * 60_000;

/** What single sign-on learned of a person, once the issuer vouched for them. */
export interface VouchedPerson {
  email: string;
  name: string;
}

/**
 * Single sign-on with OpenID Connect, through openid-client (a certified relying party): the authorization code
 * flow with PKCE, a state and a nonce kept in the database between the two requests (so that the way back may land
 * on any instance), the ID token's signature, issuer, audience and nonce checked by the library. Only a verified
 * email of an allowed domain is vouched for.
 */
@Injectable()
export class SingleSignOnService {
  private readonly logger = new Logger(SingleSignOnService.name);
  private configuration: Promise<oidc.Configuration> | null = null;
  private readonly redirectUri: string;

  constructor(
    private readonly challenges: SignInChallengesRepository,
    @Inject(peopleConfig.KEY) private readonly config: PeopleConfig,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.redirectUri = `${server.appUrl}/api/v1/session/oidc/callback`;
  }

  get enabled(): boolean {
    return this.config.oidcIssuerUrl !== undefined;
  }

  /** Where to send the browser: the issuer's authorization endpoint, with this attempt's state. */
  async start(): Promise<string> {
    const configuration = await this.discovered();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await this.challenges.put({
      kind: 'oidc',
      challenge: state,
      verifier: `${verifier} ${nonce}`,
      userId: null,
      expiresAt: new Date(Date.now() + STATE_MS),
    });
    return oidc
      .buildAuthorizationUrl(configuration, {
        redirect_uri: this.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      })
      .toString();
  }

  /**
   * The person the issuer's answer vouches for, or null (a state not issued here or used already, a code the
   * issuer refuses, a token that does not verify, an email not verified or of a domain not allowed).
   */
  async finish(callbackUrl: URL): Promise<VouchedPerson | null> {
    const state = callbackUrl.searchParams.get('state');
    if (state === null) return null;
    const waiting = await this.challenges.take('oidc', { challenge: state });
    if (waiting === null || waiting.verifier === null) return null;
    const [verifier, nonce] = waiting.verifier.split(' ');
    try {
      const configuration = await this.discovered();
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      // An issuer that keeps the email out of the ID token gives it at its userinfo endpoint, for the same subject.
      const claims: Record<string, unknown> =
        typeof idToken.email === 'string'
          ? idToken
          : await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
      if (email === null || claims.email_verified !== true) return null;
      const name =
        typeof claims.name === 'string' && claims.name.trim() !== ''
          ? claims.name.trim()
          : email.split('@')[0];
      return { email, name: name.slice(0, 255) };
    } catch (error) {
      // The issuer's refusal, or a token that does not verify: said by its kind, never with a token in it.
      this.logger.warn(`Single sign-on refused: ${error instanceof Error ? error.name : 'unknown'}`);
      return null;
    }
  }

  /** Whether a person of this email may join by single sign-on (a user already known may sign in whatever it is). */
  allows(email: string): boolean {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    return (this.config.oidcAllowedDomains ?? []).includes(domain);
  }

  get defaultRole(): 'viewer' | 'editor' | 'admin' {
    return this.config.oidcDefaultRole;
  }

  /** The issuer's configuration, read once (again after a failure). */
  private discovered(): Promise<oidc.Configuration> {
    if (this.configuration === null) {
      const issuer = new URL(this.config.oidcIssuerUrl!);
      this.configuration = oidc
        .discovery(
          issuer,
          this.config.oidcClientId!,
          this.config.oidcClientSecret,
          undefined,
          // An issuer over plain http is a test's or a private network's; the library asks to be told so.
          issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.configuration = null;
          throw error;
        });
    }
    return this.configuration;
  }
}
