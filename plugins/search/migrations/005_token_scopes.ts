import type { Knex } from 'vela/plugin';

// What each API token may do (a JSON list of scopes). Tokens made before scopes existed keep full access.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('search_api_tokens', (t) => {
    t.string('scopes', 200).notNullable().defaultTo('["admin"]');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('search_api_tokens', (t) => {
    t.dropColumn('scopes');
  });
}
