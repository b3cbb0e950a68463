import type { Logger, OutboundFetch } from 'vela/plugin';
import type { ExtractedContent, ExtractInput, SourceDocument, SourceReadError } from '../../api.js';
import { HostThrottle } from './host-throttle.js';
import { type Fetched, httpGet } from './http-fetch.js';
import { RobotsCache, type RobotsRules, robotsAgent } from './robots.js';
import type { WebSettings } from './settings.js';
import { parseSitemap } from './sitemap.js';
import { canonicalUrl, UrlRules } from './url-rules.js';

type Item = SourceDocument | SourceReadError;

export interface CrawlContext {
  settings: WebSettings;
  signal: AbortSignal;
  logger: Logger;
  extract(input: ExtractInput): Promise<ExtractedContent>;
  fetch: OutboundFetch;
  note?(message: string): void;
}

/** What fetching one URL gave: a document or an error to yield, links to follow, or nothing (skipped). */
interface Outcome {
  item?: Item;
  links: string[];
  /** True when no page request was made (robots.txt, a redirect out of bounds): it does not count toward maxPages. */
  notFetched?: boolean;
}

const MAX_REDIRECTS = 5;
const MAX_SITEMAP_FILES = 20;
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp']);

/**
 * A breadth-first crawl: seeds and sitemap entries at depth 0, links one level deeper each, up to
 * maxDepth and maxPages, `concurrency` requests at once with each host's delay kept. Every URL is
 * canonical (no fragment) and fetched at most once; a page whose <link rel=canonical> names another
 * URL is yielded under that URL, and a URL is yielded once.
 */
export class Crawler {
  private readonly rules: UrlRules;
  private readonly throttle = new HostThrottle();
  private readonly robots: RobotsCache;
  private readonly seen = new Set<string>();
  private readonly yielded = new Set<string>();
  private readonly queue: Array<{ url: string; depth: number }> = [];

  constructor(private readonly ctx: CrawlContext) {
    this.rules = new UrlRules(ctx.settings);
    this.robots = new RobotsCache(
      robotsAgent(ctx.settings.userAgent),
      (url) => this.politeGet(url, true),
      (message) => ctx.note?.(message),
    );
  }

  /** The whole crawl from the seeds. */
  async *crawl(): AsyncGenerator<Item> {
    for (const seed of this.ctx.settings.seeds) this.enqueue(seed, 0, true);
    if (this.ctx.settings.sitemaps) {
      for (const url of await this.sitemapUrls()) this.enqueue(url, 0);
    }
    yield* this.drain(true);
  }

  /** Just these URLs (index by ids): no links followed, no sitemaps. */
  async *fetchOnly(ids: readonly string[]): AsyncGenerator<Item> {
    for (const id of ids) {
      const url = canonicalUrl(id);
      if (!url) {
        yield { id, error: 'not an http(s) URL' };
        continue;
      }
      this.enqueue(
        url,
        0,
        this.ctx.settings.seeds.some((s) => canonicalUrl(s) === url),
      );
    }
    yield* this.drain(false);
  }

  private enqueue(href: string, depth: number, isSeed = false): void {
    const url = canonicalUrl(href);
    if (!url || this.seen.has(url) || depth > this.ctx.settings.maxDepth) return;
    const refusal = this.rules.refusal(url, isSeed);
    if (refusal) {
      this.ctx.logger.debug({ url, reason: refusal }, 'web source: URL not crawled');
      return;
    }
    this.seen.add(url);
    this.queue.push({ url, depth });
  }

