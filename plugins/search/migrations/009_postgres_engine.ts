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
  // With btree_gin the GIN indexes lead with index_id, so a site's query does not walk the posting lists of
  // every other index sharing the table. The extension is trusted (PostgreSQL 13+): a role with CREATE on the
  // database may install it; without it the indexes are on the document columns alone.
  const gin = (await btreeGin(db)) ? 'index_id, ' : '';
  await db.raw(`create index search_engine_documents_tsv on search_engine_documents using gin (${gin}tsv)`);
  await db.raw(`create index search_engine_documents_facets on search_engine_documents using gin (${gin}facet_terms)`);
  // Match-all and filter-only pages in indexing order read this in order and stop at the page's end.
  await db.raw('create index search_engine_documents_order on search_engine_documents (index_id, seq) where deleted_at is null');
  await db.raw('create index search_engine_documents_tombstones on search_engine_documents (index_id, deleted_at) where deleted_at is not null');
}

async function btreeGin(db: Knex): Promise<boolean> {
  const installed = await db.raw(`select 1 from pg_extension where extname = 'btree_gin'`);
  if (installed.rows.length > 0) return true;
  const available = await db.raw(
    `select 1 from pg_available_extensions where name = 'btree_gin' and has_database_privilege(current_database(), 'CREATE')`,
  );
  if (available.rows.length === 0) return false;
  try {
    // A savepoint (the migration runs in a transaction): a refusal must not abort the migration.
    await db.transaction((savepoint) => savepoint.raw('create extension if not exists btree_gin'));
    return true;
  } catch {
    return false;
  }
}

export async function down(db: Knex): Promise<void> {
  if (db.client.dialect !== 'postgresql') return;
  await db.schema.dropTableIfExists('search_engine_documents');
  await db.schema.dropTableIfExists('search_engine_indexes');
}
