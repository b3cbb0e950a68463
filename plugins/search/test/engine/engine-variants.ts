import type { TestFn } from 'ava';
import knex, { type Knex } from 'knex';
import { createTestPostgres, postgresReachable } from 'vela/testing';
// The PostgreSQL engine is the search-postgres plugin's: these cases hold every engine to the same answers.
import { createPostgresEngineFactory, type PostgresEngine } from '../../../search-postgres/engine/postgres-engine.js';
import { up } from '../../../search-postgres/migrations/001_engine_tables.js';
import { createMemoryEngineFactory } from '../../engine/memory-engine.js';
import type { SearchEngine, SearchEngineFactory } from '../../engine/search-engine.js';

export interface EngineVariant {
  name: 'memory' | 'postgres';
  test: TestFn;
  factory(options?: { prefixLastTerm?: boolean }): SearchEngineFactory;
  /** Whatever the engine reads lazily (the PostgreSQL engine's term dictionary) is read now. */
  settle(engine: SearchEngine): Promise<void>;
}

/**
 * The engines the engine test cases run against: the memory engine always, the PostgreSQL engine (the
 * search-postgres plugin's) when PostgreSQL is reachable (required with VELA_REQUIRE_POSTGRES=1), on a database of this test file's own
 * where every engine gets an index of its own.
 */
export function engineVariants(test: TestFn): EngineVariant[] {
  const memory: EngineVariant = {
    name: 'memory',
    test,
    factory: (options) => createMemoryEngineFactory(options),
    settle: async () => {},
  };
  let db: Knex | null = null;
  let drop: (() => Promise<void>) | null = null;
  const reachable = postgresReachable();
  if (reachable) {
    test.before(async () => {
      const pg = await createTestPostgres();
      if (!pg) throw new Error('PostgreSQL refused to create a test database');
      drop = pg.drop;
      db = knex({ client: 'pg', connection: pg.url, pool: { min: 0, max: 10 } });
      await up(db);
    });
    test.after.always(async () => {
      await db?.destroy();
      await drop?.();
    });
  }
  const postgres: EngineVariant = {
    name: 'postgres',
    test: reachable ? test : (test.skip as unknown as TestFn),
    factory: (options) => {
      if (!db) throw new Error('the test database is not ready');
      return createPostgresEngineFactory(db, { ...options, termsRefreshMs: 10 });
    },
    settle: (engine) => (engine as PostgresEngine).refresh(),
  };
  return [memory, postgres];
}
