import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';

export interface ParsedSitemap {
  /** Page URLs (<urlset><url><loc>). */
  pages: string[];
  /** Child sitemaps (<sitemapindex><sitemap><loc>). */
  sitemaps: string[];
}

// Sitemaps may be up to 50 MB uncompressed (sitemaps.org); a larger gzip is refused rather than inflated.
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

/** The URLs of a sitemap or sitemap index, plain or gzipped XML. */
export function parseSitemap(bytes: Uint8Array): ParsedSitemap {
  const xml =
    bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: MAX_SITEMAP_BYTES }) : bytes;
  const $ = cheerio.load(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString('utf8'), { xml: true });
  const locs = (selector: string) =>
    $(selector)
      .toArray()
      .map((el) => $(el).text().trim())
      .filter(Boolean);
  return { pages: locs('urlset > url > loc'), sitemaps: locs('sitemapindex > sitemap > loc') };
}
