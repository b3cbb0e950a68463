import type { Knex } from 'vela/plugin';

// The PostgreSQL search engine (engine/postgres-engine.ts, `"engine": "postgres"`): one row per index (a site,
// locale and field configuration) and one per document of it. PostgreSQL only: on SQLite the memory engine is
// the only one, so nothing is created there.
export async function up(db: Knex): Promise<void> {
  if (db.client.dialect !== 'postgresql') return;
  await db.schema.createTable('search_engine_indexes', (t) => {
    t.increments('id').primary();
    t.string('site_id', 36).notNullable();
    t.string('locale', 16).notNullable();
    // sha256 of the index key (the fields that decide the content), or "anonymous:<uuid>" (tests, benchmarks).
    t.string('index_key', 100).notNullable();
    t.jsonb('schema').notNullable();
    // Every change of the document store's log up to this seq is in the index; null while first filled.
    t.bigInteger('applied_seq');
    t.unique(['site_id', 'locale', 'index_key'], { indexName: 'search_engine_indexes_scope' });
  });
  // version: the change-log seq the row's content is current for (0: written without one, tests and benchmarks);
  // a write carrying a lower version than the row's is dropped, so a slow process cannot put an older version
  // back. A removal leaves a tombstone (deleted_at set, nothing searchable) holding its version for the same
  // reason; tombstones go an hour later (engine/postgres-engine.ts).
  await db.raw(`create table search_engine_documents (
    index_id integer not null references search_engine_indexes(id) on delete cascade,
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
  await db.raw('create index search_engine_documents_tsv on search_engine_documents using gin (tsv)');
  await db.raw('create index search_engine_documents_facets on search_engine_documents using gin (facet_terms)');
  // Match-all and filter-only pages in indexing order read this in order and stop at the page's end.
  await db.raw('create index search_engine_documents_order on search_engine_documents (index_id, seq) where deleted_at is null');
  await db.raw('create index search_engine_documents_tombstones on search_engine_documents (index_id, deleted_at) where deleted_at is not null');
}

export async function down(db: Knex): Promise<void> {
  if (db.client.dialect !== 'postgresql') return;
  await db.schema.dropTableIfExists('search_engine_documents');
  await db.schema.dropTableIfExists('search_engine_indexes');
}
