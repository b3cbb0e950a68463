import {
  allRefused,
  type JobItem,
  refusedByIndex,
  SearchServiceError,
  type SearchTarget,
  type SiteDefinition,
} from './search-target.js';

export interface HttpTargetOptions {
  url: string;
  key: string | null;
  timeoutMs: number;
}

interface ImportAnswer {
  rejected?: Array<{ index: number; reason: string }>;
}

const PAGE = 1000;
const SITE_CHECK_MS = 5000;

/** A search service elsewhere: POST /api/sn/import with the Key header and the turingDocuments body. */
export class HttpTarget implements SearchTarget {
  readonly mode = 'http' as const;
  private readonly base: string;
  /** The base as messages (logs, run statistics) show it: without user info, which may hold a password. */
  private readonly shown: string;

  constructor(private readonly options: HttpTargetOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.shown = this.base.replace(/^(https?:\/\/)[^/?#]*@/i, '$1***@');
  }

  async send(items: JobItem[], wait: boolean): Promise<Map<number, string>> {
    const res = await this.call('POST', `/api/sn/import${wait ? '?wait=true' : ''}`, { turingDocuments: items });
    // Every item was refused: the answer holds each item's reasons (`rejected`), its message the first ones.
    if (res.status === 400) {
      const refusal = await this.refusal(res);
      return allRefused(items, refusal.message, refusal.rejected);
    }
    if (res.status !== 200)
      throw new SearchServiceError(
        `the search service at ${this.shown} answered ${res.status} to the import: ${await this.message(res)}`,
      );
    return refusedByIndex(((await res.json()) as ImportAnswer).rejected ?? []);
  }

  async *listIds(site: string, locale: string): AsyncIterable<string[]> {
    for (let page = 1; ; page++) {
      const res = await this.call(
        'GET',
        `/api/sn/${encodeURIComponent(site)}/search?q=*&_setlocale=${encodeURIComponent(locale)}&fl=id&rows=${PAGE}&p=${page}`,
      );
      if (res.status === 404) return;
      if (res.status !== 200)
        throw new SearchServiceError(
          `the search service at ${this.shown} answered ${res.status} listing site "${site}": ${await this.message(res)}`,
        );
      const body = (await res.json()) as { results?: { document?: Array<{ fields?: { id?: unknown } }> } };
      const ids = (body.results?.document ?? []).map((d) => String(d.fields?.id ?? '')).filter(Boolean);
      if (ids.length > 0) yield ids;
      if (ids.length < PAGE) return;
    }
  }

  async siteLocales(name: string): Promise<string[] | null> {
    // Asked while a source is being saved: a search service that hangs must not hold that request for long.
    const res = await this.call(
      'GET',
      `/api/sn/${encodeURIComponent(name)}`,
      undefined,
      Math.min(this.options.timeoutMs, SITE_CHECK_MS),
    );
    if (res.status === 404) return null;
    if (res.status !== 200)
      throw new SearchServiceError(
        `the search service at ${this.shown} answered ${res.status} reading site "${name}": ${await this.message(res)}`,
      );
    const site = (await res.json()) as { locales?: unknown };
    return Array.isArray(site.locales) ? site.locales.map(String) : [];
  }

  async ensureSite(definition: SiteDefinition): Promise<boolean> {
    const existing = await this.call('GET', `/api/sn/${encodeURIComponent(definition.name)}`);
    if (existing.status === 200) return false;
    const created = await this.call('POST', '/api/sn', definition);
    if (created.status === 409) return false;
    if (created.status !== 201)
      throw new SearchServiceError(
        `the search service at ${this.shown} answered ${created.status} creating site "${definition.name}": ${await this.message(created)}`,
      );
    return true;
  }

  private async call(
    method: string,
    pathname: string,
    body?: unknown,
    timeoutMs = this.options.timeoutMs,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.key) headers.key = this.options.key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(`${this.base}${pathname}`, {
        method,
        headers,
        // JSON as bytes, not a string: fetch would scan a string for lone surrogates (JSON.stringify leaves none)
        // and copy it twice on its way out, which for a batch of documents showed in a full run's profile.
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new SearchServiceError(
        `the search service at ${this.shown} cannot be reached: ${(error as Error).message.split(this.base).join(this.shown)}`,
      );
    }
  }

  /** A 400's message and, from a search service that sends them, each item's reasons. */
  private async refusal(res: Response): Promise<{ message: string; rejected?: ImportAnswer['rejected'] }> {
    const text = await res.text();
    try {
      const parsed = JSON.parse(text) as { message?: unknown; rejected?: unknown };
      return {
        message: typeof parsed.message === 'string' ? parsed.message : text.slice(0, 500),
        ...(Array.isArray(parsed.rejected) ? { rejected: parsed.rejected as ImportAnswer['rejected'] } : {}),
      };
    } catch {
      return { message: text.slice(0, 500) };
    }
  }

  private async message(res: Response): Promise<string> {
    const text = await res.text();
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      return typeof parsed.message === 'string' ? parsed.message : text.slice(0, 500);
    } catch {
      return text.slice(0, 500);
    }
  }
}
