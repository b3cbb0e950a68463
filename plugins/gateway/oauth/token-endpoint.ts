import type { App, AppStore } from '../store/app-store.js';
import { checkParams } from './authorize.js';
import { authenticateClient, readClientCredentials } from './client-auth.js';
import type { AuthorizationCode, CodeStore } from './code-store.js';
import { oauthErrors } from './oauth-error.js';
import { verifierMatches } from './pkce.js';
import { sha256Hex } from './secrets.js';
import type { TokenStore } from './token-store.js';

export type OAuthParams = Record<string, string | undefined>;

/** RFC 6749 §5.1 success body. */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

export interface TokenEndpointDeps {
  apps: AppStore;
  codes: CodeStore;
  tokens: TokenStore;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}

/** The token endpoint's grants plus revocation (RFC 7009) and introspection (RFC 7662). */
export class TokenEndpoint {
  constructor(private readonly deps: TokenEndpointDeps) {}

  async token(params: OAuthParams, authorization: string | undefined): Promise<TokenResponse> {
    const grant = params.grant_type;
    if (!grant) throw oauthErrors.missing('grant_type', 'authorization_code, refresh_token or client_credentials');
    const client = await this.client(params, authorization);
    if (grant === 'authorization_code') return this.authorizationCode(params, client(false));
    if (grant === 'refresh_token') return this.refresh(params, client(false));
    if (grant === 'client_credentials') return this.clientCredentials(params, client(true)!);
    throw oauthErrors.unsupportedGrant(grant);
  }

  /** RFC 7009: revoke a token of the calling client; unknown tokens answer the same (200). */
  async revoke(params: OAuthParams, authorization: string | undefined): Promise<void> {
    const app = (await this.client(params, authorization))(true)!;
    if (!params.token) throw oauthErrors.missing('token', 'the access or refresh token to revoke');
    const found = await this.deps.tokens.find(params.token);
    if (found && found.appId === app.id) {
      await this.deps.tokens.revoke(found.tokenHash);
      // A revoked refresh token takes the access tokens of the same authorization with it.
      if (found.kind === 'refresh' && found.codeHash) await this.deps.tokens.revokeFromCode(found.codeHash);
    }
  }

  /** RFC 7662: what the calling client may know of one of its tokens. */
  async introspect(params: OAuthParams, authorization: string | undefined): Promise<Record<string, unknown>> {
    const app = (await this.client(params, authorization))(true)!;
    if (!params.token) throw oauthErrors.missing('token', 'the token to describe');
    const found = await this.deps.tokens.find(params.token);
    if (found && found.appId === app.id && !found.revoked && found.expiresAt > Date.now()) {
      return {
        active: true,
        client_id: app.apiKey,
        token_type: found.kind === 'access' ? 'bearer' : 'refresh_token',
        exp: Math.floor(found.expiresAt / 1000),
        iat: Math.floor(found.createdAt / 1000),
        ...(found.scope ? { scope: found.scope } : {}),
      };
    }
    if (!found && app.accessToken && this.deps.apps.appOfOwnToken(sha256Hex(params.token)) === app.id) {
      return { active: true, client_id: app.apiKey, token_type: 'bearer' };
    }
    return { active: false };
  }

  /**
   * The request's parameters checked and its client credentials read, the apps caught up with them; then
   * the calling app, with the Consumer Secret required or not (see authenticateClient).
   */
  private async client(
    params: OAuthParams,
    authorization: string | undefined,
  ): Promise<(secretRequired: boolean) => App | null> {
    checkParams(params);
    const credentials = readClientCredentials(params, authorization);
    await this.deps.apps.catchUp(credentials.clientId, credentials.clientSecret);
    return (secretRequired) => authenticateClient(this.deps.apps, credentials, secretRequired);
  }

