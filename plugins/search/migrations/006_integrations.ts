import type { Knex } from 'vela/plugin';

// Integration instances belong to the integration plugin. In a database an earlier search plugin migrated,
// this migration made their table (search_integrations), which the integration plugin's first migration takes
// over. It stays, doing nothing: such databases record it as applied, and every applied migration must still be
// in the folder.
export async function up(_db: Knex): Promise<void> {}

export async function down(_db: Knex): Promise<void> {}
