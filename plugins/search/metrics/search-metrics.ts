import type { Database, Logger } from 'vela/plugin';
import type { SearchParams } from '../query/search-params.js';
import type { SiteStore } from '../store/site-store.js';
import { MetricsRecorder, type RecorderOptions, type RecorderStats } from './metrics-recorder.js';
import { MetricsStore, type RecordedSearch, type TermCount } from './metrics-store.js';
import { type Period, periodSpans, type Span } from './periods.js';

export interface MetricsConfig extends RecorderOptions {
  /** false: nothing is recorded (the reports and latest searches answer from what is stored). */
  enabled: boolean;
}

export interface TermsReport {
  period: Period;
  /** Where the period starts (null: all time), in UTC. */
  from: string | null;
  /** Searches recorded in the period, and in the period before it (null for all time). */
  searches: number;
  previousPeriodSearches: number | null;
  terms: TermCount[];
}

export interface LiveReport {
  now: string;
  searchesLastMinute: number;
  searchesLastHour: number;
  searchesToday: number;
  zeroResultsToday: number;
  latest: RecordedSearch[];
  recorder: RecorderStats;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Search metrics: what the search routes record (off the request path, through the recorder), and the
 * reports read from the stored rows. Readers flush the queue first, so a report or a user's latest
 * searches include what this process was just asked.
 */
export class SearchMetrics {
  readonly store: MetricsStore;
  private readonly recorder: MetricsRecorder;

  constructor(
    db: Database,
    private readonly sites: SiteStore,
    private readonly config: MetricsConfig,
    logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.store = new MetricsStore(db);
    this.recorder = new MetricsRecorder((records) => this.store.insert(records), config, logger);
    sites.onChange(async (change) => {
      if (change.kind !== 'site-deleted') return;
      this.recorder.forgetSite(change.siteId);
      await this.store.deleteSite(change.siteId);
    });
  }

  /**
   * Called by a REST search after it answered: a search whose q is not `*` is queued, unless its POST body
   * set populateMetrics to false. Costs a site lookup in memory and an array push.
   */
  recordSearch(siteName: string, params: SearchParams, numFound: number): void {
    // The search settles the locale it ran in (a request may leave it out); without one there is nothing to record.
    if (!this.config.enabled || !params.populateMetrics || params.q.trim() === '*' || !params.locale) return;
    const config = this.sites.find(siteName);
    if (!config) return;
    this.recorder.record({ siteId: config.site.id, locale: params.locale, term: params.q, userId: params.userId, numFound, at: this.clock() });
  }

  start(): void {
    if (this.config.enabled) this.recorder.start();
  }

  stop(): Promise<void> {
    return this.recorder.stop();
  }

  flush(): Promise<void> {
    return this.recorder.flush();
  }

  async latest(siteId: string, locale: string, userId: string, rows: number, prefix: string | null): Promise<string[]> {
    await this.recorder.flush();
    return this.store.latest(siteId, locale, userId, rows, prefix);
  }

  async terms(siteId: string, period: Period, rows: number, zeroOnly: boolean): Promise<TermsReport> {
    await this.recorder.flush();
    const { current, previous } = periodSpans(period, this.clock());
    const [terms, totals, before] = await Promise.all([
      this.store.terms(siteId, current, rows, zeroOnly),
      this.store.totals(siteId, current),
      previous ? this.store.totals(siteId, previous) : null,
    ]);
    const count = (t: { searches: number; zeroResults: number }) => (zeroOnly ? t.zeroResults : t.searches);
    return { period, from: iso(current.from), searches: count(totals), previousPeriodSearches: before ? count(before) : null, terms };
  }

  async live(siteId: string, rows: number): Promise<LiveReport> {
    await this.recorder.flush();
    const now = this.clock();
    const since = (ms: number): Span => ({ from: now - ms, to: null });
    const today = periodSpans('today', now).current;
    const [minute, hour, day, latest] = await Promise.all([
      this.store.totals(siteId, since(60_000)),
      this.store.totals(siteId, since(3_600_000)),
      this.store.totals(siteId, today),
      this.store.recent(siteId, rows),
    ]);
    return {
      now: new Date(now).toISOString(),
      searchesLastMinute: minute.searches,
      searchesLastHour: hour.searches,
      searchesToday: day.searches,
      zeroResultsToday: day.zeroResults,
      latest,
      recorder: this.recorder.stats(),
    };
  }
}
