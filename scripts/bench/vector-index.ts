// Which ANN library backs the semantic vector index: exact search vs hnswlib-node vs usearch on Debian corpus vectors.
//
//   node --import tsx scripts/bench/vector-index.ts [--embedder] [--libs <dir whose node_modules has the libraries>]
//
// Vectors: with --embedder, @vela/embedding's built-in embedder trained on the corpus (records it cannot embed are
// left out); otherwise each record's tf-idf term vector (analyser tokens of name, title and body) by a sparse random
// projection to 256 dimensions with a fixed seed, normalised. 500 held-out records are the queries;
// recall@10 is measured against exact search over the same vectors. Each library runs in its own child process so its
// RSS delta is its own.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { tokenize } from '@vela/search-text';
import {
  createVectorIndex,
  DEFAULT_ANN_PARAMETERS,
  restoreVectorIndex,
} from '../../plugins/semantic/vector-index/index.js';
import { loadCorpus, searchableText, seededRandom } from './search-corpus.js';
import { percentile } from './stats.js';

const CORPUS = '/work/shared/corpus/debian.jsonl.gz';
const DIMENSIONS = 256;
const QUERIES = 500;
const K = 10;
const SEED = 20261128;
const M = 16;
const EF_CONSTRUCTION = 200;
const EF_SWEEP = [10, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512];
const RECALL_GOAL = 0.95;
const EMBEDDER = process.argv.includes('--embedder');
const CACHE = join(tmpdir(), `vela-vector-bench-${EMBEDDER ? 'embedder' : 'projection'}-${DIMENSIONS}-${SEED}.bin`);

interface Dataset {
  vectors: Float32Array; // indexed records, row-major
  queries: Float32Array;
  count: number;
  truth: Int32Array; // QUERIES × K row ids, exact top-k
}

interface Row {
  system: string;
  params: string;
  recall: number;
  buildMs: number;
  p50: number;
  p99: number;
  rssPer100k: number;
  bytesPer100k: number;
  serializeMs: number;
  restoreMs: number;
  remove: string;
  sweep?: string;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const rss = () => {
  gc();
  gc();
  return process.memoryUsage().rss;
};

// ---- vectors

function termDirections(term: string): Array<[number, number]> {
  let hash = 2166136261 ^ SEED;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 16777619);
  const random = seededRandom(hash);
  // Sparse random projection: each term adds ±weight on 8 of the dimensions.
  return Array.from({ length: 8 }, () => [Math.floor(random() * DIMENSIONS), random() < 0.5 ? -1 : 1]);
}

