// How the relevance benchmark judges a system's answers to known-item queries.
import type { KnownItemQuery } from './relevance-queries.js';
import type { RankedHit, RankingSystem } from './relevance-systems.js';

/** The cut-off of every measure: a user looks at the first page. */
export const TOP = 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Where the target came (1-based) in a system's top ten, and whether a neighbour there has its very score. */
export interface Judged {
  position: number | null;
  tied: boolean;
}

export function judge(hits: RankedHit[], target: number): Judged {
  const at = hits.slice(0, TOP).findIndex((hit) => hit.id === target);
  if (at < 0) return { position: null, tied: false };
  const score = hits[at]!.score;
  // Hits come sorted by score, so a tie is with a neighbour; the hit after the tenth is fetched for the edge.
  return { position: at + 1, tied: hits[at - 1]?.score === score || hits[at + 1]?.score === score };
}

export async function rankAll(system: RankingSystem, queries: KnownItemQuery[]): Promise<Judged[]> {
  const judged: Judged[] = [];
  for (const q of queries) judged.push(judge(await system.ranked(q.text, TOP + 1), q.target));
  return judged;
}

/** MRR@10, success@1 and success@10 over every query (a missed target counts 0), and the targets that tie. */
export function quality(judged: Judged[]) {
  const n = judged.length;
  const found = judged.filter((j) => j.position !== null);
  return {
    queries: n,
    mrrAt10: round3(found.reduce((sum, j) => sum + 1 / j.position!, 0) / n),
    successAt1: round3(found.filter((j) => j.position === 1).length / n),
    successAt10: round3(found.length / n),
    targetTies: found.filter((j) => j.tied).length,
  };
}

/**
 * Queries whose target lands elsewhere (or in or out of the top ten) when the same documents were indexed in
 * reverse order, so that equal scores break the other way round.
 */
export const orderSensitive = (forward: Judged[], reversed: Judged[]) =>
  forward.filter((j, i) => j.position !== reversed[i]!.position).length;
