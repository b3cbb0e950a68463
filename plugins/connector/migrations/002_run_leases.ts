import type { Knex } from 'vela/plugin';

// One row per source with a run going: which process holds it and until when (renewed while it runs), so
// processes sharing one database never run a source at the same time.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('connector_run_leases', (t) => {
    t.string('source', 100).primary();
    t.string('run_id', 36).notNullable();
    t.string('holder', 300).notNullable();
    t.string('expires_at', 30).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('connector_run_leases');
}
