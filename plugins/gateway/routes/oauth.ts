import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import { type ApiRouter, answers, type JsonSchema, recordSchema } from 'vela/plugin';
import { type AuthorizeParams, authorize } from '../oauth/authorize.js';
import { OAuthError } from '../oauth/oauth-error.js';
import { serverMetadata } from '../oauth/server-metadata.js';
import type { OAuthParams } from '../oauth/token-endpoint.js';
import type { GatewayDomain } from './route-context.js';

const tags = ['oauth2'];
// The token endpoint takes GET with a form body too (the original's documented call).
const FORM_LIMIT = '16kb';
const FORM = 'application/x-www-form-urlencoded';
const formBody = express.urlencoded({ extended: false, limit: FORM_LIMIT });
const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const stringParams = (names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
});
const authorizeQuery = stringParams([
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
]);
const tokenParams = stringParams([
  'grant_type',
  'code',
  'redirect_uri',
  'client_id',
  'client_secret',
  'code_verifier',
  'refresh_token',
  'scope',
]);
const tokenResponse = recordSchema({
  access_token: 'string',
  token_type: { type: 'string', enum: ['bearer'] },
  expires_in: 'integer',
  refresh_token: 'string',
  scope: 'string',
});
const oauthError = {
  description: 'RFC 6749 error: {"error", "error_description", "message"}',
  schema: {
    type: 'object',
    required: ['error', 'error_description', 'message'],
    properties: {
      error: {
        type: 'string',
        description: 'invalid_request, invalid_client, invalid_grant, unsupported_grant_type, ...',
      },
      error_description: { type: 'string' },
      message: { type: 'string', description: 'the same text, in the shape of every other Vela error' },
    },
  },
};
/** The answers of an endpoint that takes client credentials: `schema`, or an RFC 6749 error. */
const clientAnswers = (description: string, schema: JsonSchema) =>
  answers(description, schema, { 400: oauthError, 401: oauthError });
/** A form body naming a token, with the client's credentials (revocation, introspection). */
const tokenForm = {
  body: stringParams(['token', 'token_type_hint', 'client_id', 'client_secret']),
  bodyContentTypes: [FORM],
  bodyLimit: FORM_LIMIT,
  validate: false,
};
const introspection = recordSchema(
  {
    active: {
      type: 'boolean',
      description:
        'false for a token that is unknown, expired, revoked or of another client; nothing else is said then',
    },
    client_id: 'string',
    token_type: { type: 'string', enum: ['bearer', 'refresh_token'] },
    exp: { type: 'integer', description: 'expiry, seconds since the epoch' },
    iat: { type: 'integer', description: 'issue time, seconds since the epoch' },
    scope: 'string',
  },
  { required: ['active'] },
);
const stringList = { type: 'array', items: { type: 'string' } };
const metadata = {
  type: 'object',
  required: ['issuer', 'authorization_endpoint', 'token_endpoint'],
  properties: {
    issuer: { type: 'string', format: 'uri' },
    authorization_endpoint: { type: 'string', format: 'uri' },
    token_endpoint: { type: 'string', format: 'uri' },
    revocation_endpoint: { type: 'string', format: 'uri' },
    introspection_endpoint: { type: 'string', format: 'uri' },
    response_types_supported: stringList,
    grant_types_supported: stringList,
    token_endpoint_auth_methods_supported: stringList,
    revocation_endpoint_auth_methods_supported: stringList,
    introspection_endpoint_auth_methods_supported: stringList,
    code_challenge_methods_supported: stringList,
  },
};

/**
 * Query and form body as one flat parameter list; repeated parameters are refused (RFC 6749 §3.1), also one in both.
 */
function oauthParams(req: Request): OAuthParams {
  const query = req.query as Record<string, unknown>;
  const body = (req.body as Record<string, unknown> | undefined) ?? {};
  const params: OAuthParams = {};
  for (const [key, value] of [...Object.entries(query), ...Object.entries(body)]) {
    if (typeof value !== 'string' || Object.hasOwn(params, key))
      throw new OAuthError(
        'invalid_request',
        `${key} must be given once, as a string (in the query or the body, not both)`,
      );
    params[key] = value;
  }
  return params;
}

/**
 * A body the parsers refuse before a handler runs (too large, undecodable) is still answered in the
 * RFC 6749 shape on the endpoints that take client credentials, with the parser's status.
 */
const oauthBodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const e = error as { status?: unknown; type?: unknown; limit?: unknown; message?: unknown };
  if (typeof e.status !== 'number' || e.status < 400 || e.status >= 500 || typeof e.type !== 'string')
    return next(error);
  const description =
    e.type === 'entity.too.large'
      ? `the request body is larger than the limit of ${String(e.limit)} bytes`
      : `the request body could not be read: ${String(e.message)}`;
  res
    .status(e.status)
    .set(noStore)
    .json(new OAuthError('invalid_request', description, e.status));
};

async function answer(res: Response, work: () => Promise<unknown>, status = 200): Promise<void> {
  try {
    const body = await work();
    res.status(status).set(noStore).json(body);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    res
      .status(error.status)
      .set({ ...noStore, ...error.headers })
      .json(error);
  }
}

export function mountOAuthRoutes(router: ApiRouter, domain: GatewayDomain): void {
  const { apps, codes, tokens, config, tokenEndpoint, publicUrls } = domain;
  // The OAuth2 endpoints authenticate the client themselves (its credentials are parameters): public routes.
  const oauth = router.withDefaults({ access: 'public', tags });

  oauth.get(
    '/api/authorize',
    {
      summary: 'Start the authorization-code (response_type=code) or implicit (response_type=token) grant',
      description:
        'Redirects to redirect_uri with code and state, or with access_token, state, token_type and expires_in as query parameters. An unknown client_id, an unregistered redirect_uri or a bad response_type answer 400 JSON, never a redirect.',
      query: authorizeQuery,
      validate: false,
      responses: {
        302: {
          description: 'redirect to redirect_uri',
          headers: {
            Location: {
              description: 'redirect_uri with the code and state, or the token, as query parameters',
              schema: { type: 'string' },
            },
          },
        },
        400: oauthError,
      },
    },
    async (req, res) => {
      try {
        const location = await authorize(oauthParams(req) as AuthorizeParams, publicUrls(), {
          apps,
          codes,
          tokens,
          codeTtlSeconds: config.codeTtlSeconds,
          accessTokenTtlSeconds: config.accessTokenTtlSeconds,
        });
        res.set(noStore).redirect(302, location);
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        res.status(400).set(noStore).json(error);
      }
    },
  );

  const token = async (req: Request, res: Response) =>
    answer(res, () => tokenEndpoint.token(oauthParams(req), req.headers.authorization));
  const tokenSpec = {
    summary: 'Token endpoint: authorization_code (with PKCE), refresh_token and client_credentials grants',
    description:
      "Parameters form-encoded in the body (GET or POST) or in the query. A client secret, when sent (form or HTTP Basic), must be the app's Consumer Secret.",
    query: tokenParams,
    bodyContentTypes: [FORM],
    validate: false,
    responses: clientAnswers('RFC 6749 token response', tokenResponse),
  };
  oauth.get('/api/token', tokenSpec, formBody, token);
  oauth.post('/api/token', { ...tokenSpec, body: tokenParams, bodyLimit: FORM_LIMIT }, token);

  oauth.post(
    '/api/revoke',
    {
      summary: 'RFC 7009 token revocation (client credentials required); unknown tokens also answer 200',
      ...tokenForm,
      responses: clientAnswers('revoked (or not a token of this client)', { type: 'object', maxProperties: 0 }),
    },
    async (req, res) =>
      answer(res, async () => {
        await tokenEndpoint.revoke(oauthParams(req), req.headers.authorization);
        return {};
      }),
  );

  oauth.post(
    '/api/introspect',
    {
      summary: "RFC 7662 token introspection of the calling client's tokens (client credentials required)",
      ...tokenForm,
      responses: clientAnswers('{"active": true, ...} or {"active": false}', introspection),
    },
    async (req, res) => answer(res, () => tokenEndpoint.introspect(oauthParams(req), req.headers.authorization)),
  );

  router.raw.use(['/api/token', '/api/revoke', '/api/introspect'], oauthBodyErrors);

  oauth.item(
    'get',
    '/.well-known/oauth-authorization-server',
    { summary: 'RFC 8414 authorization-server metadata', description: 'the metadata', schema: metadata },
    () => serverMetadata(publicUrls()[0]!),
  );
}
