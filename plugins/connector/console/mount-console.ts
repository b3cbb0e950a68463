import { type Accounts, type ApiRouter, ConsoleKit, type ConsolePage } from 'vela/plugin';

const PAGES: ConsolePage[] = [
  { path: '/console/status', title: 'Status', section: 'status', template: 'status.html', script: 'status.js' },
];

/**
 * The connector's landing page: `/` leads a browser to its status (sources and their last runs), on the
 * runtime's console kit, so a browser is sent to a sign-in page rather than asked for Basic credentials.
 * The page reads the connector's admin API as any client would.
 */
export function mountConsole(router: ApiRouter, accounts: Accounts): void {
  const kit = new ConsoleKit(accounts, {
    product: 'Vela Connector',
    home: '/console/status',
    navigation: [{ section: 'status', href: '/console/status', label: 'Status' }],
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    signInHint: "Sign in with the runtime's administrator account.",
  });
  kit.mount(router, PAGES);
}
