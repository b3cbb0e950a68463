import { type Database, toIso, toMillis } from 'vela/plugin';
import type { SearchRecord } from './metrics-recorder.js';
import type { Span } from './periods.js';
import { MAX_TERM_LENGTH, sanitizeTerm, userKey } from './search-term.js';

const TABLE = 'search_metrics_searches';

interface SearchRow {
  site_id: string;
  locale: string;
  term: string;
  sanitized_term: string;
  user_id: string | null;
  num_found: number | string;
  searched_at: number | string;
}

/** A term of a report: how often it was searched, with how many hits on average, and when last. */
export interface TermCount {
  term: string;
  count: number;
  averageHits: number;
  lastSearchedAt: string;
}

/** One recorded search, newest first in the live view. */
export interface RecordedSearch {
  term: string;
  locale: string;
  userId: string | null;
  numFound: number;
  searchedAt: string;
}

type Query = ReturnType<Database>;

const within = (query: Query, span: Span): Query => {
  if (span.from !== null) query.where('searched_at', '>=', span.from);
  if (span.to !== null) query.where('searched_at', '<', span.to);
  return query;
};

/** A searched_at column (epoch milliseconds; PostgreSQL's bigint arrives as a string) as the API shows it. */
const iso = (ms: unknown) => toIso(toMillis(ms));

/** The metrics table: batch inserts from the recorder, and the reports (grouped by the sanitized term). */
export class MetricsStore {
  constructor(private readonly db: Database) {}

  async insert(records: SearchRecord[]): Promise<void> {
    await this.db(TABLE).insert(
      records.map((r) => ({
        site_id: r.siteId,
        locale: r.locale,
        term: r.term.slice(0, MAX_TERM_LENGTH),
        sanitized_term: sanitizeTerm(r.term),
        user_id: r.userId === null ? null : userKey(r.userId),
        num_found: r.numFound,
        searched_at: r.at,
      })),
    );
  }

  /** The user's distinct terms, newest first; with `prefix`, only terms that start with it (sanitized). */
  async latest(siteId: string, locale: string, userId: string, rows: number, prefix: string | null): Promise<string[]> {
    const query = this.db(TABLE)
      .select('sanitized_term')
      .max({ last: 'searched_at', lastId: 'id' })
      .where({ site_id: siteId, locale, user_id: userKey(userId) })
      .groupBy('sanitized_term')
      // Searches within one millisecond keep the order they were recorded in (ids follow the queue).
      .orderBy('last', 'desc')
      .orderBy('lastId', 'desc')
      .limit(rows);
    const start = prefix === null ? '' : sanitizeTerm(prefix);
    // LIKE with the pattern characters escaped ('!' as the escape: no backslash rules differ between databases).
    if (start) query.whereRaw(`sanitized_term like ? escape '!'`, [`${start.replace(/[!%_]/g, '!$&')}%`]);
    const rowsFound = (await query) as Array<{ sanitized_term: string }>;
    return rowsFound.map((r) => r.sanitized_term);
  }

  /** Terms by how often they were searched in the span (most first); `zeroOnly`: searches that found nothing. */
  async terms(siteId: string, span: Span, rows: number, zeroOnly: boolean): Promise<TermCount[]> {
    const query = within(this.db(TABLE).where({ site_id: siteId }), span)
      .select('sanitized_term')
      .count({ count: '*' })
      .avg({ hits: 'num_found' })
      .max({ last: 'searched_at' })
      .groupBy('sanitized_term')
      .orderBy('count', 'desc')
      .orderBy('last', 'desc')
      .limit(rows);
    if (zeroOnly) query.where('num_found', 0);
    const found = (await query) as Array<{
      sanitized_term: string;
      count: number | string;
      hits: number | string;
      last: number | string;
    }>;
    return found.map((r) => ({
      term: r.sanitized_term,
      count: Number(r.count),
      averageHits: Math.round(Number(r.hits) * 100) / 100,
      lastSearchedAt: iso(r.last),
    }));
  }

  /** Searches recorded in the span, and how many of them found nothing. */
  async totals(siteId: string, span: Span): Promise<{ searches: number; zeroResults: number }> {
    const row = (await within(this.db(TABLE).where({ site_id: siteId }), span)
      .select(
        this.db.raw('count(*) as searches'),
        this.db.raw('sum(case when num_found = 0 then 1 else 0 end) as zero'),
      )
      .first()) as { searches: number | string; zero: number | string | null } | undefined;
    return { searches: Number(row?.searches ?? 0), zeroResults: Number(row?.zero ?? 0) };
  }

  /** The newest searches of a site. */
  async recent(siteId: string, rows: number): Promise<RecordedSearch[]> {
    const found = (await this.db(TABLE)
      .select('term', 'locale', 'user_id', 'num_found', 'searched_at')
      .where({ site_id: siteId })
      .orderBy('searched_at', 'desc')
      .orderBy('id', 'desc')
      .limit(rows)) as SearchRow[];
    return found.map((r) => ({
      term: r.term,
      locale: r.locale,
      userId: r.user_id,
      numFound: Number(r.num_found),
      searchedAt: iso(r.searched_at),
    }));
  }

  async deleteSite(siteId: string): Promise<void> {
    await this.db(TABLE).where({ site_id: siteId }).delete();
  }
}
