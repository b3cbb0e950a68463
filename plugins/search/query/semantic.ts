import { httpErrors } from 'vela/plugin';
import type { SemanticContext, SemanticMode, VectorMatch, VectorRetriever } from '../api.js';
import type { EngineQuery, RankedCandidate } from '../engine/search-engine.js';
import type { SearchPlan } from './plan.js';

/**
 * The `semantic` parameter: how a search finds its documents. `keyword` is the text index alone; `hybrid` fuses its
 * best documents with the ones nearest in meaning (the vector retriever's) by reciprocal rank fusion; `vector` takes
 * the nearest alone. Either way the candidates then go through one engine query (EngineQuery.ranked), so filters,
 * facets, sorts, spotlights, paging and groups work as for any search. See docs/search-reference.md, "Semantic search".
 */
export const SEMANTIC_MODES: readonly SemanticMode[] = ['keyword', 'hybrid', 'vector'];

export const NO_RETRIEVER = 'no plugin keeps vectors (semantic)';
export const NOTHING_TO_EMBED = 'the query is * (every document): there is no text to search by meaning';
/** The most documents each side may contribute, whatever the retriever's window: a page of a search at most. */
const MAX_WINDOW = 1000;

/** A `semantic` value as sent (any case; empty or absent: keyword); anything else is a 400 naming the parameter. */
export function parseSemanticMode(name: string, value: string | null | undefined): SemanticMode {
  const mode = (value ?? '').trim().toLowerCase() || 'keyword';
  if ((SEMANTIC_MODES as readonly string[]).includes(mode)) return mode as SemanticMode;
  throw httpErrors.invalidParameter(name, `must be keyword, hybrid or vector, got ${JSON.stringify(value)}`);
}

/** What a search runs: the candidates of a hybrid or vector search, or null to search by keyword as ever. */
export interface SemanticPlan {
  readonly context: SemanticContext;
  readonly ranked: RankedCandidate[] | null;
}

/**
 * The candidates the request's mode finds, best first, or (keyword asked, or a mode that cannot run now) null with
 * the reason in the context. `keywordQuery` is the search's own engine query: its text and filters make the keyword
 * side of a hybrid search.
 */
export async function semanticCandidates(
  plan: SearchPlan,
  retriever: VectorRetriever | null,
  keywordQuery: EngineQuery,
): Promise<SemanticPlan> {
  const requested = plan.request.semantic;
  if (requested === 'keyword') return byKeyword(requested);
  const text = plan.text;
  if (text === null) return byKeyword(requested, NOTHING_TO_EMBED);
  if (!retriever) return byKeyword(requested, NO_RETRIEVER);
  const siteId = plan.config.site.id;
  const status = retriever.status(siteId, plan.locale);
  if (!status.ready) return byKeyword(requested, status.reason);
  const window = Math.max(1, Math.min(MAX_WINDOW, Math.floor(status.window) || 1));
  let nearest: VectorMatch[];
  try {
    nearest = await retriever.nearest(siteId, plan.locale, text, window);
  } catch (error) {
    // The keyword answer is still an answer: a model server away must not fail the search.
    return byKeyword(requested, `the vectors could not be searched: ${(error as Error).message}`);
  }
  const near = nearest.slice(0, window).filter((match) => Number.isFinite(match.score));
  if (requested === 'vector')
    return { context: { requested, mode: 'vector', window }, ranked: near.map(({ id, score }) => ({ id, score })) };
  const { group: _group, ...ungrouped } = keywordQuery;
  const keyword = await plan.engine.query({
    ...ungrouped,
    facets: [],
    sort: { by: 'relevance' },
    offset: 0,
    limit: window,
  });
  const rrfK = Number.isFinite(status.rrfK) && status.rrfK >= 0 ? status.rrfK : 60;
  return {
    context: { requested, mode: 'hybrid', rrfK, window },
    ranked: fuseByRank([keyword.hits.map((hit) => hit.id), near.map((match) => match.id)], rrfK),
  };
}

function byKeyword(requested: SemanticMode, reason?: string): SemanticPlan {
  return { context: reason ? { requested, mode: 'keyword', reason } : { requested, mode: 'keyword' }, ranked: null };
}

/**
 * Reciprocal rank fusion: each document scores Σ 1 / (k + rank) over the lists it is in (rank from 1; a list
 * naming it twice counts its first place), best first. Ties go to the better place, then to the earlier list.
 */
export function fuseByRank(lists: ReadonlyArray<readonly string[]>, k: number): RankedCandidate[] {
  const scores = new Map<string, number>();
  const counted = lists.map(() => new Set<string>());
  const longest = lists.reduce((most, list) => Math.max(most, list.length), 0);
  // Rank by rank across the lists, so a document's first appearance orders the ties (the sort below is stable).
  for (let rank = 1; rank <= longest; rank++) {
    lists.forEach((list, l) => {
      const id = list[rank - 1];
      if (id === undefined || counted[l]!.has(id)) return;
      counted[l]!.add(id);
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank));
    });
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