  /** Runs the queue with bounded concurrency, yielding outcomes as they finish (links queued first). */
  private async *drain(followLinks: boolean): AsyncGenerator<Item> {
    const running = new Map<number, Promise<{ key: number; depth: number; outcome: Outcome }>>();
    let started = 0;
    let nextKey = 0;
    for (;;) {
      while (
        running.size < this.ctx.settings.concurrency &&
        this.queue.length > 0 &&
        started < this.ctx.settings.maxPages
      ) {
        const { url, depth } = this.queue.shift()!;
        const key = nextKey++;
        started += 1;
        running.set(
          key,
          this.visit(url).then((outcome) => ({ key, depth, outcome })),
        );
      }
      if (running.size === 0) return;
      const { key, depth, outcome } = await Promise.race(running.values());
      running.delete(key);
      // Cancelled: throw rather than return, so the run cannot pass for a complete one.
      this.ctx.signal.throwIfAborted();
      if (outcome.notFetched) started -= 1;
      if (followLinks) for (const link of outcome.links) this.enqueue(link, depth + 1);
      const item = outcome.item;
      if (item && !this.yielded.has(item.id)) {
        this.yielded.add(item.id);
        yield item;
      }
    }
  }

  /** Fetch one URL, following redirects within the rules, and extract it. Never rejects, unless cancelled. */
  private async visit(start: string): Promise<Outcome> {
    let url = start; // after redirects, the page's own URL: the id of its error too
    try {
      let response: Fetched | undefined;
      for (let hop = 0; ; hop++) {
        if (!(await this.robotsAllow(url))) return { links: [], notFetched: hop === 0 };
        response = await this.politeGet(url);
        const location = response.headers.get('location');
        if (response.status < 300 || response.status >= 400 || !location) break;
        await response.discard();
        const target = canonicalUrl(location, url);
        if (hop >= MAX_REDIRECTS)
          return { item: { id: start, error: `more than ${MAX_REDIRECTS} redirects` }, links: [] };
        const refusal = target ? this.rules.refusal(target) : 'not an http(s) URL';
        if (!target || refusal) {
          this.ctx.logger.debug({ url, location, reason: refusal }, 'web source: redirect not followed');
          return { links: [] };
        }
        if (target !== url && this.seen.has(target)) return { links: [] }; // that page is crawled on its own
        this.seen.add(target);
        url = target;
      }
      return await this.read(url, response);
    } catch (error) {
      if (this.ctx.signal.aborted) throw this.ctx.signal.reason;
      return { item: { id: url, error: (error as Error).message }, links: [] };
    }
  }

