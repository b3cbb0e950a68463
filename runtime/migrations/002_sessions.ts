import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('runtime_sessions', (t) => {
    // SHA-256 of the cookie value: a leaked table does not give working sessions.
    t.string('id_hash', 64).primary();
    t.string('username', 64).notNullable();
    t.string('csrf_token', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('runtime_sessions');
}
