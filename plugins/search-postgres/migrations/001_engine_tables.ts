import type { Knex } from 'vela/plugin';

// The engine's tables (engine/postgres-engine.ts): one row per index (a site, locale and field configuration)
// and one per document of it. PostgreSQL only: over SQLite this plugin registers no engine and needs none.
// A database where the search plugin's own migration made them (as search_engine_*, when the engine was part of
// that plugin) keeps its indexes: the tables, their indexes, sequences and constraints are renamed, rows untouched.

const FORMER_PREFIX = 'search_engine_';
const PREFIX = 'search_postgres_';

export async function up(db: Knex): Promise<void> {
  if (db.client.dialect !== 'postgresql') return;
  if (await db.schema.hasTable(`${FORMER_PREFIX}indexes`)) await renamePrefix(db, FORMER_PREFIX, PREFIX);
  else await createTables(db);
}

export async function down(db: Knex): Promise<void> {
  if (db.client.dialect !== 'postgresql') return;
  await db.schema.dropTableIfExists(`${PREFIX}documents`);
  await db.schema.dropTableIfExists(`${PREFIX}indexes`);
}

/**
 * Every table, index, sequence and constraint of the current schema named `from`… is renamed `to`…: rows stay as they
 * are.
 */
export async function renamePrefix(db: Knex, from: string, to: string): Promise<void> {
  const renamed = (name: string) => to + name.slice(from.length);
  const like = `${from.replace(/_/g, '\\_')}%`;
  // Renaming an index renames the constraint it backs (primary key, unique): only the others are renamed as such.
  const constraints = await db.raw(
    `select c.conname, t.relname from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = current_schema() and c.contype not in ('p', 'u') and c.conname like ? and t.relname like ?`,
    [like, like],
  );
  for (const { conname, relname } of constraints.rows as Array<{ conname: string; relname: string }>) {
    await db.raw('alter table ?? rename constraint ?? to ??', [relname, conname, renamed(conname)]);
  }
  const relations = await db.raw(
    `select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'i', 'S') and c.relname like ?`,
    [like],
  );
  const statement = {
    r: 'alter table ?? rename to ??',
    i: 'alter index ?? rename to ??',
    S: 'alter sequence ?? rename to ??',
  };
  for (const { relname, relkind } of relations.rows as Array<{ relname: string; relkind: keyof typeof statement }>) {
    await db.raw(statement[relkind], [relname, renamed(relname)]);
  }
}

async function createTables(db: Knex): Promise<void> {
  const indexes = `${PREFIX}indexes`;
  const documents = `${PREFIX}documents`;
  await db.schema.createTable(indexes, (t) => {
    t.increments('id').primary();
    t.string('site_id', 36).notNullable();
    t.string('locale', 16).notNullable();
    // sha256 of the index key (the fields that decide the content), or "anonymous:<uuid>" (tests, benchmarks).
    t.string('index_key', 100).notNullable();
    t.jsonb('schema').notNullable();
    // Every change of the document store's log up to this seq is in the index; null while first filled.
    t.bigInteger('applied_seq');
    t.unique(['site_id', 'locale', 'index_key'], { indexName: `${indexes}_scope` });
  });
  // version: the change-log seq the row's content is current for (0: written without one, tests and benchmarks);
  // a write carrying a lower version than the row's is dropped, so a slow process cannot put an older version
  // back. A removal leaves a tombstone (deleted_at set, nothing searchable) holding its version for the same
  // reason; tombstones go an hour later (engine/postgres-engine.ts).
  await db.raw(`create table ${documents} (
    index_id integer not null references ${indexes}(id) on delete cascade,
    doc_id text not null,
    seq bigserial not null,
    version bigint not null default 0,
    deleted_at timestamptz,
    tsv tsvector not null,
    facet_terms text[] not null,
    numbers jsonb not null,
    strings jsonb not null,
    phrases text[] not null,
    primary key (index_id, doc_id)
  )`);
  // Not (index_id, tsv) with btree_gin: every query then walks index_id's posting tree, as long as the whole
  // index; measured slower on the Debian slice with one index per table (docs/BENCHMARKS.md, PostgreSQL engine).
  await db.raw(`create index ${documents}_tsv on ${documents} using gin (tsv)`);
  await db.raw(`create index ${documents}_facets on ${documents} using gin (facet_terms)`);
  // Match-all and filter-only pages in indexing order read this in order and stop at the page's end.
  await db.raw(`create index ${documents}_order on ${documents} (index_id, seq) where deleted_at is null`);
  await db.raw(
    `create index ${documents}_tombstones on ${documents} (index_id, deleted_at) where deleted_at is not null`,
  );
}
