import { dropTables, type Knex } from 'vela/plugin';

// Documents are stored so an index can always be rebuilt; the change log orders what the indexer
// applies to the in-memory engines (and lets a snapshot catch up from its sequence number).
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('search_documents', (t) => {
    t.string('site_id', 36).notNullable().references('id').inTable('search_sites').onDelete('CASCADE');
    t.string('locale', 10).notNullable();
    t.string('doc_id', 400).notNullable();
    t.string('doc_type', 200);
    t.text('attributes').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['site_id', 'locale', 'doc_id']);
    t.index(['site_id', 'locale', 'doc_type']);
  });
  await db.schema.createTable('search_changes', (t) => {
    t.bigIncrements('seq').primary();
    t.string('site_id', 36).notNullable();
    t.string('locale', 10).notNullable();
    t.string('action', 10).notNullable();
    t.string('doc_id', 400).notNullable();
    t.text('attributes');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['site_id', 'locale', 'seq']);
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, ['search_changes', 'search_documents']);
}
