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
  const token = admin.collection({
    path: '/api/dev/token',
    params: idParam,
    description: 'the token',
    schema: tokenSchema,
  });
  token.list({ summary: 'List API tokens (values are never shown again)', description: 'tokens' }, () => tokens.list());
  // Created by hand: the answer is the token with its value, and its creator is the caller.
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
  token
    .read({ summary: 'Get an API token' }, (id) => tokens.get(id))
    .replace({ summary: "Change a token's title or description", body: patch }, (id, req) =>
      tokens.update(id, req.body as { title?: string; description?: string; scopes?: TokenScope[] }),
    )
    .remove({ summary: 'Revoke an API token', description: 'the token is revoked' }, async (id) => ({
      id: (await tokens.delete(id)).id,
    }));
}
