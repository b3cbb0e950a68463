import type { WebSettings } from './settings.js';

/** Image files a crawl with includeImages fetches (their text recognized by OCR). */
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'tif', 'tiff', 'webp'];

/**
 * The one form of a URL used for de-duplication and as document id: absolute http(s), no fragment,
 * lower-case host, no default port, dot segments resolved (WHATWG URL does those), no empty query.
 * Undefined for anything that is not an http(s) URL.
 */
export function canonicalUrl(href: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  if (url.search === '?') url.search = '';
  return url.href;
}

/** Which URLs the crawl may fetch: same host, allow and deny patterns, extensions of non-pages. */
export class UrlRules {
  private readonly hosts: Set<string>;
  private readonly allow: RegExp[];
  private readonly deny: RegExp[];
  private readonly skipped: Set<string>;

  constructor(private readonly settings: WebSettings) {
    this.hosts = new Set(settings.seeds.map((s) => new URL(s).host.toLowerCase()));
    this.allow = settings.allow.map((p) => new RegExp(p));
    this.deny = settings.deny.map((p) => new RegExp(p));
    this.skipped = new Set(settings.skipExtensions.map((e) => e.toLowerCase()));
    if (!settings.includePdf) this.skipped.add('pdf');
    else this.skipped.delete('pdf');
    if (settings.includeImages) for (const extension of IMAGE_EXTENSIONS) this.skipped.delete(extension);
  }

  /** Why a canonical URL is not crawled, or undefined when it is. Seeds are exempt from `allow`. */
  refusal(url: string, isSeed = false): string | undefined {
    const parsed = new URL(url);
    if (this.settings.sameHost && !this.hosts.has(parsed.host)) return 'another host';
    if (this.deny.some((r) => r.test(url))) return 'a deny pattern';
    if (!isSeed && this.allow.length > 0 && !this.allow.some((r) => r.test(url))) return 'no allow pattern';
    const extension = /\.([A-Za-z0-9]+)$/.exec(parsed.pathname)?.[1]?.toLowerCase();
    if (extension && this.skipped.has(extension)) return `a .${extension} file`;
    return undefined;
  }
}
