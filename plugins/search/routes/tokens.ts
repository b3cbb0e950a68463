import { type ApiRouter, pathParams, principalOf, recordSchema } from 'vela/plugin';
import { TOKEN_SCOPES, type TokenScope } from '../auth/api-tokens.js';
import { idSchema } from '../schemas/common.js';
import type { SearchDomain } from './route-context.js';

const tags = ['api tokens'];
const idParam = pathParams({ id: idSchema });
const tokenSchema = recordSchema({
  id: 'string',
  title: 'string',
  description: 'string',
  tokenHint: { type: 'string', description: 'first characters of the token' },
  createdBy: 'string',
  createdAt: 'string',
  updatedAt: 'string',
  lastUsedAt: 'string?',
  scopes: 'string[]',
});
const scopesSchema = {
  type: 'array',
  items: { type: 'string', enum: [...TOKEN_SCOPES] },
  minItems: 1,
  uniqueItems: true,
  description:
    'what the token may do: search (read sites and fields), import (import and deindex), connector (the connector API), admin (everything)',
};
const body = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', maxLength: 1000, default: '' },
    // The least privilege: a token that must write is asked for with the scopes it needs.
    scopes: { ...scopesSchema, default: ['search'] },
  },
};
const patch = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', maxLength: 1000 },
    scopes: scopesSchema,
    id: {},
  },
};

export function mountTokenRoutes(router: ApiRouter, { tokens }: Pick<SearchDomain, 'tokens'>): void {
  const admin = router.withDefaults({ access: 'key', tags });
  const theToken = { description: 'the token', schema: tokenSchema };
  admin.list(
    '/api/dev/token',
    { summary: 'List API tokens (values are never shown again)', description: 'tokens', items: tokenSchema },
    () => tokens.list(),
  );
  admin.post(
    '/api/dev/token',
    {
      summary: 'Create an API token; the answer carries its value, shown this once',
      body,
      responses: {
        201: {
          description: 'the token with its value',
          schema: { ...tokenSchema, properties: { ...tokenSchema.properties, token: { type: 'string' } } },
        },
      },
    },
    async (req, res) => {
      const { title, description, scopes } = req.body as { title: string; description: string; scopes: TokenScope[] };
      res.status(201).json(await tokens.create(title, description, principalOf(res)?.username ?? 'admin', scopes));
    },
  );
  admin.item('get', '/api/dev/token/:id', { summary: 'Get an API token', params: idParam, ...theToken }, (req) =>
    tokens.get(String(req.params.id)),
  );
  admin.item(
    'put',
    '/api/dev/token/:id',
    { summary: "Change a token's title or description", params: idParam, body: patch, ...theToken },
    (req) =>
      tokens.update(String(req.params.id), req.body as { title?: string; description?: string; scopes?: TokenScope[] }),
  );
  admin.remove(
    '/api/dev/token/:id',
    { summary: 'Revoke an API token', params: idParam, description: 'the token is revoked' },
    async (req) => ({ id: (await tokens.delete(String(req.params.id))).id }),
  );
}
