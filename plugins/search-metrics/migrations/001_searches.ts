import type { Knex } from 'vela/plugin';

// Search metrics: one row per recorded search (REST searches whose q is not *, unless a POST sets
// populateMetrics to false), written in batches by the metrics recorder, off the request path. Read by
// latest searches (per user) and the metrics API (top and zero-result terms per period).
//
// A database an earlier search plugin migrated holds them in search_metric_searches: that table becomes this
// one, rows and indexes as they are.
export async function up(db: Knex): Promise<void> {
  if (await db.schema.hasTable('search_metric_searches')) {
    await db.schema.renameTable('search_metric_searches', 'search_metrics_searches');
    // On PostgreSQL the primary key's index, the id's sequence and the two indexes are renamed with it (a cheap
    // rename); SQLite has no index rename, and rebuilding them is not worth the names: they keep theirs there.
    if (db.client.config.client === 'pg') {
      for (const [kind, suffix] of [
        ['index', 'pkey'],
        ['sequence', 'id_seq'],
        ['index', 'site_time'],
        ['index', 'user_time'],
      ]) {
        await db.raw(
          `alter ${kind} if exists search_metric_searches_${suffix} rename to search_metrics_searches_${suffix}`,
        );
      }
    }
    return;
  }
  await createSearchesTable(db, 'search_metrics_searches');
}

/** The searches table, named `table`, its indexes after it: as search_metric_searches was made too. */
export async function createSearchesTable(db: Knex, table: string): Promise<void> {
  await db.schema.createTable(table, (t) => {
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
    t.index(['site_id', 'searched_at'], `${table}_site_time`);
    t.index(['site_id', 'user_id', 'searched_at'], `${table}_user_time`);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('search_metrics_searches');
}
