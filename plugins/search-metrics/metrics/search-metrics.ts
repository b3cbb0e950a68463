import type { SearchedEvent } from '@vela/plugin-search/api';
import type { Database, Logger } from 'vela/plugin';
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
 * Search metrics: the searches the search service answers (told through search.searched, recorded off the
 * request path by the recorder), and the reports read from the stored rows. Readers flush the queue first, so a report or a user's latest
 * searches include what this process was just asked.
 */
export class SearchMetrics {
  readonly store: MetricsStore;
  private readonly recorder: MetricsRecorder;

  constructor(
    db: Database,
    private readonly config: MetricsConfig,
    logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.store = new MetricsStore(db);
    this.recorder = new MetricsRecorder((records) => this.store.insert(records), config, logger);
  }

  /**
   * A REST search the search service answered: one whose q is not `*` is queued, unless its POST body set
   * populateMetrics to false. Runs on the request path, so it costs an array push.
   */
  record({ site, params, count }: SearchedEvent): void {
    // The search settles the locale it ran in (a request may leave it out); without one there is nothing to record.
    if (!this.config.enabled || !params.populateMetrics || params.q.trim() === '*' || !params.locale) return;
    this.recorder.record({
      siteId: site.id,
      locale: params.locale,
      term: params.q,
      userId: params.userId,
      numFound: count,
      at: this.clock(),
    });
  }

  /** A deleted site's searches go, queued and stored. */
  async forgetSite(siteId: string): Promise<void> {
    this.recorder.forgetSite(siteId);
    await this.store.deleteSite(siteId);
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
    return {
      period,
      from: iso(current.from),
      searches: count(totals),
      previousPeriodSearches: before ? count(before) : null,
      terms,
    };
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
