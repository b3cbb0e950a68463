import { type Accounts, type ApiRouter, ConsoleKit, type ConsolePage, type ConsoleTabs } from 'vela/plugin';
import { mountReceiverRoutes } from './receiver-routes.js';

export { RECEIVE_AUTHCODE, RECEIVE_IMPLICIT_TOKEN } from './receiver-routes.js';

/** What the console needs from the gateway plugin: the runtime's administrator accounts and sessions. */
export interface ConsoleDeps {
  accounts: Accounts;
}

// The pages about one app, as tabs; each is also a page below.
const APP_TABS: ConsoleTabs = {
  label: 'App',
  tabs: [
    { label: 'Details', path: '/console/app/:appId' },
    { label: 'Keys and Access Tokens', path: '/console/app/:appId/keys' },
  ],
};

// The administrator's pages. Each is an HTML shell whose script reads and writes the admin JSON API
// (/api/v2/...) with the session cookie and the page's CSRF token, exactly as any API client would.
// Order matters: "/new" before "/:id".
const PAGES: ConsolePage[] = [
  {
    path: '/console/dashboard',
    title: 'Dashboard',
    section: 'dashboard',
    template: 'dashboard.html',
    script: 'dashboard.js',
  },
  {
    path: '/console/mapping',
    title: 'Mappings',
    section: 'mapping',
    template: 'mapping-list.html',
    script: 'mapping-list.js',
  },
  {
    path: '/console/mapping/new',
    title: 'New mapping',
    section: 'mapping',
    template: 'mapping-form.html',
    script: 'mapping-form.js',
  },
  {
    path: '/console/mapping/:mappingId',
    title: 'Edit mapping',
    section: 'mapping',
    template: 'mapping-form.html',
    script: 'mapping-form.js',
  },
  { path: '/console/app', title: 'Apps', section: 'app', template: 'app-list.html', script: 'app-list.js' },
  { path: '/console/app/new', title: 'New app', section: 'app', template: 'app-new.html', script: 'app-new.js' },
  {
    path: '/console/app/:appId',
    title: 'App details',
    section: 'app',
    template: 'app-details.html',
    script: 'app-details.js',
    tabs: APP_TABS,
  },
  {
    path: '/console/app/:appId/keys',
    title: 'Keys and Access Tokens',
    section: 'app',
    template: 'app-keys.html',
    script: 'app-keys.js',
    tabs: APP_TABS,
  },
];

/**
 * The gateway's console at /console/, built on the runtime's console kit (sign-in with the runtime's
 * administrator, layout, files, session checks): its pages, the two OAuth2 receivers and their static
 * files. The console guards its own pages (a session, or a redirect to sign-in), so the gateway's access
 * control can leave /console/** to it; the gateway's own address leads a browser to the console.
 */
export function mountConsole(router: ApiRouter, { accounts }: ConsoleDeps): void {
  const kit = new ConsoleKit(accounts, {
    product: 'Vela Gateway',
    home: '/console/dashboard',
    navigation: [
      { section: 'dashboard', href: '/console/dashboard', label: 'Dashboard' },
      { section: 'mapping', href: '/console/mapping', label: 'Mappings' },
      { section: 'app', href: '/console/app', label: 'Apps' },
    ],
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    signInHint: "Sign in with the gateway's administrator account.",
  });
  kit.mount(router, PAGES);
  mountReceiverRoutes(router, kit);
}
