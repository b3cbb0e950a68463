/** RFC 8414 authorization-server metadata for the gateway at `issuer` (its base URL). */
export function serverMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/api/authorize`,
    token_endpoint: `${issuer}/api/token`,
    revocation_endpoint: `${issuer}/api/revoke`,
    introspection_endpoint: `${issuer}/api/introspect`,
    response_types_supported: ['code', 'token'],
    grant_types_supported: ['authorization_code', 'implicit', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
  };
}
