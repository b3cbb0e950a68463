import { dropTables, type Knex } from 'vela/plugin';

// Site and field settings are JSON documents validated by schemas/site.json and schemas/field.json,
// so adding a setting needs no migration; names that are looked up get their own columns.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('search_sites', (t) => {
    t.string('id', 36).primary();
    t.string('name', 100).notNullable().unique();
    t.text('settings').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('search_site_locales', (t) => {
    t.string('id', 36).primary();
    t.string('site_id', 36).notNullable().references('id').inTable('search_sites').onDelete('CASCADE');
    t.string('locale', 10).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['site_id', 'locale']);
  });
  await db.schema.createTable('search_fields', (t) => {
    t.string('id', 36).primary();
    t.string('site_id', 36).notNullable().references('id').inTable('search_sites').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('settings').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['site_id', 'name']);
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, ['search_fields', 'search_site_locales', 'search_sites']);
}
