import type { SourceDocument, SourceKind, SourceReadContext, SourceReadError } from '../../api.js';
import { Crawler } from './crawler.js';
import { resolveWebSettings, type WebSettings, webSettingsProblems, webSettingsSchema } from './settings.js';

/**
 * A crawler: pages reached from seed URLs (and sitemaps), within robots.txt and the source's rules; id = canonical URL.
 */
export const webSourceKind: SourceKind<WebSettings> = {
  name: 'web',
  description:
    'a web site crawled from seed URLs and sitemaps, obeying robots.txt; each HTML page (and optionally PDF) is one document, its id the canonical URL',
  settingsSchema: webSettingsSchema,
  checkSettings: webSettingsProblems,
  fetchesFrom: (settings) => settings.seeds.map((url, i) => ({ member: `settings.seeds[${i}]`, url })),
  read: readWeb,
};

function readWeb(ctx: SourceReadContext<WebSettings>): AsyncIterable<SourceDocument | SourceReadError> {
  const crawler = new Crawler({
    settings: resolveWebSettings(ctx.source.settings),
    signal: ctx.signal,
    logger: ctx.logger,
    extract: (input) => ctx.extract(input),
    fetch: ctx.fetch,
    note: (message) => ctx.note?.(message),
  });
  return ctx.onlyIds ? crawler.fetchOnly(ctx.onlyIds) : crawler.crawl();
}
