import { type ApiRouter, deleteRoute, listRoute } from 'vela/plugin';
import { appCreateBody, appSchema, appUpdateBody } from '../schemas/app.js';
import { idParam } from '../schemas/common.js';
import type { AppInput } from '../store/app-store.js';
import type { GatewayDomain } from './route-context.js';

const tags = ['apps'];
const oneApp = { 200: { description: 'the app with its four credentials', schema: appSchema } };

export function mountAppRoutes(router: ApiRouter, { apps, tokens }: GatewayDomain): void {
  listRoute(
    router,
    '/api/v2/app',
    { access: 'admin', tags, summary: 'List the apps', description: 'apps', items: appSchema },
    () => apps.list(),
  );
  router.post(
    '/api/v2/app',
    {
      access: 'admin',
      tags,
      summary: 'Create an app; its Consumer Key/Secret and Access Token/Secret are generated',
      body: appCreateBody,
      responses: { 201: { description: 'the app with its four credentials', schema: appSchema } },
    },
    async (req, res) => {
      res.status(201).json(await apps.create(req.body as AppInput));
    },
  );
  router.get(
    '/api/v2/app/:id',
    { access: 'admin', tags, summary: 'Get an app', params: idParam, responses: oneApp },
    (req, res) => {
      res.json(apps.get(String(req.params.id)));
    },
  );
  router.put(
    '/api/v2/app/:id',
    {
      access: 'admin',
      tags,
      summary: "Change an app's name, description or callback URLs",
      params: idParam,
      body: appUpdateBody,
      responses: oneApp,
    },
    async (req, res) => {
      res.json(await apps.update(String(req.params.id), req.body as Partial<AppInput>));
    },
  );
  deleteRoute(
    router,
    '/api/v2/app/:id',
    {
      access: 'admin',
      tags,
      summary: 'Delete an app; its codes and tokens stop working',
      params: idParam,
      description: 'the app is deleted',
    },
    async (req) => ({ id: (await apps.delete(String(req.params.id))).id }),
  );
  const renewals = [
    ['gen_key', 'Generate a new Consumer Key and Consumer Secret', (id: string) => apps.genKey(id)],
    ['gen_token', 'Generate a new Access Token and Access Token Secret', (id: string) => apps.genToken(id)],
  ] as const;
  for (const [action, summary, renew] of renewals) {
    router.put(
      `/api/v2/app/:id/${action}`,
      { access: 'admin', tags, summary, params: idParam, responses: oneApp },
      async (req, res) => {
        res.json(await renew(String(req.params.id)));
      },
    );
  }
  router.delete(
    '/api/v2/app/:id/accessTokens',
    {
      access: 'admin',
      tags,
      summary: 'Revoke every token of the app: the tokens issued by the OAuth2 endpoints and its own Access Token',
      params: idParam,
      responses: oneApp,
    },
    async (req, res) => {
      const id = String(req.params.id);
      apps.get(id);
      await tokens.revokeApp(id);
      res.json(await apps.clearOwnToken(id));
    },
  );
}
