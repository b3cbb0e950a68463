import type { ApiRouter } from 'vela/plugin';
import { appCreateBody, appSchema, appUpdateBody } from '../schemas/app.js';
import { idParam } from '../schemas/common.js';
import type { AppInput } from '../store/app-store.js';
import type { GatewayDomain } from './route-context.js';

const tags = ['apps'];
const oneApp = { description: 'the app with its four credentials', schema: appSchema };

export function mountAppRoutes(router: ApiRouter, { apps, tokens }: GatewayDomain): void {
  const admin = router.withDefaults({ access: 'admin', tags });
  admin
    .collection({ path: '/api/v2/app', params: idParam, ...oneApp })
    .list({ summary: 'List the apps', description: 'apps' }, () => apps.list())
    .create(
      { summary: 'Create an app; its Consumer Key/Secret and Access Token/Secret are generated', body: appCreateBody },
      (req) => apps.create(req.body as AppInput),
    )
    .read({ summary: 'Get an app' }, (id) => apps.get(id))
    .replace({ summary: "Change an app's name, description or callback URLs", body: appUpdateBody }, (id, req) =>
      apps.update(id, req.body as Partial<AppInput>),
    )
    .remove(
      { summary: 'Delete an app; its codes and tokens stop working', description: 'the app is deleted' },
      async (id) => ({ id: (await apps.delete(id)).id }),
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