  private async read(url: string, response: Fetched): Promise<Outcome> {
    // Gone, not failed: yielding nothing lets a complete run de-index the page. As a read error, one
    // broken link anywhere on a site would keep every vanished page indexed (errors block de-indexing).
    if (response.status === 404 || response.status === 410) {
      await response.discard();
      this.ctx.logger.info({ url, status: response.status }, 'web source: page not found, not indexed');
      return { links: [] };
    }
    if (response.status < 200 || response.status >= 300) {
      await response.discard();
      return {
        item: { id: url, error: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` },
        links: [],
      };
    }
    const contentType = response.headers.get('content-type') ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    // No Content-Type at all: let extraction sniff the bytes (and skip the URL quietly if it is no page).
    if (mediaType && !PAGE_TYPES.has(mediaType) && !this.indexesFile(mediaType)) {
      await response.discard();
      this.ctx.logger.debug({ url, contentType }, 'web source: not a page, not indexed');
      return { links: [] };
    }
    const bytes = await response.bytes(this.ctx.settings.maxPageBytes);
    let content: ExtractedContent;
    try {
      content = await this.ctx.extract({ bytes, contentType, url, ocr: { languages: this.ctx.settings.ocrLanguages } });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (!mediaType && code === 'unsupported_type') return { links: [] };
      return {
        item: { id: url, error: `${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}` },
        links: [],
      };
    }
    if (!mediaType && content.contentType !== 'text/html' && !this.indexesFile(content.contentType))
      return { links: [] };
    const robotsMeta = String(content.metadata.robots ?? '');
    const links = /\b(nofollow|none)\b/.test(robotsMeta) ? [] : (content.links ?? []);
    if (/\b(noindex|none)\b/.test(robotsMeta)) return { links };
    const id = this.canonicalOf(content, url);
    return { item: { id, attributes: attributesOf(content, id, response, mediaType || content.contentType) }, links };
  }

  /** Whether a response that is not a page is indexed: PDF with includePdf, images (read by OCR) with includeImages. */
  private indexesFile(mediaType: string): boolean {
    if (mediaType === 'application/pdf') return this.ctx.settings.includePdf;
    return this.ctx.settings.includeImages && IMAGE_TYPES.has(mediaType);
  }

  /** The page's <link rel=canonical> when it is a URL this crawl may fetch, else the page's own URL. */
  private canonicalOf(content: ExtractedContent, url: string): string {
    const declared =
      typeof content.metadata.canonical === 'string' ? canonicalUrl(content.metadata.canonical, url) : undefined;
    if (!declared || declared === url || this.rules.refusal(declared)) return url;
    this.seen.add(declared); // its content is this page's: no need to fetch it again
    return declared;
  }

  private async robotsAllow(url: string): Promise<boolean> {
    if (!this.ctx.settings.robotsTxt) return true;
    const allowed = (await this.robots.for(new URL(url).origin)).allows(url);
    if (!allowed) this.ctx.logger.debug({ url }, 'web source: disallowed by robots.txt');
    return allowed;
  }

  /**
   * A GET that waits its turn for the host (the larger of delayMs and robots.txt Crawl-delay, from the last answer).
   * robots.txt itself, and each hop of its redirects, waits only for delayMs: its own Crawl-delay is not known yet.
   */
  private async politeGet(url: string, forRobots = false): Promise<Fetched> {
    const origin = new URL(url).origin;
    const { delayMs, maxCrawlDelayMs, robotsTxt, userAgent, timeoutMs } = this.ctx.settings;
    let delay = delayMs;
    if (robotsTxt && !forRobots) {
      const robots: RobotsRules | undefined = await this.robots.for(origin).catch(() => undefined);
      delay = Math.max(delay, Math.min(robots?.crawlDelayMs ?? 0, maxCrawlDelayMs));
    }
    const answered = await this.throttle.wait(origin, delay, this.ctx.signal);
    try {
      return await httpGet(this.ctx.fetch, url, { userAgent, timeoutMs, signal: this.ctx.signal });
    } finally {
      answered();
    }
  }

  /** Page URLs from each seed host's sitemaps: robots.txt Sitemap: lines and /sitemap.xml, indexes followed. */
  private async sitemapUrls(): Promise<string[]> {
    const pending: string[] = [];
    for (const origin of new Set(this.ctx.settings.seeds.map((s) => new URL(s).origin))) {
      const robots = this.ctx.settings.robotsTxt ? await this.robots.for(origin).catch(() => undefined) : undefined;
      pending.push(...(robots?.sitemaps ?? []), `${origin}/sitemap.xml`);
    }
    const done = new Set<string>();
    const pages: string[] = [];
    while (pending.length > 0 && done.size < MAX_SITEMAP_FILES) {
      const url = canonicalUrl(pending.shift()!);
      if (!url || done.has(url)) continue;
      done.add(url);
      try {
        if (!(await this.robotsAllow(url))) continue;
        const response = await this.politeGet(url);
        if (response.status !== 200) {
          await response.discard();
          continue;
        }
        const parsed = parseSitemap(await response.bytes(MAX_SITEMAP_BYTES));
        pages.push(...parsed.pages);
        pending.push(...parsed.sitemaps);
      } catch (error) {
        if (this.ctx.signal.aborted) throw this.ctx.signal.reason;
        this.ctx.logger.warn({ url, err: (error as Error).message }, 'web source: sitemap not read');
      }
    }
    return pages;
  }
}

function attributesOf(
  content: ExtractedContent,
  url: string,
  response: Fetched,
  mediaType: string,
): Record<string, unknown> {
  const { description, keywords, author, language } = content.metadata;
  const lastModified = response.headers.get('last-modified');
  const modified = lastModified ? new Date(lastModified) : undefined;
  return {
    title: content.title ?? url,
    text: content.text,
    url,
    ...(description !== undefined ? { description } : {}),
    ...(keywords !== undefined ? { keywords } : {}),
    ...(author !== undefined ? { author } : {}),
    ...(language !== undefined ? { language } : {}),
    contentType: mediaType,
    ...(modified && !Number.isNaN(modified.getTime()) ? { lastModified: modified.toISOString() } : {}),
  };
}
