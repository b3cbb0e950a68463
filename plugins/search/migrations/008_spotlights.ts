import type { Knex } from 'vela/plugin';

// Spotlights: curated documents shown (and, with the site's spotlightWithResults, injected into the results)
// when a query contains one of their terms. Managed ones come from the admin API, unmanaged ones from the
// import API (items of type TUR_SPOTLIGHT), keyed by the id and provider the importer gave them. Terms and
// documents are replaced whole on every write, so they are JSON lists in the row.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('search_spotlights', (t) => {
    t.string('id', 36).primary();
    t.string('site_id', 36).notNullable().references('id').inTable('search_sites').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('description', 1000).notNullable().defaultTo('');
    t.string('locale', 10).notNullable();
    t.boolean('managed').notNullable().defaultTo(true);
    t.string('unmanaged_id', 400);
    t.string('provider', 100).notNullable();
    t.string('modification_date', 40);
    t.text('terms').notNullable().defaultTo('[]');
    t.text('documents').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['site_id'], 'search_spotlights_site');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('search_spotlights');
}
