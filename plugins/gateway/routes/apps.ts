import type { ApiRouter } from 'vela/plugin';
import { appCreateBody, appSchema, appUpdateBody } from '../schemas/app.js';
import { idParam } from '../schemas/common.js';
import type { AppInput } from '../store/app-store.js';
import type { GatewayDomain } from './route-context.js';

const tags = ['apps'];
const oneApp = { description: 'the app with its four credentials', schema: appSchema };

export function mountAppRoutes(router: ApiRouter, { apps, tokens }: GatewayDomain): void {
  const admin = router.withDefaults({ access: 'admin', tags });
  admin.list('/api/v2/app', { summary: 'List the apps', description: 'apps', items: appSchema }, () => apps.list());
  admin.item(
    'post',
    '/api/v2/app',
    {
      summary: 'Create an app; its Consumer Key/Secret and Access Token/Secret are generated',
      body: appCreateBody,
      status: 201,
      ...oneApp,
    },
    (req) => apps.create(req.body as AppInput),
  );
  admin.item('get', '/api/v2/app/:id', { summary: 'Get an app', params: idParam, ...oneApp }, (req) =>
    apps.get(String(req.params.id)),
  );
  admin.item(
    'put',
    '/api/v2/app/:id',
    { summary: "Change an app's name, description or callback URLs", params: idParam, body: appUpdateBody, ...oneApp },
    (req) => apps.update(String(req.params.id), req.body as Partial<AppInput>),
  );
  admin.remove(
    '/api/v2/app/:id',
    { summary: 'Delete an app; its codes and tokens stop working', params: idParam, description: 'the app is deleted' },
    async (req) => ({ id: (await apps.delete(String(req.params.id))).id }),
  );
  const renewals = [
    ['gen_key', 'Generate a new Consumer Key and Consumer Secret', (id: string) => apps.genKey(id)],
    ['gen_token', 'Generate a new Access Token and Access Token Secret', (id: string) => apps.genToken(id)],
  ] as const;
  for (const [action, summary, renew] of renewals)
    admin.item('put', `/api/v2/app/:id/${action}`, { summary, params: idParam, ...oneApp }, (req) =>
      renew(String(req.params.id)),
    );
  admin.item(
    'delete',
    '/api/v2/app/:id/accessTokens',
    {
      summary: 'Revoke every token of the app: the tokens issued by the OAuth2 endpoints and its own Access Token',
      params: idParam,
      ...oneApp,
    },
    async (req) => {
      const id = String(req.params.id);
      apps.get(id);
      await tokens.revokeApp(id);
      return apps.clearOwnToken(id);
    },
  );
}
