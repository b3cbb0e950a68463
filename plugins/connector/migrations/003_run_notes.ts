import type { Knex } from 'vela/plugin';

// What a source said about a run as a whole (a host left out, and why), as a JSON array of strings.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('connector_runs', (t) => {
    t.text('notes');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('connector_runs', (t) => {
    t.dropColumn('notes');
  });
}
