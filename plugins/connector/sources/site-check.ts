import type { Logger } from 'vela/plugin';
import { connectorErrors } from '../errors.js';
import type { SearchTarget } from '../search-target/search-target.js';

/**
 * A source saved through the API must name sites the search service has, with the source's locale:
 * else every document of its runs would be refused. When the search service cannot be asked (none
 * configured, or it does not answer), the source is saved unchecked and its runs report the problem.
 * `named`: locales its documents may carry, each checked first and named by its member in the error.
 */
export async function checkSites(
  target: () => SearchTarget,
  sites: readonly string[],
  locale: string,
  logger: Logger,
  named: ReadonlyArray<{ member: string; locale: string }> = [],
): Promise<void> {
  let search: SearchTarget;
  try {
    search = target();
  } catch {
    return;
  }
  for (const [i, site] of sites.entries()) {
    let locales: string[] | null;
    try {
      locales = await search.siteLocales(site);
    } catch (error) {
      logger.warn(
        { site, err: error },
        'the sites of a source could not be checked: the search service did not answer',
      );
      return;
    }
    if (locales === null)
      throw connectorErrors.invalidParameter(
        `sites[${i}]`,
        `must name a site of the search service, got ${JSON.stringify(site)}: create it first (POST /api/sn) or fix the name`,
      );
    const missing = named.find((n) => !locales!.includes(n.locale));
    if (missing)
      throw connectorErrors.invalidParameter(
        missing.member,
        `is ${missing.locale}, which sites[${i}] ("${site}") does not have (its locales: ${locales.join(', ') || 'none'}): add it (POST /api/sn/${site}/locale) or change ${missing.member}`,
      );
    if (!locales.includes(locale))
      throw connectorErrors.invalidParameter(
        `sites[${i}]`,
        `("${site}") has no locale ${locale} (its locales: ${locales.join(', ') || 'none'}): add it (POST /api/sn/${site}/locale) or set the source's locale`,
      );
  }
}
