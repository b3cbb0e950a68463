/**
 * Search engine benchmark: our MemoryEngine against minisearch and Orama on the Debian corpus, in one
 * process, one system at a time (built, measured, dropped).
 *
 *   node --expose-gc --import tsx scripts/bench/search-engine.ts [corpus.jsonl.gz]
 *
 * Default corpus: ../shared/corpus/debian.jsonl.gz from the project root. Without --expose-gc the heap
 * figures are left out (null). For each system it prints one JSON line
 *   {system, indexMs, heapMB, p50Ms, p90Ms, p99Ms, avgHits}
 * for 500 seeded two-word queries, each with one filter (arch=all or a section) and counts of every value of
 * section, arch and tags over all hits; then a line checking our totals and counts against a brute-force
 * scan, a snapshot line, and a ratio line (peer ÷ ours; above 1 means we are faster or smaller).
 */
import os from 'node:os';
import path from 'node:path';
import { tokenize } from '@vela/search-text';
import { memoryEngineFactory } from '../../plugins/search/engine/memory-engine.js';
import type { SearchEngine } from '../../plugins/search/engine/search-engine.js';
import { packageRoot } from '../../runtime/paths.js';
import { printGoal } from './goal.js';
import { type BenchQuery, type CorpusDocument, loadCorpus, makeQueries, searchableText } from './search-corpus.js';
import {
  type BenchSystem,
  engineQuery,
  FACET_FIELDS,
  MiniSearchSystem,
  OramaSystem,
  VelaSystem,
} from './search-systems.js';

const QUERIES = 500;
const WARMUP = 50;
const SEED = 20261122;
const CHECKED = 60;

interface Measurement {
  system: string;
  indexMs: number;
  heapMB: number | null;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  avgHits: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Live heap after letting pending callbacks finish and collecting twice (weak refs need a second pass),
 * typed arrays' contents included: V8 keeps those outside `heapUsed` (in `arrayBuffers`), and the engine
 * keeps nearly all its data in typed arrays.
 */
async function heapUsed(): Promise<number | null> {
  if (!gc) return null;
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  gc();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

async function measure(system: BenchSystem, documents: CorpusDocument[], queries: BenchQuery[]): Promise<Measurement> {
  const before = await heapUsed();
  const started = performance.now();
  await system.build(documents);
  const indexMs = performance.now() - started;
  const after = await heapUsed();
  for (const query of queries.slice(0, WARMUP)) await system.run(query);
  const times: number[] = [];
  let hits = 0;
  for (const query of queries) {
    const t0 = performance.now();
    const answer = system.run(query);
    hits += typeof answer === 'number' ? answer : await answer;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    system: system.name,
    indexMs: Math.round(indexMs),
    heapMB: before === null || after === null ? null : round((after - before) / 1048576, 1),
    p50Ms: round(percentile(times, 50), 3),
    p90Ms: round(percentile(times, 90), 3),
    p99Ms: round(percentile(times, 99), 3),
    avgHits: round(hits / queries.length, 1),
  };
}

/** Expected total and facet counts of each query, from one scan over every document. */
function bruteForce(
  documents: CorpusDocument[],
  queries: BenchQuery[],
): Array<{ total: number; facets: Record<string, Map<string, number>> }> {
  const expected = queries.map(() => ({
    total: 0,
    facets: Object.fromEntries(FACET_FIELDS.map((f) => [f, new Map<string, number>()])),
  }));
  for (const document of documents) {
    const terms = new Set(tokenize(searchableText(document)));
    queries.forEach((query, i) => {
      if (!query.words.every((word) => terms.has(word)) || document[query.filter.field] !== query.filter.value) return;
      const out = expected[i]!;
      out.total++;
      for (const field of FACET_FIELDS) {
        for (const value of field === 'tags' ? document.tags : [document[field]])
          out.facets[field]!.set(value, (out.facets[field]!.get(value) ?? 0) + 1);
      }
    });
  }
  return expected;
}

/** Our totals and counts on a sample of the queries must equal the brute-force ones. */
async function check(
  engine: SearchEngine,
  documents: CorpusDocument[],
  queries: BenchQuery[],
): Promise<{ checked: number; mismatches: number }> {
  const sample = queries.slice(0, CHECKED);
  const expected = bruteForce(documents, sample);
  let mismatches = 0;
  for (const [i, query] of sample.entries()) {
    const result = await engine.query(engineQuery(query));
    const want = expected[i]!;
    const sameFacets = FACET_FIELDS.every((field) => {
      const got = result.facets[field] ?? [];
      return (
        got.length === want.facets[field]!.size &&
        got.every(([value, count]) => want.facets[field]!.get(value) === count)
      );
    });
    if (result.total !== want.total || !sameFacets) mismatches++;
  }
  return { checked: sample.length, mismatches };
}

/** Export and restore time of our engine, and whether the restored one answers the sample the same. */
async function snapshotLine(engine: SearchEngine, queries: BenchQuery[]): Promise<Record<string, unknown>> {
  let t0 = performance.now();
  const snapshot = await engine.exportSnapshot();
  const exportMs = performance.now() - t0;
  t0 = performance.now();
  const restored = await memoryEngineFactory.restore(snapshot);
  const restoreMs = performance.now() - t0;
  let same = true;
  for (const query of queries.slice(0, CHECKED)) {
    same &&=
      JSON.stringify(await restored.query(engineQuery(query))) ===
      JSON.stringify(await engine.query(engineQuery(query)));
  }
  return {
    snapshot: 'vela-memory',
    bytesMB: round(snapshot.length / 1048576, 1),
    exportMs: Math.round(exportMs),
    restoreMs: Math.round(restoreMs),
    identicalResults: same,
  };
}

async function main(): Promise<void> {
  const file = path.resolve(packageRoot, process.argv[2] ?? '../shared/corpus/debian.jsonl.gz');
  const documents = loadCorpus(file);
  const queries = makeQueries(documents, QUERIES, SEED);
  console.log(
    JSON.stringify({
      bench: 'search-engine',
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      documents: documents.length,
      queries: queries.length,
      heap: gc ? 'measured' : 'run with --expose-gc to measure',
    }),
  );

  const results: Measurement[] = [];
  const ours = new VelaSystem('vela-memory');
  results.push(await measure(ours, documents, queries));
  console.log(JSON.stringify(results.at(-1)));
  if (results[0]!.heapMB !== null) printGoal('engine heap on the corpus (MB)', results[0]!.heapMB, '<=', 90);
  console.log(
    JSON.stringify({ check: 'vela-memory vs brute force', ...(await check(ours.engine!, documents, queries)) }),
  );
  console.log(JSON.stringify(await snapshotLine(ours.engine!, queries)));
  ours.engine = null;

  for (const system of [new VelaSystem('vela-memory-prefix', true), new MiniSearchSystem(), new OramaSystem()]) {
    results.push(await measure(system, documents, queries));
    console.log(JSON.stringify(results.at(-1)));
  }

  const base = results[0]!;
  const ratio: Record<string, Record<string, number | null>> = {};
  for (const peer of results.slice(1)) {
    ratio[peer.system] = {
      indexMs: round(peer.indexMs / base.indexMs),
      heapMB: peer.heapMB === null || base.heapMB === null ? null : round(peer.heapMB / base.heapMB),
      p50Ms: round(peer.p50Ms / base.p50Ms),
      p99Ms: round(peer.p99Ms / base.p99Ms),
    };
  }
  console.log(JSON.stringify({ ratio: `peer / ${base.system}`, ...ratio }));
}

await main();
