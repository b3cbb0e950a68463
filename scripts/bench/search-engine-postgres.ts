/**
 * The PostgreSQL search engine beside the memory engine on the Debian corpus, one at a time (built, measured,
 * dropped), on a database of its own (created and dropped here, through the test PostgreSQL admin URL
 * VELA_TEST_POSTGRES_URL, or postgres://postgres@127.0.0.1:5432/postgres).
 *
 *   node --expose-gc --import tsx scripts/bench/search-engine-postgres.ts [corpus.jsonl.gz] [--limit N] [--no-analyze]
 *
 * The PostgreSQL table is ANALYZEd after the import, before the queries (autovacuum's job on a live system);
 * `--no-analyze` measures the queries of the first minute after a bulk import instead.
 * `--limit N` takes the first N records (a smoke run; the full corpus is the measurement). For each engine
 * it prints one JSON line {system, indexMs, heapMB, p50Ms, p90Ms, p99Ms, avgHits} for 500 seeded two-word
 * queries with one filter and counts of section, arch and tags (search-engine.ts's workload), then the
 * PostgreSQL tables' size on disk and a parity line: the PostgreSQL engine's totals, facet counts and
 * sorted hits against the memory engine's for every query.
 */
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import type { SearchEngine } from '../../plugins/search/engine/search-engine.js';
import { createPostgresEngineFactory } from '../../plugins/search-postgres/engine/postgres-engine.js';
import { up } from '../../plugins/search-postgres/migrations/001_engine_tables.js';
import { packageRoot } from '../../runtime/paths.js';
import { createTestPostgres } from '../../runtime/testing/test-postgres.js';
import { type BenchQuery, type CorpusDocument, loadCorpus, makeQueries } from './search-corpus.js';
import { type BenchSystem, engineQuery, VelaSystem } from './search-systems.js';

const QUERIES = 500;
const WARMUP = 50;
const SEED = 20261122;

const gc = (globalThis as { gc?: () => void }).gc;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

async function heapUsed(): Promise<number | null> {
  if (!gc) return null;
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(
  system: BenchSystem,
  documents: CorpusDocument[],
  queries: BenchQuery[],
  afterBuild: () => Promise<void> = async () => {},
): Promise<Record<string, unknown>> {
  const before = await heapUsed();
  const started = performance.now();
  await system.build(documents);
  const indexMs = performance.now() - started;
  await afterBuild();
  const after = await heapUsed();
  for (const query of queries.slice(0, WARMUP)) await system.run(query);
  const times: number[] = [];
  let hits = 0;
  for (const query of queries) {
    const t0 = performance.now();
    hits += await system.run(query);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    system: system.name,
    indexMs: Math.round(indexMs),
    // The process heap the engine keeps; the PostgreSQL engine's index is in the database (tablesMB below).
    heapMB: before === null || after === null ? null : round((after - before) / 1048576, 1),
    p50Ms: round(percentile(times, 50), 3),
    p90Ms: round(percentile(times, 90), 3),
    p99Ms: round(percentile(times, 99), 3),
    avgHits: round(hits / queries.length, 1),
  };
}

/** Totals, facet counts and hit pages (by size, so the order is total) of both engines for every query. */
async function parity(
  memory: SearchEngine,
  postgres: SearchEngine,
  queries: BenchQuery[],
): Promise<{ checked: number; mismatches: number }> {
  let mismatches = 0;
  for (const query of queries) {
    const q = { ...engineQuery(query), sort: { by: 'number' as const, field: 'size', direction: 'desc' as const } };
    const [a, b] = [await memory.query(q), await postgres.query(q)];
    const same =
      a.total === b.total &&
      JSON.stringify(a.facets) === JSON.stringify(b.facets) &&
      JSON.stringify(a.hits.map((hit) => hit.id)) === JSON.stringify(b.hits.map((hit) => hit.id));
    if (!same) mismatches++;
  }
  return { checked: queries.length, mismatches };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--no-analyze');
  const limitAt = args.indexOf('--limit');
  const limit = limitAt >= 0 ? Number(args.splice(limitAt, 2)[1]) : Infinity;
  if (!(limit > 0)) throw new Error('--limit takes a positive number of records');
  const file = path.resolve(packageRoot, args[0] ?? '../shared/corpus/debian.jsonl.gz');
  const documents = loadCorpus(file).slice(0, limit);
  const queries = makeQueries(documents, QUERIES, SEED);
  console.log(
    JSON.stringify({
      bench: 'search-engine-postgres',
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      documents: documents.length,
      queries: queries.length,
      heap: gc ? 'measured' : 'run with --expose-gc to measure',
    }),
  );
  const pg = await createTestPostgres();
  if (!pg) throw new Error('PostgreSQL refused to create a benchmark database');
  const db = knex({ client: 'pg', connection: pg.url, pool: { min: 0, max: 4 } });
  try {
    await up(db);
    const memory = new VelaSystem('vela-memory');
    console.log(JSON.stringify(await measure(memory, documents, queries)));
    const postgres = new VelaSystem('vela-postgres', false, createPostgresEngineFactory(db));
    // What autovacuum does within a minute of a bulk import: without statistics the planner guesses the
    // selectivity of facet filters and may intersect a large facet's GIN bitmap with the text match.
    const analyze = process.argv.includes('--no-analyze')
      ? async () => {}
      : async () => void (await db.raw('analyze search_postgres_documents'));
    console.log(JSON.stringify(await measure(postgres, documents, queries, analyze)));
    await db.raw('vacuum analyze search_postgres_documents');
    const size = await db.raw(`select pg_total_relation_size('search_postgres_documents')::bigint as bytes`);
    console.log(JSON.stringify({ system: 'vela-postgres', tablesMB: round(Number(size.rows[0].bytes) / 1048576, 1) }));
    console.log(
      JSON.stringify({
        check: 'vela-postgres vs vela-memory',
        ...(await parity(memory.engine!, postgres.engine!, queries)),
      }),
    );
  } finally {
    await db.destroy();
    await pg.drop();
  }
}

await main();
