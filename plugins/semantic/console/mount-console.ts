import type { ApiRouter, ConsoleExtensions } from 'vela/plugin';

/**
 * A site's Semantic tab in the search service's console (/console/sites/<site>/semantic): its semantic settings, its
 * embedding progress and failures, and one query searched by keyword, hybrid and vector side by side, driven through
 * /api/sn/<site>/semantic and /api/sn/<site>/search. Mounted on this plugin's router, so a runtime without it has
 * neither the page nor the tab.
 */
export function mountConsolePages(router: ApiRouter, target: ConsoleExtensions): void {
  target.extend(router, {
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    tabs: [
      {
        to: 'Site',
        label: 'Semantic',
        path: '/console/sites/:siteId/semantic',
        requires: '/api/sn/{siteName}/semantic',
      },
    ],
    pages: [
      {
        path: '/console/sites/:siteId/semantic',
        title: 'Semantic search',
        section: 'sites',
        tabs: 'Site',
        template: 'site-semantic.html',
        script: 'site-semantic.js',
      },
    ],
  });
}
