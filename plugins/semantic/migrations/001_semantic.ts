import { dropTables, type Knex } from 'vela/plugin';

/**
 * Per-site settings, the embedding models (the built-in one's bytes), each document's embedding state per model,
 * the passage vectors and the log of vector writes that processes follow to keep their in-memory indexes current.
 */
export async function up(db: Knex): Promise<void> {
  const postgres = db.client.dialect === 'postgresql';

  await db.schema.createTable('semantic_site_settings', (t) => {
    t.string('site_id', 36).primary();
    t.boolean('enabled').notNullable();
    // 'builtin' or an LLM instance id.
    t.string('embedder', 36).notNullable();
    // Field names (a JSON array); empty: the site's default text fields.
    t.text('fields').notNullable();
    t.integer('passage_chars').notNullable();
    t.integer('passage_overlap').notNullable();
    t.integer('rrf_k').notNullable();
    // How many results each side of a hybrid search contributes (`window` is an SQL keyword).
    t.integer('window_size').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('semantic_models', (t) => {
    t.string('site_id', 36).notNullable();
    t.string('locale', 10).notNullable();
    t.string('model_key', 200).notNullable();
    t.string('kind', 10).notNullable();
    // The built-in embedder's serialised model; null for an LLM instance's.
    t.binary('bytes');
    t.integer('dimensions').notNullable();
    t.string('state', 10).notNullable();
    // How many documents the model was trained on (built-in) or has embedded.
    t.integer('documents').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['site_id', 'locale', 'model_key']);
  });
  // One active model per site and locale: what its vectors are searched with.
  await db.raw(
    "create unique index semantic_models_active on semantic_models (site_id, locale) where state = 'active'",
  );

  await db.schema.createTable('semantic_documents', (t) => {
    t.string('site_id', 36).notNullable();
    t.string('locale', 10).notNullable();
    t.string('doc_id', 400).notNullable();
    t.string('model_key', 200).notNullable();
    t.string('state', 10).notNullable();
    t.text('reason');
    t.string('text_hash', 100);
    t.integer('passages').notNullable().defaultTo(0);
    // Epoch milliseconds until which a worker holds the row; null or past: free to claim.
    t.bigInteger('claimed_until');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['site_id', 'locale', 'doc_id', 'model_key']);
    t.index(['site_id', 'locale', 'model_key', 'state']);
  });
  // Claims take the oldest pending rows: a partial index holds only those (both databases have partial indexes).
  await db.raw("create index semantic_documents_pending on semantic_documents (updated_at) where state = 'pending'");

  await db.schema.createTable('semantic_vectors', (t) => {
    t.string('site_id', 36).notNullable();
    t.string('locale', 10).notNullable();
    t.string('model_key', 200).notNullable();
    t.string('doc_id', 400).notNullable();
    t.integer('passage').notNullable();
    // Normalised float32 vectors: PostgreSQL real[] (searched in SQL), SQLite a blob of float32 little-endian.
    if (postgres) t.specificType('vector', 'real[]').notNullable();
    else t.binary('vector').notNullable();
    t.primary(['site_id', 'locale', 'model_key', 'doc_id', 'passage']);
  });

  // A row per document and write (its vectors replaced, or removed), in commit order: a process follows
  // `seq > applied` and reads the documents' current vectors. A log rather than a seq on the vectors
  // themselves, since a removal leaves no vector row to carry one.
  await db.schema.createTable('semantic_vector_changes', (t) => {
    t.bigIncrements('seq').primary();
    t.string('site_id', 36).notNullable();
    t.string('locale', 10).notNullable();
    t.string('model_key', 200).notNullable();
    t.string('doc_id', 400).notNullable();
    t.boolean('removed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, [
    'semantic_vector_changes',
    'semantic_vectors',
    'semantic_documents',
    'semantic_models',
    'semantic_site_settings',
  ]);
}