async function embedderVectors(): Promise<Float32Array> {
  const { TextEmbedder } = await import('@vela/embedding');
  const texts = loadCorpus(CORPUS).map(searchableText);
  const start = performance.now();
  const embedder = TextEmbedder.train(texts, { dimensions: DIMENSIONS });
  console.error(`embedder trained in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  const vectors = texts.map((text) => embedder.embed(text)).filter((vector) => vector !== null);
  const all = new Float32Array(vectors.length * DIMENSIONS);
  for (const [row, vector] of vectors.entries()) all.set(vector, row * DIMENSIONS);
  return all;
}

function projectedVectors(): Float32Array {
  const documents = loadCorpus(CORPUS);
  const termCounts = documents.map((document) => {
    const counts = new Map<string, number>();
    for (const token of tokenize(searchableText(document))) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  });
  const documentFrequency = new Map<string, number>();
  for (const counts of termCounts)
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const directions = new Map<string, Array<[number, number]>>();
  const all = new Float32Array(documents.length * DIMENSIONS);
  termCounts.forEach((counts, row) => {
    const vector = all.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
    for (const [term, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log(documents.length / documentFrequency.get(term)!);
      const projection = directions.get(term) ?? termDirections(term);
      directions.set(term, projection);
      for (const [dimension, sign] of projection) vector[dimension]! += sign * weight;
    }
    normalise(vector);
  });
  return all;
}

function normalise(vector: Float32Array): void {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares) || 1;
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
}

async function dataset(): Promise<Dataset> {
  if (!existsSync(CACHE)) {
    const all = EMBEDDER ? await embedderVectors() : projectedVectors();
    writeFileSync(CACHE, new Uint8Array(all.buffer));
  }
  const all = new Float32Array(readFileSync(CACHE).buffer.slice(0));
  const total = all.length / DIMENSIONS;
  const random = seededRandom(SEED);
  const held = new Set<number>();
  while (held.size < QUERIES) held.add(Math.floor(random() * total));
  const count = total - QUERIES;
  const vectors = new Float32Array(count * DIMENSIONS);
  const queries = new Float32Array(QUERIES * DIMENSIONS);
  let v = 0;
  let q = 0;
  for (let row = 0; row < total; row++) {
    const source = all.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
    if (held.has(row)) queries.set(source, q++ * DIMENSIONS);
    else vectors.set(source, v++ * DIMENSIONS);
  }
  return { vectors, queries, count, truth: new Int32Array(0) };
}

const row = (matrix: Float32Array, i: number) => matrix.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS);

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

/** Tie-aware recall@K: a found record counts when it scores at least the exact K-th score (the corpus has many
 *  records with identical descriptions, so which of equal-scoring ones exact search returned is arbitrary). */
function recallOf(data: Dataset, results: number[][]): number {
  let hits = 0;
  results.forEach((found, q) => {
    const query = row(data.queries, q);
    const kth = dot(query, row(data.vectors, data.truth[q * K + K - 1]!));
    for (const id of new Set(found.slice(0, K))) if (dot(query, row(data.vectors, id)) >= kth - 1e-5) hits++;
  });
  return hits / (QUERIES * K);
}

function timeQueries(run: (q: number) => number[]): { results: number[][]; times: number[] } {
  const results: number[][] = [];
  const times: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const start = performance.now();
    results.push(run(q));
    times.push(performance.now() - start);
  }
  return { results, times: times.sort((a, b) => a - b) };
}

// ---- systems

function runExact(data: Dataset): Row {
  const before = rss();
  const start = performance.now();
  const index = createVectorIndex(DIMENSIONS, { kind: 'exact' });
  for (let i = 0; i < data.count; i++) index.upsert(String(i), row(data.vectors, i));
  const buildMs = performance.now() - start;
  const rssDelta = rss() - before;
  const search = (q: number) => index.search(row(data.queries, q), K).map((match) => Number(match.key));
  timeQueries(search);
  const { results, times } = timeQueries(search);
  data.truth = new Int32Array(QUERIES * K);
  for (const [q, found] of results.entries()) data.truth.set(found, q * K);
  const serializeStart = performance.now();
  const bytes = index.serialize();
  const serializeMs = performance.now() - serializeStart;
  const restoreStart = performance.now();
  restoreVectorIndex(bytes);
  const restoreMs = performance.now() - restoreStart;
  const removeStart = performance.now();
  for (let i = 0; i < 1000; i++) index.remove(String(i));
  const removeMs = performance.now() - removeStart;
  return {
    system: 'exact',
    params: 'brute force, top-k heap',
    recall: 1,
    buildMs,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    rssPer100k: (rssDelta / data.count) * 100_000,
    bytesPer100k: (bytes.length / data.count) * 100_000,
    serializeMs,
    restoreMs,
    remove: `yes (1000 in ${removeMs.toFixed(1)} ms)`,
  };
}

interface Library {
  build(data: Dataset): void;
  setEf(ef: number): void;
  search(query: Float32Array, k: number): number[];
  save(file: string): void;
  load(file: string): void;
  remove(id: number): void;
  describe: string;
  /** Set when the system tunes itself: no sweep. */
  fixedEf?: number;
}

function hnswlib(require: NodeJS.Require): Library {
  const { HierarchicalNSW } = require('hnswlib-node');
  let index = new HierarchicalNSW('ip', DIMENSIONS);
  return {
    describe: `M=${M} efConstruction=${EF_CONSTRUCTION}`,
    build(data) {
      index.initIndex({
        maxElements: 1024,
        m: M,
        efConstruction: EF_CONSTRUCTION,
        randomSeed: SEED,
        allowReplaceDeleted: true,
      });
      for (let i = 0; i < data.count; i++) {
        if (index.getCurrentCount() === index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
        index.addPoint(Array.from(row(data.vectors, i)), i, true);
      }
    },
    setEf: (ef) => index.setEf(ef),
    search: (query, k) => index.searchKnn(Array.from(query), k).neighbors,
    save: (file) => index.writeIndexSync(file),
    load(file) {
      index = new HierarchicalNSW('ip', DIMENSIONS);
      index.readIndexSync(file, true);
    },
    remove: (id) => index.markDelete(id),
  };
}

function usearch(require: NodeJS.Require): Library {
  const { Index, MetricKind, ScalarKind } = require('usearch');
  const make = (ef: number) => new Index(DIMENSIONS, MetricKind.IP, ScalarKind.F32, M, EF_CONSTRUCTION, ef, false);
  let index = make(64);
  let lastFile = '';
  return {
    describe: `connectivity=${M} expansion_add=${EF_CONSTRUCTION}`,
    build(data) {
      for (let i = 0; i < data.count; i++) index.add(BigInt(i), row(data.vectors, i), 1);
    },
    // expansion_search is fixed at construction: reload the saved graph under the new setting.
    setEf(ef) {
      if (lastFile === '') throw new Error('save before tuning');
      index = make(ef);
      index.load(lastFile);
    },
    search: (query, k) => Array.from(index.search(query, k, 1).keys as BigUint64Array, Number),
    save(file) {
      index.save(file);
      lastFile = file;
    },
    load(file) {
      index = make(64);
      index.load(file);
      lastFile = file;
    },
    remove: (id) => index.remove(BigInt(id)),
  };
}

/** The product's own index (plugins/semantic/vector-index) with its defaults: the library plus key map and envelope. */
function velaAnn(): Library {
  let index = createVectorIndex(DIMENSIONS, { kind: 'ann' });
  return {
    describe: `createVectorIndex defaults (usearch M=${DEFAULT_ANN_PARAMETERS.connectivity} ef_add=${DEFAULT_ANN_PARAMETERS.expansionAdd})`,
    fixedEf: DEFAULT_ANN_PARAMETERS.expansionSearch,
    build(data) {
      for (let i = 0; i < data.count; i++) index.upsert(String(i), row(data.vectors, i));
    },
    setEf() {},
    search: (query, k) => index.search(query, k).map((match) => Number(match.key)),
    save: (file) => writeFileSync(file, index.serialize()),
    load(file) {
      index = restoreVectorIndex(readFileSync(file));
    },
    remove: (id) => index.remove(String(id)),
  };
}

function runLibrary(name: string, library: Library, data: Dataset): Row {
  const directory = mkdtempSync(join(tmpdir(), 'vela-vector-bench-'));
  const file = join(directory, 'index.bin');
  try {
    const before = rss();
    const start = performance.now();
    library.build(data);
    const buildMs = performance.now() - start;
    const rssDelta = rss() - before;
    const serializeStart = performance.now();
    library.save(file);
    const bytes = readFileSync(file);
    const serializeMs = performance.now() - serializeStart;
    const size = statSync(file).size;
    const restoreStart = performance.now();
    writeFileSync(file, bytes);
    library.load(file);
    const restoreMs = performance.now() - restoreStart;
    const sweep: string[] = [];
    let chosen = library.fixedEf ?? EF_SWEEP[EF_SWEEP.length - 1]!;
    for (const ef of library.fixedEf === undefined ? EF_SWEEP : []) {
      library.setEf(ef);
      const recall = recallOf(data, timeQueries((q) => library.search(row(data.queries, q), K)).results);
      sweep.push(`ef ${ef}: ${recall.toFixed(3)}`);
      if (recall >= RECALL_GOAL) {
        chosen = ef;
        break;
      }
    }
    library.setEf(chosen);
    timeQueries((q) => library.search(row(data.queries, q), K)); // warm-up: a reloaded graph pages in on first use
    const { results, times } = timeQueries((q) => library.search(row(data.queries, q), K));
    const removed = new Set<number>(data.truth.subarray(0, 200));
    const removeStart = performance.now();
    for (const id of removed) library.remove(id);
    const removeMs = performance.now() - removeStart;
    const leaked = Array.from({ length: 20 }, (_, q) => library.search(row(data.queries, q), K))
      .flat()
      .some((id) => removed.has(id));
    return {
      system: name,
      params: `${library.describe} ef=${chosen}`,
      recall: recallOf(data, results),
      buildMs,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      rssPer100k: (rssDelta / data.count) * 100_000,
      bytesPer100k: (size / data.count) * 100_000,
      serializeMs,
      restoreMs,
      remove: `${leaked ? 'BROKEN' : 'yes'} (${removed.size} in ${removeMs.toFixed(1)} ms)`,
      sweep: sweep.join(', '),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// ---- driver

function libraryRequire(): NodeJS.Require {
  const at = process.argv.indexOf('--libs');
  return createRequire(at > 0 ? join(process.argv[at + 1]!, 'package.json') : import.meta.url);
}

const SYSTEMS = ['exact', 'hnswlib-node', 'usearch', 'vela ann'];

async function child(system: string): Promise<void> {
  const data = await dataset();
  if (system === 'exact') {
    const result = runExact(data);
    writeFileSync(`${CACHE}.truth`, new Uint8Array(data.truth.buffer));
    process.stdout.write(JSON.stringify(result));
    return;
  }
  data.truth = new Int32Array(readFileSync(`${CACHE}.truth`).buffer.slice(0));
  if (system === 'vela ann') {
    process.stdout.write(JSON.stringify(runLibrary(system, velaAnn(), data)));
    return;
  }
  const require = libraryRequire();
  try {
    require.resolve(system);
  } catch {
    process.stdout.write(JSON.stringify(null));
    return;
  }
  const library = system === 'hnswlib-node' ? hnswlib(require) : usearch(require);
  process.stdout.write(JSON.stringify(runLibrary(system, library, data)));
}

async function main(): Promise<void> {
  const data = await dataset();
  const rows: Row[] = [];
  // Each system in its own process, with gc exposed, so the RSS delta is its own.
  for (const system of SYSTEMS) {
    const script = fileURLToPath(import.meta.url);
    const args = ['--expose-gc', '--import', 'tsx', script, '--child', system, ...process.argv.slice(2)];
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`${system} failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as Row | null;
    if (result === null) console.error(`${system}: not installed here (try --libs <dir>)`);
    else rows.push(result);
  }
  const source = EMBEDDER ? '@vela/embedding vectors' : 'tf-idf random projection';
  console.log(
    `CPU: ${cpus()[0]?.model} × ${cpus().length}; Node ${process.version}; ${data.count} ${source} × ${DIMENSIONS} dims, ${QUERIES} held-out queries, k=${K}`,
  );
  console.log(
    '| system | parameters | recall@10 | build (s) | p50 (ms) | p99 (ms) | RSS / 100k (MB) | bytes / 100k (MB) | serialize (ms) | restore (ms) | remove |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  for (const r of rows) {
    console.log(
      `| ${r.system} | ${r.params} | ${r.recall.toFixed(3)} | ${(r.buildMs / 1000).toFixed(1)} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${mb(r.rssPer100k)} | ${mb(r.bytesPer100k)} | ${r.serializeMs.toFixed(0)} | ${r.restoreMs.toFixed(0)} | ${r.remove} |`,
    );
  }
  for (const r of rows) if (r.sweep) console.log(`${r.system} recall sweep: ${r.sweep}`);
}

const childAt = process.argv.indexOf('--child');
await (childAt > 0 ? child(process.argv[childAt + 1]!) : main());
