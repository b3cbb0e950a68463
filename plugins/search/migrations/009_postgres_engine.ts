import type { Knex } from 'vela/plugin';

// The PostgreSQL engine's tables belong to the search-postgres plugin (its migrations/): this step made them,
// as search_engine_*, in databases that had the engine in this plugin, and that plugin takes them over from
// there. It stays in the list because databases record it as applied; it creates nothing.
export async function up(_db: Knex): Promise<void> {}
