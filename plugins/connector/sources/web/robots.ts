import * as robotsParserModule from 'robots-parser';
import type { Fetched } from './http-fetch.js';

export interface RobotsRules {
  allows(url: string): boolean;
  /** Crawl-delay for our user agent (or `*`), in ms. */
  crawlDelayMs?: number;
  sitemaps: string[];
}

type ParseRobots = typeof robotsParserModule.default.default;
// The package's types declare `exports.default`, but its module.exports is the parser itself, which is
// what an ES import's default gets.
const parseRobots = robotsParserModule.default as unknown as ParseRobots;

// RFC 9309 asks crawlers to read at least 500 KiB; a larger file fails like an unreachable one.
const MAX_ROBOTS_BYTES = 2 * 1024 * 1024;

const ALLOW_ALL: RobotsRules = { allows: () => true, sitemaps: [] };

/** robots.txt's user-agent token of a User-Agent header: its first word, before any `/` ("VelaBot/1.0 (...)" → "VelaBot"). */
export function robotsAgent(userAgent: string): string {
  return userAgent.trim().split(/[\s/]/)[0] || '*';
}

/**
 * robots.txt per origin, fetched once per run. Found: its groups for our agent (else `*`), Allow and
 * Disallow by longest match, Crawl-delay and Sitemap lines. Missing (4xx): everything allowed
 * (RFC 9309). Unreachable (5xx, network): nothing may be fetched from that origin this run, and pages
 * there become read errors, so the run is not complete and deletes nothing.
 */
export class RobotsCache {
  private readonly byOrigin = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly agent: string,
    private readonly get: (url: string) => Promise<Fetched>,
  ) {}

  for(origin: string): Promise<RobotsRules> {
    let rules = this.byOrigin.get(origin);
    if (!rules) {
      rules = this.load(origin);
      this.byOrigin.set(origin, rules);
    }
    return rules;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const url = `${origin}/robots.txt`;
    let response = await this.get(url);
    // robots.txt may redirect (http → https, to a www host): follow a few hops, as RFC 9309 asks.
    for (let hops = 0; response.status >= 300 && response.status < 400 && response.headers.get('location') && hops < 5; hops++) {
      await response.discard();
      response = await this.get(new URL(response.headers.get('location')!, response.url).href);
    }
    if (response.status >= 400 && response.status < 500) {
      await response.discard();
      return ALLOW_ALL;
    }
    if (response.status < 200 || response.status >= 300) {
      await response.discard();
      throw new Error(`robots.txt of ${origin} answered HTTP ${response.status}: nothing is fetched from that host until it answers`);
    }
    const text = new TextDecoder().decode(await response.bytes(MAX_ROBOTS_BYTES));
    const robots = parseRobots(url, text);
    const delay = robots.getCrawlDelay(this.agent);
    return {
      allows: (pageUrl) => robots.isAllowed(pageUrl, this.agent) !== false,
      ...(typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? { crawlDelayMs: Math.round(delay * 1000) } : {}),
      sitemaps: robots.getSitemaps(),
    };
  }
}
