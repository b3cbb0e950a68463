import * as robotsParserModule from 'robots-parser';
import { type Fetched, PageTooLargeError } from './http-fetch.js';

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

/**
 * robots.txt's user-agent token of a User-Agent header: its first word, before any `/` ("VelaBot/1.0 (...)" →
 * "VelaBot").
 */
export function robotsAgent(userAgent: string): string {
  return userAgent.trim().split(/[\s/]/)[0] || '*';
}

/** Redirects of a robots.txt followed before it counts as unavailable (RFC 9309 §2.3.1.2: at least five). */
const MAX_ROBOTS_REDIRECTS = 5;

/** Why a host's pages are not fetched: its robots.txt is unreachable, which RFC 9309 reads as "disallow all". */
export class RobotsUnreachable extends Error {
  constructor(
    readonly origin: string,
    readonly reason: string,
  ) {
    super(
      `not fetched: robots.txt of ${origin} is unreachable (${reason}); as RFC 9309 asks, nothing is fetched from that host this run`,
    );
  }
}

/**
 * robots.txt per origin, fetched once per run, as RFC 9309 §2.3.1 says. Found (2xx): its groups for our agent
 * (else `*`), Allow and Disallow by longest match, Crawl-delay and Sitemap lines. Redirects are followed, five at
 * most (across hosts too, each hop through the outbound guard); more is "unavailable". Unavailable (4xx):
 * everything allowed. Unreachable (5xx, no answer, or an address the outbound guard refuses, directly or by a
 * redirect): complete disallow, so nothing is fetched from that origin this run; its pages become read errors
 * saying why, so the run is not complete and de-indexes nothing, and `onNote` tells the run once per origin.
 */
export class RobotsCache {
  private readonly byOrigin = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly agent: string,
    private readonly get: (url: string) => Promise<Fetched>,
    private readonly onNote: (message: string) => void = () => {},
  ) {}

  for(origin: string): Promise<RobotsRules> {
    let rules = this.byOrigin.get(origin);
    if (!rules) {
      rules = this.load(origin).catch((error: unknown) => {
        if (error instanceof RobotsUnreachable)
          this.onNote(`${error.message} (its pages are recorded as errors, so nothing is de-indexed)`);
        throw error;
      });
      this.byOrigin.set(origin, rules);
    }
    return rules;
  }

  private async load(origin: string): Promise<RobotsRules> {
    const url = `${origin}/robots.txt`;
    let target = url;
    let response: Fetched;
    for (let hops = 0; ; hops++) {
      try {
        response = await this.get(target);
      } catch (error) {
        const why = (error as Error).message;
        throw new RobotsUnreachable(origin, target === url ? why : `its redirect to ${target}: ${why}`);
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) break;
      await response.discard();
      if (hops === MAX_ROBOTS_REDIRECTS) {
        this.onNote(
          `robots.txt of ${origin} redirects more than ${MAX_ROBOTS_REDIRECTS} times: taken as unavailable (RFC 9309), so every page of that host may be fetched`,
        );
        return ALLOW_ALL;
      }
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        throw new RobotsUnreachable(
          origin,
          `it redirects to ${JSON.stringify(location.slice(0, 200))}, which is no URL`,
        );
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw new RobotsUnreachable(origin, `it redirects to a ${next.protocol} URL, which is not fetched`);
      target = next.href;
    }
    if (response.status >= 400 && response.status < 500) {
      await response.discard();
      return ALLOW_ALL;
    }
    if (response.status < 200 || response.status >= 300) {
      await response.discard();
      throw new RobotsUnreachable(
        origin,
        target === url ? `HTTP ${response.status}` : `its redirect to ${target} answered HTTP ${response.status}`,
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = await response.bytes(MAX_ROBOTS_BYTES);
    } catch (error) {
      throw new RobotsUnreachable(
        origin,
        error instanceof PageTooLargeError ? `it is larger than ${MAX_ROBOTS_BYTES} bytes` : (error as Error).message,
      );
    }
    const robots = parseRobots(url, new TextDecoder().decode(bytes));
    const delay = robots.getCrawlDelay(this.agent);
    return {
      allows: (pageUrl) => robots.isAllowed(pageUrl, this.agent) !== false,
      ...(typeof delay === 'number' && Number.isFinite(delay) && delay > 0
        ? { crawlDelayMs: Math.round(delay * 1000) }
        : {}),
      sitemaps: robots.getSitemaps(),
    };
  }
}
