import { type Accounts, type ApiRouter, ConsoleKit, type ConsolePage, type ConsoleTabs } from 'vela/plugin';

export const CONSOLE_HOME = '/console/sites';

// The pages about one site, as tabs; each is also a page below.
const SITE_TABS: ConsoleTabs = {
  label: 'Site',
  tabs: [
    { label: 'Settings', path: '/console/sites/:siteId' },
    { label: 'Fields', path: '/console/sites/:siteId/fields' },
    { label: 'Locales', path: '/console/sites/:siteId/locales' },
    { label: 'Spotlights', path: '/console/sites/:siteId/spotlights' },
  ],
};
const site = { section: 'sites', tabs: SITE_TABS };

// The administrator's pages. Each is an HTML shell whose script drives the search service's admin JSON API (/api/sn,
// /api/dev/token) with the session cookie and the page's CSRF token, as any API client would. Order matters: "/new"
// before "/:siteId".
const PAGES: ConsolePage[] = [
  { path: '/console/sites', title: 'Sites', section: 'sites', template: 'site-list.html', script: 'site-list.js' },
  { path: '/console/sites/new', title: 'New site', section: 'sites', template: 'site-new.html', script: 'site-new.js' },
  {
    path: '/console/sites/:siteId',
    title: 'Site settings',
    ...site,
    template: 'site-settings.html',
    script: 'site-settings.js',
  },
  {
    path: '/console/sites/:siteId/fields',
    title: 'Fields',
    ...site,
    template: 'site-fields.html',
    script: 'site-fields.js',
  },
  {
    path: '/console/sites/:siteId/locales',
    title: 'Locales',
    ...site,
    template: 'site-locales.html',
    script: 'site-locales.js',
  },
  {
    path: '/console/sites/:siteId/spotlights',
    title: 'Spotlights',
    ...site,
    template: 'site-spotlights.html',
    script: 'site-spotlights.js',
  },
  { path: '/console/tokens', title: 'API tokens', section: 'tokens', template: 'tokens.html', script: 'tokens.js' },
];

/**
 * The search service's console at /console/ (and `/` leads there), on the runtime's console kit: sign-in
 * with the runtime's administrator, then sites (settings, fields, locales, spotlights) and API tokens. Plugins on
 * the search service add their pages through `search.console` (the integration, genai and search-metrics plugins:
 * Integrations, LLM, a site's Metrics tab); their templates may use this console's (`{{> site-head.html}}`).
 */
export function searchConsole(accounts: Accounts): ConsoleKit {
  return new ConsoleKit(accounts, {
    product: 'Vela Search',
    home: CONSOLE_HOME,
    navigation: [
      { section: 'sites', href: CONSOLE_HOME, label: 'Sites' },
      { section: 'tokens', href: '/console/tokens', label: 'API tokens' },
    ],
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    styles: ['search-console.css'],
    signInHint: "Sign in with the search service's administrator account.",
  });
}

export function mountConsole(router: ApiRouter, kit: ConsoleKit): void {
  kit.mount(router, PAGES);
}
