import { createHash } from 'node:crypto';

/**
 * What decides whether a document must be sent again: its attributes, locale and target sites.
 * Attribute order is kept as the source gives it, which is stable for one source.
 */
export function documentChecksum(locale: string, sites: readonly string[], attributes: Record<string, unknown>): string {
  return createHash('sha1')
    .update(JSON.stringify([locale, sites, attributes]))
    .digest('hex');
}
