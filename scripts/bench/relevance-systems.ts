// The systems the relevance benchmark ranks with: each answers a query with its best hits and their scores.
import { tokenize } from '@vela/search-text';
import MiniSearch from 'minisearch';
import type { SearchEngine } from '../../plugins/search/engine/search-engine.js';
import type { CorpusDocument } from './search-corpus.js';

/** A hit and the score its system ranked it by (only compared for equality: the direction is the system's). */
export interface RankedHit {
  id: number;
  score: number;
}

export interface RankingSystem {
  readonly name: string;
  /** The best `limit` hits of a query, best first: every word must match (AND), as in all three systems. */
  ranked(text: string, limit: number): Promise<RankedHit[]>;
}

/**
 * The fields the peers index, the same text as the search service indexes for a Debian package (every text
 * and string attribute, see plugins/search/query/indexable.ts): the name, the title (the short description),
 * the long description, and the rest (section, arch, priority, maintainer, version, tags) as one field.
 */
export interface RelevanceFields {
  name: string;
  title: string;
  body: string;
  meta: string;
}

/** Per-field weights of the peers: the name and the title above the long description and the rest. */
export const FIELD_WEIGHTS: Readonly<Record<keyof RelevanceFields, number>> = { name: 2, title: 2, body: 1, meta: 1 };

export function relevanceFields(d: CorpusDocument): RelevanceFields {
  return {
    name: d.name,
    title: d.title,
    body: d.body,
    meta: [d.section, d.arch, d.priority, d.maintainer, d.version, ...d.tags].join(' '),
  };
}

/** The search service's engine of a site, as built: a hit's `rank`, which orders the hits, is its score. */
export class VelaEngineRanking implements RankingSystem {
  constructor(
    readonly name: string,
    private readonly engine: () => SearchEngine,
  ) {}

  async ranked(text: string, limit: number): Promise<RankedHit[]> {
    const result = await this.engine().query({
      text,
      filter: { and: [], or: [] },
      facets: [],
      sort: { by: 'relevance' },
      offset: 0,
      limit,
    });
    return result.hits.map((hit) => ({ id: Number(hit.id), score: hit.rank }));
  }
}

/** minisearch's BM25+ over the same four fields, boosted as FIELD_WEIGHTS, words tokenised as Vela's engine does. */
export class MiniSearchRanking implements RankingSystem {
  readonly name = 'minisearch';
  private readonly index = new MiniSearch<RelevanceFields & { id: number }>({
    fields: Object.keys(FIELD_WEIGHTS),
    tokenize,
    processTerm: (term) => term,
    searchOptions: { boost: { ...FIELD_WEIGHTS }, combineWith: 'AND' },
  });

  build(documents: CorpusDocument[]): void {
    this.index.addAll(documents.map((d) => ({ id: d.id, ...relevanceFields(d) })));
  }

  async ranked(text: string, limit: number): Promise<RankedHit[]> {
    return this.index
      .search(text)
      .slice(0, limit)
      .map((result) => ({ id: result.id as number, score: result.score }));
  }
}
