import { hash } from 'node:crypto';

/**
 * What decides whether a document must be sent again: its attributes, locale and target sites.
 * Attribute order is kept as the source gives it, which is stable for one source. (The one-shot hash:
 * a run checksums every document it reads, and a Hash object per document cost as much as the digest.)
 */
export function documentChecksum(
  locale: string,
  sites: readonly string[],
  attributes: Record<string, unknown>,
): string {
  return hash('sha1', JSON.stringify([locale, sites, attributes]), 'hex');
}
