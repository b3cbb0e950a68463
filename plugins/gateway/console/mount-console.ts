import type { ApiRouter } from '../../../runtime/index.js';
import { mountAssetRoutes } from './asset-routes.js';
import type { ConsoleDeps } from './console-session.js';
import { mountPageRoutes } from './page-routes.js';
import { mountReceiverRoutes } from './receiver-routes.js';
import { mountSignInRoutes } from './sign-in-routes.js';

export type { ConsoleDeps } from './console-session.js';
export { RECEIVE_AUTHCODE, RECEIVE_IMPLICIT_TOKEN } from './receiver-routes.js';

/**
 * The gateway's console at /console/: sign-in with the runtime's administrator, the pages, the two
 * OAuth2 receivers and their static files. The console guards its own pages (a session, or a redirect
 * to sign-in), so the gateway's access control can leave /console/** to it.
 */
export function mountConsole(router: ApiRouter, deps: ConsoleDeps): void {
  mountAssetRoutes(router);
  mountSignInRoutes(router, deps);
  mountReceiverRoutes(router, deps);
  mountPageRoutes(router, deps);
}
