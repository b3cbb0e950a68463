import type { ApiRouter, ConsoleExtensions } from 'vela/plugin';

/**
 * The Integrations page of the search service's console (/console/integrations): the instances the proxy forwards
 * to, driven through /api/integration. Mounted on this plugin's router, so a runtime without it has no such page.
 */
export function mountConsolePages(router: ApiRouter, target: ConsoleExtensions): void {
  target.extend(router, {
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    navigation: [
      { section: 'integrations', href: '/console/integrations', label: 'Integrations', requires: '/api/integration' },
    ],
    pages: [
      {
        path: '/console/integrations',
        title: 'Integrations',
        section: 'integrations',
        template: 'integrations.html',
        script: 'integrations.js',
      },
    ],
  });
}
