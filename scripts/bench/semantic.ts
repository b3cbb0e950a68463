// Semantic search on the Debian corpus: a runtime with the search and semantic plugins imports the corpus through
// the HTTP API, semantic search is turned on for the site, and the built-in model is learned and every document
// embedded in the background as the product does it. Then, in one table:
// - the time to learn the model (its log line), to embed every document (the site's status, polled) and to build
//   an ANN index from the stored vectors;
// - memory per 100,000 vectors: the runtime's RSS and heap growth once the vectors are in, the ANN index alone,
//   and the bytes stored;
// - the search service's in-process p50 on the known-item queries (scripts/bench/relevance-queries.json) with
//   semantic=keyword, hybrid and vector;
// - the ANN index's recall@10 against exact search on these vectors;
// - MRR@10 on the known-item queries (the target's words are in the query: keyword's ground) and nDCG@10 on the
//   judged queries of scripts/bench/semantic-judgments.json (no relevant package has a word of its query, so
//   keyword finds next to none by construction).
//
//   node --expose-gc --import tsx scripts/bench/semantic.ts [corpus.jsonl.gz]
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TextEmbedder } from '@vela/embedding';
import type { SiteSearch, SiteSearchResult } from '../../plugins/search/api.js';
import { ModelStore } from '../../plugins/semantic/store/model-store.js';
import { rowsOf } from '../../plugins/semantic/store/raw-rows.js';
import { VectorStore } from '../../plugins/semantic/store/vector-store.js';
import { packageRoot } from '../../runtime/paths.js';
import type { Database } from '../../runtime/storage/database.js';
import { printGoal } from './goal.js';
import { TOP } from './relevance-metrics.js';
import { type KnownItemQueries, QUERIES_FILE } from './relevance-queries.js';
import { startVela } from './relevance-vela.js';
import { type CorpusDocument, loadCorpus, seededRandom } from './search-corpus.js';
import { type JudgedQuery, loadJudgments, ndcgAt } from './semantic-judgments.js';
import { LogRecords, type SemanticStatus, waitUntilEmbedded } from './semantic-progress.js';
import { annRecall } from './semantic-recall.js';
import { median, percentile } from './stats.js';

const corpusFile = path.resolve(
  process.argv.slice(2).find((a) => !a.startsWith('--')) ??
    path.join(packageRoot, '..', 'shared', 'corpus', 'debian.jsonl.gz'),
);
const MODES = ['keyword', 'hybrid', 'vector'] as const;
type Mode = (typeof MODES)[number];
/** Timed passes per mode, alternating; a mode's p50 is the median of its passes' p50s. */
const ROUNDS = 3;
/** Queries of the recall measure: the known-item ones, then package titles (seeded) up to this many. */
const RECALL_QUERIES = 500;
const EMBED_TIMEOUT_MS = 60 * 60_000;
const LOCALE = 'en_US';
/** The site's `window` setting (its default): documents the vector side of a hybrid search contributes. */
const WINDOW = 100;

const started = performance.now();
const progress = (what: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number) => bytes / 2 ** 20;

function memory() {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external };
}

const queryString = (text: string, mode: Mode) =>
  `q=${encodeURIComponent(text)}&_setlocale=${LOCALE}&rows=${TOP}&semantic=${mode}`;
const idsOf = (answer: SiteSearchResult) => (answer.results?.document ?? []).map((d) => Number(d.fields.id));

function readKnownItems(documents: CorpusDocument[]) {
  const file = JSON.parse(readFileSync(QUERIES_FILE, 'utf8')) as KnownItemQueries;
  if (file.documents !== documents.length)
    throw new Error(`${QUERIES_FILE} was made from ${file.documents} documents, the corpus has ${documents.length}`);
  return file.queries;
}

/** Each mode's passes in turn, every round, after a warm-up: the median of its passes' p50s. */
async function timeModes(search: (text: string, mode: Mode) => Promise<unknown>, texts: string[]) {
  const p50s: Record<Mode, number[]> = { keyword: [], hybrid: [], vector: [] };
  for (const mode of MODES) for (const text of texts.slice(0, 50)) await search(text, mode);
  for (let round = 0; round < ROUNDS; round++)
    for (const mode of MODES) {
      const times: number[] = [];
      for (const text of texts) {
        const t0 = performance.now();
        await search(text, mode);
        times.push(performance.now() - t0);
      }
      p50s[mode].push(
        percentile(
          times.sort((a, b) => a - b),
          50,
        ),
      );
    }
  return (mode: Mode) => median(p50s[mode]);
}

