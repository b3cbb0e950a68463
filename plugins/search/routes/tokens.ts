import type { ApiRouter } from '../../../runtime/index.js';
import { principalOf } from '../auth/access-control.js';
import type { SearchDomain } from './route-context.js';

const tags = ['api tokens'];
const idParam = { type: 'object', properties: { id: { type: 'string' } } };
const tokenSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' }, tokenHint: { type: 'string', description: 'first characters of the token' },
    createdBy: { type: 'string' }, createdAt: { type: 'string' }, updatedAt: { type: 'string' }, lastUsedAt: { type: ['string', 'null'] },
  },
};
const body = { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string', minLength: 1, maxLength: 100 }, description: { type: 'string', maxLength: 1000, default: '' } } };
const patch = { type: 'object', additionalProperties: false, properties: { title: { type: 'string', minLength: 1, maxLength: 100 }, description: { type: 'string', maxLength: 1000 }, id: {} } };

export function mountTokenRoutes(router: ApiRouter, { tokens }: SearchDomain): void {
  router.get('/api/dev/token', { tags, summary: 'List API tokens (values are never shown again)', responses: { 200: { description: 'tokens', schema: { type: 'array', items: tokenSchema } } } }, async (_req, res) => {
    res.json(await tokens.list());
  });
  router.post('/api/dev/token', {
    tags, summary: 'Create an API token; the answer carries its value, shown this once', body,
    responses: { 201: { description: 'the token with its value', schema: { ...tokenSchema, properties: { ...tokenSchema.properties, token: { type: 'string' } } } } },
  }, async (req, res) => {
    const { title, description } = req.body as { title: string; description: string };
    res.status(201).json(await tokens.create(title, description, principalOf(res)?.username ?? 'admin'));
  });
  router.get('/api/dev/token/:id', { tags, summary: 'Get an API token', params: idParam, responses: { 200: { description: 'the token', schema: tokenSchema } } }, async (req, res) => {
    res.json(await tokens.get(String(req.params.id)));
  });
  router.put('/api/dev/token/:id', { tags, summary: 'Change a token\'s title or description', params: idParam, body: patch }, async (req, res) => {
    res.json(await tokens.update(String(req.params.id), req.body as { title?: string; description?: string }));
  });
  router.delete('/api/dev/token/:id', { tags, summary: 'Revoke an API token', params: idParam }, async (req, res) => {
    const token = await tokens.delete(String(req.params.id));
    res.json({ deleted: true, id: token.id });
  });
}
