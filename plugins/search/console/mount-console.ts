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
    // Served by the search-metrics plugin: the tab shows when the service answers its API.
    { label: 'Metrics', path: '/console/sites/:siteId/metrics', requires: '/api/sn/{id}/metrics/live' },
  ],
};
const site = { section: 'sites', tabs: SITE_TABS };

// The administrator's pages. Each is an HTML shell whose script drives the search service's admin JSON API (/api/sn,
// /api/dev/token, /api/integration, /api/sn/<site>/metrics, /api/llm) with the session cookie and the page's CSRF
// token, as any API client would. Order matters: "/new" before "/:siteId".
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
  {
    path: '/console/sites/:siteId/metrics',
    title: 'Metrics',
    ...site,
    template: 'site-metrics.html',
    script: 'site-metrics.js',
  },
  { path: '/console/tokens', title: 'API tokens', section: 'tokens', template: 'tokens.html', script: 'tokens.js' },
  {
    path: '/console/integrations',
    title: 'Integrations',
    section: 'integrations',
    template: 'integrations.html',
    script: 'integrations.js',
  },
  { path: '/console/llm', title: 'LLM instances', section: 'llm', template: 'llm.html', script: 'llm.js' },
];

/**
 * The search service's console at /console/ (and `/` leads there), on the runtime's console kit: sign-in
 * with the runtime's administrator, then sites (settings, fields, locales, spotlights, metrics), API
 * tokens, and the integration and LLM pages, whose navigation entries (and the metrics tab) appear only when the
 * service answers their APIs (the integration proxy, the genai plugin, the search-metrics plugin).
 */
export function mountConsole(router: ApiRouter, accounts: Accounts): void {
  const kit = new ConsoleKit(accounts, {
    product: 'Vela Search',
    home: CONSOLE_HOME,
    navigation: [
      { section: 'sites', href: CONSOLE_HOME, label: 'Sites' },
      { section: 'tokens', href: '/console/tokens', label: 'API tokens' },
      { section: 'integrations', href: '/console/integrations', label: 'Integrations', requires: '/api/integration' },
      { section: 'llm', href: '/console/llm', label: 'LLM', requires: '/api/llm' },
    ],
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    styles: ['search-console.css'],
    signInHint: "Sign in with the search service's administrator account.",
  });
  kit.mount(router, PAGES);
}
