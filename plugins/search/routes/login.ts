import { AdminAccess, mountSessionRoutes, type ApiRouter } from '../../../runtime/index.js';
import type { SearchDomain } from './route-context.js';

/** Console sign-in and sign-out: the runtime's session routes, shared with the other services. */
export function mountLoginRoutes(router: ApiRouter, { accounts }: SearchDomain): void {
  mountSessionRoutes(router, accounts, new AdminAccess(accounts));
}
