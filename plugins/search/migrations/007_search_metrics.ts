import type { Knex } from 'vela/plugin';

// Search metrics: one row per recorded search (REST searches whose q is not *, unless a POST sets
// populateMetrics to false), written in batches by the metrics recorder, off the request path. Read by
// latest searches (per user) and the metrics API (top and zero-result terms per period).
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('search_metric_searches', (t) => {
    t.bigIncrements('id').primary();
    t.string('site_id', 36).notNullable();
    t.string('locale', 16).notNullable();
    // As sent (at most 200 characters), and as grouped: accents stripped, spaces collapsed, lower case.
    t.string('term', 200).notNullable();
    t.string('sanitized_term', 200).notNullable();
    t.string('user_id', 100);
    t.integer('num_found').notNullable();
    // Epoch milliseconds: period bounds compare the same way on SQLite and PostgreSQL.
    t.bigInteger('searched_at').notNullable();
    t.index(['site_id', 'searched_at'], 'search_metric_searches_site_time');
    t.index(['site_id', 'user_id', 'searched_at'], 'search_metric_searches_user_time');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('search_metric_searches');
}