  private async authorizationCode(params: OAuthParams, client: App | null): Promise<TokenResponse> {
    if (!params.code) throw oauthErrors.missing('code', 'the code from the authorize redirect');
    const checkBinding = (code: AuthorizationCode) => {
      if (client && client.id !== code.appId)
        throw oauthErrors.invalidGrant('the authorization code was issued to another client');
      if (params.redirect_uri !== undefined && params.redirect_uri !== code.redirectUri)
        throw oauthErrors.invalidGrant('redirect_uri differs from the one of the authorization request');
      if (code.codeChallenge) {
        if (!params.code_verifier)
          throw oauthErrors.invalidGrant(
            'code_verifier is required: the authorization request carried a PKCE code_challenge',
          );
        if (!verifierMatches(params.code_verifier, code.codeChallenge))
          throw oauthErrors.invalidGrant('code_verifier does not match the code_challenge (S256)');
      } else if (params.code_verifier) {
        throw oauthErrors.invalidGrant(
          'code_verifier was sent but the authorization request carried no code_challenge',
        );
      }
    };
    const redemption = await this.deps.codes.redeem(params.code, checkBinding);
    if (redemption.outcome === 'unknown') throw oauthErrors.invalidGrant('the authorization code is not known');
    if (redemption.outcome === 'expired') throw oauthErrors.invalidGrant('the authorization code has expired');
    if (redemption.outcome === 'replayed') {
      // RFC 6749 §4.1.2: a replayed code may be stolen; withdraw what it bought.
      await this.deps.tokens.revokeFromCode(redemption.code.codeHash);
      throw oauthErrors.invalidGrant('the authorization code was already used; the tokens issued with it are revoked');
    }
    const { code } = redemption;
    if (!this.deps.apps.find(code.appId))
      throw oauthErrors.invalidGrant('the app this code was issued to no longer exists');
    return this.issuePair(code.appId, 'authorization_code', code.codeHash, code.scope);
  }

  private async refresh(params: OAuthParams, client: App | null): Promise<TokenResponse> {
    if (!params.refresh_token)
      throw oauthErrors.missing('refresh_token', 'the refresh token from an earlier token response');
    const found = await this.deps.tokens.find(params.refresh_token);
    if (found?.kind !== 'refresh' || found.revoked)
      throw oauthErrors.invalidGrant('the refresh token is not known or was revoked');
    if (found.expiresAt <= Date.now()) throw oauthErrors.invalidGrant('the refresh token has expired');
    if (client && client.id !== found.appId)
      throw oauthErrors.invalidGrant('the refresh token was issued to another client');
    if (!this.deps.apps.find(found.appId))
      throw oauthErrors.invalidGrant('the app this token was issued to no longer exists');
    // Rotation: each refresh token works once; losing the race to a concurrent use is a refusal.
    if (!(await this.deps.tokens.revoke(found.tokenHash)))
      throw oauthErrors.invalidGrant('the refresh token was already used');
    return this.issuePair(found.appId, 'refresh_token', found.codeHash, found.scope);
  }

  private async clientCredentials(params: OAuthParams, app: App): Promise<TokenResponse> {
    const { token } = await this.deps.tokens.issue(
      'access',
      app.id,
      'client_credentials',
      this.deps.accessTokenTtlSeconds,
      { scope: params.scope ?? null },
    );
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: this.deps.accessTokenTtlSeconds,
      ...(params.scope ? { scope: params.scope } : {}),
    };
  }

  private async issuePair(
    appId: string,
    grant: string,
    codeHash: string | null,
    scope: string | null,
  ): Promise<TokenResponse> {
    const extra = { codeHash: codeHash ?? undefined, scope };
    const access = await this.deps.tokens.issue('access', appId, grant, this.deps.accessTokenTtlSeconds, extra);
    const refresh = await this.deps.tokens.issue('refresh', appId, grant, this.deps.refreshTokenTtlSeconds, extra);
    return {
      access_token: access.token,
      token_type: 'bearer',
      expires_in: this.deps.accessTokenTtlSeconds,
      refresh_token: refresh.token,
      ...(scope ? { scope } : {}),
    };
  }
}
