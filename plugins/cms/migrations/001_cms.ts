import { dropTables, type Knex } from 'vela/plugin';

// Content-repository sources (their settings as JSON, the password sealed apart) and the path-list requests
// of the last moments, kept here rather than in memory so that a restart does not forget them.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('cms_sources', (t) => {
    t.string('id', 36).primary();
    t.string('name', 80).notNullable().unique();
    t.text('settings').notNullable();
    t.text('password').notNullable();
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await db.schema.createTable('cms_requests', (t) => {
    t.string('request_key', 64).primary();
    t.bigInteger('accepted_at').notNullable();
    t.index(['accepted_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, ['cms_requests', 'cms_sources']);
}
