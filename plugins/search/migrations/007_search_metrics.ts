import type { Knex } from 'vela/plugin';

// Search metrics are the search-metrics plugin's: its first migration creates its table, or takes over the
// search_metric_searches an earlier version of this migration created. The file stays, empty, because
// existing databases list it among the search plugin's applied migrations.
export async function up(_db: Knex): Promise<void> {}

export async function down(_db: Knex): Promise<void> {}
