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
  await db.raw(`create table search_engine_documents (
    index_id integer not null references search_engine_indexes(id) on delete cascade,
    doc_id text not null,
    seq bigserial not null,
    tsv tsvector not null,
    facets jsonb not null,
    facet_terms text[] not null,
    numbers jsonb not null,
    strings jsonb not null,
    phrases text[] not null,
    primary key (index_id, doc_id)
  )`);
  await db.raw('create index search_engine_documents_tsv on search_engine_documents using gin (tsv)');
  await db.raw('create index search_engine_documents_facets on search_engine_documents using gin (facet_terms)');
}

export async function down(db: Knex): Promise<void> {
  if (db.client.dialect !== 'postgresql') return;
  await db.schema.dropTableIfExists('search_engine_documents');
  await db.schema.dropTableIfExists('search_engine_indexes');
}
