import type { ApiRouter, ConsoleExtensions } from 'vela/plugin';

/**
 * The LLM page of the search service's console (/console/llm): the LLM instances and their token usage, driven
 * through /api/llm. Mounted on this plugin's router, so a runtime without it has no such page.
 */
export function mountConsolePages(router: ApiRouter, target: ConsoleExtensions): void {
  target.extend(router, {
    templates: new URL('./templates/', import.meta.url),
    assets: new URL('./assets/', import.meta.url),
    navigation: [{ section: 'llm', href: '/console/llm', label: 'LLM', requires: '/api/llm' }],
    pages: [{ path: '/console/llm', title: 'LLM instances', section: 'llm', template: 'llm.html', script: 'llm.js' }],
  });
}
