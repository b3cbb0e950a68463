import { excerpt } from 'vela/plugin';

/**
 * An RFC 6749 error (`invalid_request`, `invalid_client`, `invalid_grant`, `unauthorized_client`,
 * `unsupported_grant_type`, `unsupported_response_type`, `invalid_scope`). It is written as
 * `{"error", "error_description", "message"}`: the RFC's members plus the team's one error shape.
 */
export class OAuthError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: string; error_description: string; message: string } {
    // The description may quote what the client sent (a client_id, a redirect_uri): an excerpt, twice at most.
    const description = excerpt(this.description);
    return { error: this.code, error_description: description, message: description };
  }
}

export const oauthErrors = {
  missing: (param: string, hint: string) => new OAuthError('invalid_request', `${param} is required: ${hint}`),
  invalidRequest: (description: string) => new OAuthError('invalid_request', description),
  invalidClient: (description: string, viaBasic: boolean) =>
    new OAuthError(
      'invalid_client',
      description,
      401,
      viaBasic ? { 'WWW-Authenticate': 'Basic realm="vela-gateway", charset="UTF-8"' } : {},
    ),
  unknownClient: (clientId: string) =>
    new OAuthError(
      'invalid_client',
      `client_id ${JSON.stringify(clientId)} is not the Consumer Key (apiKey) of any app`,
    ),
  invalidGrant: (description: string) => new OAuthError('invalid_grant', description),
  unsupportedGrant: (grant: string) =>
    new OAuthError(
      'unsupported_grant_type',
      `grant_type must be authorization_code, refresh_token or client_credentials, got ${JSON.stringify(grant)}`,
    ),
  controlCharacter: (param: string) =>
    new OAuthError('invalid_request', `${param} must not contain control characters`),
  tooLong: (param: string, max: number) =>
    new OAuthError(
      param === 'scope' ? 'invalid_scope' : 'invalid_request',
      `${param} must be at most ${max} characters`,
    ),
  unsupportedResponseType: (type: string) =>
    new OAuthError('unsupported_response_type', `response_type must be "code" or "token", got ${JSON.stringify(type)}`),
} as const;
