import { dropTables, type Knex } from 'vela/plugin';

// Sources, their documents' indexing status, run statistics and indexing rules.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('connector_sources', (t) => {
    t.string('name', 100).primary();
    t.string('kind', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('sites').notNullable();
    t.string('locale', 10).notNullable();
    t.string('schedule', 200);
    t.text('settings').notNullable();
    t.string('origin', 10).notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  // One row per document of a source: what was last sent (checksum) and how it went (status, error).
  await db.schema.createTable('connector_documents', (t) => {
    t.increments('id').primary();
    t.string('source', 100).notNullable();
    t.string('object_id', 400).notNullable();
    t.string('status', 20).notNullable();
    t.string('checksum', 64);
    t.string('locale', 10).notNullable();
    t.text('sites').notNullable();
    t.text('error');
    t.string('run_id', 36);
    t.string('created_at', 30).notNullable();
    t.string('modified_at', 30).notNullable();
    t.unique(['source', 'object_id']);
    t.index(['source', 'status']);
    t.index(['source', 'modified_at']);
  });
  await db.schema.createTable('connector_runs', (t) => {
    t.string('id', 36).primary();
    t.string('source', 100).notNullable();
    t.string('kind', 100).notNullable();
    t.string('operation', 20).notNullable();
    t.string('trigger', 20).notNullable();
    t.string('status', 20).notNullable();
    t.string('start_time', 30).notNullable();
    t.string('end_time', 30);
    t.text('counts').notNullable();
    t.text('error');
    t.index(['source', 'start_time']);
  });
  await db.schema.createTable('connector_rules', (t) => {
    t.string('id', 36).primary();
    t.string('name', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('source', 100).notNullable();
    t.string('attribute', 200).notNullable();
    t.string('rule_type', 20).notNullable();
    t.text('values').notNullable();
    t.string('last_modified', 30).notNullable();
    t.index(['source']);
  });
  await db.schema.createTable('connector_meta', (t) => {
    t.string('key', 100).primary();
    t.text('value').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, [
    'connector_meta',
    'connector_rules',
    'connector_runs',
    'connector_documents',
    'connector_sources',
  ]);
}
