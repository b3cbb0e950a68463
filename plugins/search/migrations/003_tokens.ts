import type { Knex } from 'vela/plugin';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('search_api_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('title', 100).notNullable();
    t.text('description');
    // SHA-256 of the token: tokens are 192-bit random values, so a fast hash is enough and lets
    // the Key header be checked with one lookup.
    t.string('token_hash', 64).notNullable().unique();
    t.string('token_hint', 16).notNullable();
    t.string('created_by', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('search_api_tokens');
}
