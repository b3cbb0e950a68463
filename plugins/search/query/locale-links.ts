import type { LinkTemplate } from '../links/link-template.js';
import type { SiteConfig } from '../store/site-types.js';

/** Locale switchers: the same search in each of the site's locales, in alphabetical order. */
export function localeLinks(config: SiteConfig, links: LinkTemplate): Array<{ locale: string; link: string }> {
  return [...config.site.locales]
    .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
    .map((locale) => ({ locale, link: links.withParam('_setlocale', locale) }));
}