async function storedBytes(runtime: { db: Database }) {
  const sum = rowsOf<{ n: number; bytes: number }>(
    await runtime.db.raw('select count(*) as n, sum(length(vector)) as bytes from semantic_vectors'),
  )[0]!;
  let pages: number | null = null;
  try {
    // The table and its indexes on disk, where SQLite was built with the dbstat table.
    const row = rowsOf<{ bytes: number }>(
      await runtime.db.raw(
        "select sum(pgsize) as bytes from dbstat where name = 'semantic_vectors' or name like 'sqlite_autoindex_semantic_vectors%' or name like 'semantic_vectors_%'",
      ),
    )[0];
    pages = row?.bytes ?? null;
  } catch {
    pages = null;
  }
  return { rows: Number(sum.n), vectorBytes: Number(sum.bytes), tableBytes: pages };
}

async function main(): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  console.log(
    JSON.stringify({
      bench: 'semantic',
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu,
    }),
  );
  const documents = loadCorpus(corpusFile);
  const knownItems = readKnownItems(documents);
  const judged = loadJudgments(documents);
  const logs = new LogRecords();
  const vela = await startVela(documents, { plugins: ['search', 'semantic'], logDestination: logs });
  progress('corpus imported');
  try {
    const before = memory();
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${vela.base}${url}`, {
        method,
        headers: vela.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    };
    const enabledAt = performance.now();
    await call('PUT', '/api/sn/Debian/semantic', { enabled: true });
    const timeline = await waitUntilEmbedded(
      () => call('GET', '/api/sn/Debian/semantic/status') as Promise<SemanticStatus>,
      documents.length,
      EMBED_TIMEOUT_MS,
      progress,
    );
    progress('every document embedded');
    const learned = logs.find('built-in embedding model learned');
    const active = timeline.status.models.find((m) => m.active)!;
    const trainMs = Number(learned?.ms ?? Number.NaN);
    const learnedAt = learned?.at ?? timeline.modelSeen ?? enabledAt;
    const embedMs = timeline.done - learnedAt;

    const searchService = vela.runtime.resolve<SiteSearch>('search.service');
    const search = (text: string, mode: Mode) => searchService.search('Debian', queryString(text, mode));
    // The vectors are in once a vector search runs as one; the index follows the stored vectors a step behind.
    for (let tries = 0; (await search('text editor', 'vector')).queryContext.semantic.mode !== 'vector'; tries++) {
      if (tries > 100) throw new Error('vector search never became ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = memory();
    const stored = await storedBytes(vela.runtime);
    const per100k = (bytes: number) => mb(bytes) * (100_000 / stored.rows);

    const fallbacks: Record<Mode, number> = { keyword: 0, hybrid: 0, vector: 0 };
    const ranked = async (text: string, mode: Mode) => {
      const answer = await search(text, mode);
      if (answer.queryContext.semantic.mode !== mode) fallbacks[mode]++;
      return idsOf(answer);
    };
    const mrr: Record<Mode, number> = { keyword: 0, hybrid: 0, vector: 0 };
    const ndcg: Record<Mode, number> = { keyword: 0, hybrid: 0, vector: 0 };
    for (const mode of MODES) {
      let sum = 0;
      for (const q of knownItems) {
        const at = (await ranked(q.text, mode)).indexOf(q.target);
        if (at >= 0) sum += 1 / (at + 1);
      }
      mrr[mode] = sum / knownItems.length;
      ndcg[mode] = await meanNdcg(judged, (text) => ranked(text, mode));
    }
    progress('judged');
    const p50 = await timeModes(search, [...knownItems.map((q) => q.text)]);
    progress('timed');

    const site = vela.site.site;
    const model = await new ModelStore(vela.runtime.db).get(site.id, LOCALE, active.model);
    const embedder = TextEmbedder.deserialize(model!.bytes!);
    const random = seededRandom(20261128);
    const titles = Array.from(
      { length: RECALL_QUERIES - knownItems.length },
      () => documents[Math.floor(random() * documents.length)]!.title,
    );
    const recall = await annRecall(
      new VectorStore(vela.runtime.db),
      { siteId: site.id, locale: LOCALE, modelKey: active.model },
      embedder,
      [...knownItems.map((q) => q.text), ...titles],
      WINDOW,
    );
    progress('recall measured');

    const numbers: Numbers = {
      documents: documents.length,
      passages: stored.rows,
      dimensions: recall.dimensions,
      vocabulary: Number(learned?.vocabulary ?? 0),
      failed: active.failed,
      trainMs,
      embedMs: Math.round(embedMs),
      enableToSearchableMs: Math.round(timeline.done - enabledAt),
      annBuildMs: Math.round(recall.annBuildMs),
      rssPer100kMb: per100k(after.rss - before.rss),
      heapPer100kMb: per100k(after.heap - before.heap),
      annRssPer100kMb: recall.annRssPer100kMb,
      storedVectorPer100kMb: per100k(stored.vectorBytes),
      storedTablePer100kMb: stored.tableBytes === null ? null : per100k(stored.tableBytes),
      modelMb: mb(model!.bytes!.length),
      p50Ms: { keyword: p50('keyword'), hybrid: p50('hybrid'), vector: p50('vector') },
      mrrAt10: mrr,
      ndcgAt10: ndcg,
      fallbacks,
      recallAt10: recall.recallAt10,
      strictRecallAt10: recall.strictRecallAt10,
      annP50Ms: recall.annP50Ms,
      exactP50Ms: recall.exactP50Ms,
      windowK: recall.windowK,
      annWindowP50Ms: recall.annWindowP50Ms,
      recallQueries: recall.queries,
      judgedQueries: judged.length,
      knownItemQueries: knownItems.length,
      warnings: logs.warnings().map((w) => w.msg),
    };
    console.log(JSON.stringify({ system: 'vela semantic (built-in embedder, memory engine)', ...numbers }));
    printTable(cpu, numbers);
    printGoal('semantic: hybrid in-process p50 / keyword p50', p50('hybrid') / p50('keyword'), '<=', 2);
    printGoal('semantic: ANN recall@10 against exact search', recall.recallAt10, '>=', 0.95);
  } finally {
    await vela.stop();
  }
}

async function meanNdcg(queries: JudgedQuery[], ranked: (text: string) => Promise<number[]>): Promise<number> {
  let sum = 0;
  for (const q of queries) sum += ndcgAt(TOP, await ranked(q.text), q.grades);
  return sum / queries.length;
}

interface Numbers {
  documents: number;
  passages: number;
  dimensions: number;
  vocabulary: number;
  failed: number;
  trainMs: number;
  embedMs: number;
  enableToSearchableMs: number;
  annBuildMs: number;
  rssPer100kMb: number;
  heapPer100kMb: number;
  annRssPer100kMb: number;
  storedVectorPer100kMb: number;
  storedTablePer100kMb: number | null;
  modelMb: number;
  p50Ms: Record<Mode, number>;
  mrrAt10: Record<Mode, number>;
  ndcgAt10: Record<Mode, number>;
  fallbacks: Record<Mode, number>;
  recallAt10: number;
  strictRecallAt10: number;
  annP50Ms: number;
  exactP50Ms: number;
  windowK: number;
  annWindowP50Ms: number;
  recallQueries: number;
  judgedQueries: number;
  knownItemQueries: number;
  warnings: string[];
}

function printTable(cpu: string, n: Numbers): void {
  const f = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(50)} ${value}`);
  const byMode = (label: string, of: Record<Mode, number>, digits: number) =>
    row(label, MODES.map((m) => f(of[m], digits).padStart(8)).join(''));
  console.log(
    `semantic search, Debian corpus: ${n.documents} documents, ${n.passages} passage vectors of ${n.dimensions} d (${n.failed} failed); ${cpu} × ${os.cpus().length}`,
  );
  row(`learn the built-in model (vocabulary ${n.vocabulary})`, s(n.trainMs));
  row(
    'embed every document, after the model',
    `${s(n.embedMs)} (${Math.round((n.documents * 1000) / n.embedMs)} documents/s)`,
  );
  row('turned on → every document searchable', s(n.enableToSearchableMs));
  row('ANN index built from the stored vectors', s(n.annBuildMs));
  row(
    'per 100k vectors: runtime RSS, heap + external',
    `+${f(n.rssPer100kMb, 0)} MB, +${f(n.heapPer100kMb, 0)} MB (RSS: with the pool threads that learned and embedded)`,
  );
  row(
    'per 100k vectors: ANN index alone, stored',
    `${f(n.annRssPer100kMb, 0)} MB RSS; ${f(n.storedVectorPer100kMb, 0)} MB of vectors, ${f(n.storedTablePer100kMb, 0)} MB of table pages; model ${f(n.modelMb, 1)} MB`,
  );
  row(
    `ANN recall@10 vs exact, ${n.recallQueries} queries`,
    `${f(n.recallAt10, 3)} tie-aware (same keys ${f(n.strictRecallAt10, 3)}); p50 ${f(n.annP50Ms, 3)} ms (${f(n.annWindowP50Ms, 3)} ms for the ${n.windowK} a search asks), exact ${f(n.exactP50Ms, 3)} ms`,
  );
  row('', MODES.map((m) => m.padStart(8)).join(''));
  byMode(`in-process p50 (ms), ${n.knownItemQueries} known-item queries`, n.p50Ms, 3);
  byMode(`MRR@10, the known-item queries (the target's words)`, n.mrrAt10, 3);
  byMode(`nDCG@10, ${n.judgedQueries} judged queries (no word shared)`, n.ndcgAt10, 3);
  byMode('answers that fell back to keyword', n.fallbacks, 0);
}

await main();
