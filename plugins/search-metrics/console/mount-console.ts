import type { ApiRouter, ConsoleExtensions } from 'vela/plugin';

/**
 * A site's Metrics tab in the search service's console (/console/sites/<site>/metrics): top and zero-result terms and
 * the latest searches, driven through /api/sn/<site>/metrics. Mounted on this plugin's router, so a runtime without it
 * has neither the page nor the tab.
 */
export function mountConsolePages(router: ApiRouter, target: ConsoleExtensions): void {
  target.extend(router, {
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    tabs: [
      { to: 'Site', label: 'Metrics', path: '/console/sites/:siteId/metrics', requires: '/api/sn/{id}/metrics/live' },
    ],
    pages: [
      {
        path: '/console/sites/:siteId/metrics',
        title: 'Metrics',
        section: 'sites',
        tabs: 'Site',
        template: 'site-metrics.html',
        script: 'site-metrics.js',
      },
    ],
  });
}
