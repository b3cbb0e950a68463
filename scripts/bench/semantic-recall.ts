// The ANN index of the semantic plugin against exact search, on the vectors the plugin stored for a site: both
// indexes built from the stored passages, the same queries asked of each, the ANN's share of the exact top ten
// (tie-aware, as scripts/bench/vector-index.ts measures it).
import { performance } from 'node:perf_hooks';
import type { TextEmbedder } from '@vela/embedding';
import type { VectorStore } from '../../plugins/semantic/store/vector-store.js';
import { createVectorIndex } from '../../plugins/semantic/vector-index/index.js';
import { percentile } from './stats.js';

export interface RecallResult {
  passages: number;
  dimensions: number;
  queries: number;
  /** Tie-aware: an ANN hit counts when it scores at least the exact tenth score (many packages share their text). */
  recallAt10: number;
  /** The share of the exact top ten's very keys the ANN returned. */
  strictRecallAt10: number;
  annBuildMs: number;
  /** RSS growth while the ANN index was built, per 100,000 vectors (the vectors read were held before). */
  annRssPer100kMb: number;
  annP50Ms: number;
  exactP50Ms: number;
  /** The ANN's p50 for as many passages as a hybrid or vector search of `window` documents asks it for. */
  windowK: number;
  annWindowP50Ms: number;
}

const K = 10;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

function p50(times: number[]): number {
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

/** Builds an exact and an ANN index from the stored passages of one model, and asks both every embedded query. */
export async function annRecall(
  store: VectorStore,
  scope: { siteId: string; locale: string; modelKey: string },
  embedder: TextEmbedder,
  queryTexts: string[],
  window: number,
): Promise<RecallResult> {
  const passages: Array<{ key: string; vector: Float32Array }> = [];
  const byKey = new Map<string, Float32Array>();
  for await (const page of store.scan(scope.siteId, scope.locale, scope.modelKey))
    for (const p of page) {
      const key = `${p.docId}#${p.passage}`;
      passages.push({ key, vector: p.vector });
      byKey.set(key, p.vector);
    }
  const dimensions = passages[0]!.vector.length;

  gc();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const ann = createVectorIndex(dimensions);
  for (const p of passages) ann.upsert(p.key, p.vector);
  const annBuildMs = performance.now() - started;
  gc();
  const annRss = process.memoryUsage().rss - rssBefore;
  const exact = createVectorIndex(dimensions, { kind: 'exact' });
  for (const p of passages) exact.upsert(p.key, p.vector);

  const vectors = queryTexts.map((text) => embedder.embed(text)).filter((v): v is Float32Array => v !== null);
  let found = 0;
  let tied = 0;
  let wanted = 0;
  const annTimes: number[] = [];
  const exactTimes: number[] = [];
  const windowTimes: number[] = [];
  // As plugins/semantic/retrieval/held-index.ts asks: twice the window's worth of passages, and 8.
  const documents = new Set(passages.map((p) => p.key.slice(0, p.key.lastIndexOf('#')))).size;
  const windowK = Math.ceil(window * (passages.length / documents) * 2) + 8;
  for (const vector of vectors) {
    let t0 = performance.now();
    const truth = exact.search(vector, K);
    exactTimes.push(performance.now() - t0);
    t0 = performance.now();
    const approximate = new Set(ann.search(vector, K).map((m) => m.key));
    annTimes.push(performance.now() - t0);
    t0 = performance.now();
    ann.search(vector, windowK);
    windowTimes.push(performance.now() - t0);
    wanted += truth.length;
    found += truth.filter((m) => approximate.has(m.key)).length;
    const kth = dot(vector, byKey.get(truth[truth.length - 1]!.key)!);
    tied += Math.min(truth.length, [...approximate].filter((key) => dot(vector, byKey.get(key)!) >= kth - 1e-5).length);
  }
  return {
    passages: passages.length,
    dimensions,
    queries: vectors.length,
    recallAt10: tied / Math.max(1, wanted),
    strictRecallAt10: found / Math.max(1, wanted),
    annBuildMs,
    annRssPer100kMb: (annRss / 2 ** 20) * (100_000 / passages.length),
    annP50Ms: p50(annTimes),
    exactP50Ms: p50(exactTimes),
    windowK,
    annWindowP50Ms: p50(windowTimes),
  };
}
