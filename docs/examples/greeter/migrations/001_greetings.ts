import type { Knex } from 'vela/plugin';

// Every table of a plugin starts with its name: the runtime refuses a migration that does otherwise.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('greeter_greetings', (t) => {
    t.increments('id').primary();
    t.string('name', 200).notNullable();
    t.text('text').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('greeter_greetings');
}
