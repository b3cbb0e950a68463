import test from 'ava';
import knex, { type Knex } from 'knex';
import { postgresReachable, startTestRuntime, testDatabase } from 'vela/testing';
import { QUERIES, summary } from '../../search/test/fixtures/engine-parity.js';
import { createSite, importDocs, makeDocs, search } from '../../search/test/fixtures.js';
import { renamePrefix } from '../migrations/001_engine_tables.js';

// A database whose PostgreSQL engine tables the search plugin made (search_engine_*, its migration 009 in the
// releases that had the engine built in) is taken over by this plugin's first migration: renamed, not rebuilt.
const pgTest = postgresReachable() ? test : test.skip;
const POSTGRES_ENGINE = { plugins: { search: { engine: 'postgres' as const } } };

/** The engine's tables, indexes, sequences and constraints whose names start with `prefix`. */
async function relations(db: Knex, prefix: string): Promise<string[]> {
  const like = `${prefix.replace(/_/g, '\\_')}%`;
  const result = await db.raw(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relname like ? and c.relname not like '%knex%'
     union select conname from pg_constraint where conname like ? and conname not like '%knex%'
     order by 1`,
    [like, like],
  );
  return (result.rows as Array<{ name: string }>).map((row) => row.name);
}

pgTest(
  "the search plugin's former engine tables are renamed to this plugin's prefix and serve the same hits without a rebuild",
  async (t) => {
    t.timeout(120_000);
    const { url } = await testDatabase(t);
    const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    t.teardown(() => db.destroy());

    const first = await startTestRuntime({
      plugins: ['search', 'search-postgres'],
      databaseUrl: url,
      config: POSTGRES_ENGINE,
    });
    await createSite(first);
    t.is((await importDocs(first, makeDocs(80))).accepted, 80);
    const answers = (vela: typeof first) =>
      Promise.all(
        QUERIES.map(async ([query, ordered]) =>
          summary((await search(vela, `${query}&_setlocale=en_US`)).body, ordered),
        ),
      );
    const before = await answers(first);
    t.is(before[0]!.count, 80);
    await first.stop();
    // A new database gets the tables from this plugin only.
    t.deepEqual(await relations(db, 'search_engine_'), []);
    const current = await relations(db, 'search_postgres_');

    // The database as the search plugin left it: its tables under its prefix, this plugin never migrated.
    await db.schema.dropTable('search_postgres_knex_migrations');
    await db.schema.dropTable('search_postgres_knex_migrations_lock');
    await renamePrefix(db, 'search_postgres_', 'search_engine_');
    t.deepEqual(await relations(db, 'search_postgres_'), []);
    t.deepEqual(
      await relations(db, 'search_engine_'),
      current.map((name) => name.replace('search_postgres_', 'search_engine_')),
    );
    t.true(
      (await db('search_knex_migrations').where({ name: '009_postgres_engine' })).length === 1,
      "the search plugin's migration is applied",
    );

    const second = await startTestRuntime({
      plugins: ['search', 'search-postgres'],
      databaseUrl: url,
      config: POSTGRES_ENGINE,
    });
    t.teardown(() => second.stop());
    t.deepEqual(await relations(db, 'search_postgres_'), current);
    t.deepEqual(await relations(db, 'search_engine_'), []);
    t.deepEqual(await answers(second), before);
    t.false(
      second.logs.some((line) => line.msg === 'search index rebuilt'),
      'the stored indexes were opened, not rebuilt',
    );
    // Writes go on in the renamed tables (the sequences and the foreign key came along).
    t.is((await importDocs(second, makeDocs(90).slice(80))).accepted, 10);
    t.is((await search(second, 'q=*&rows=0&_setlocale=en_US')).body.queryContext.count, 90);
  },
);
