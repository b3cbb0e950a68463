import type { Knex } from 'knex';

// The password limits that must hold across restarts and across the processes sharing this database
// (runtime/auth/account-lockout.ts): each account's failures, and the addresses that signed it in lately.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('runtime_login_failures', (t) => {
    t.string('username', 64).primary();
    // Epoch milliseconds: compared and updated in one statement on both databases.
    t.bigInteger('window_start').notNullable();
    t.integer('failures').notNullable();
  });
  await db.schema.createTable('runtime_trusted_addresses', (t) => {
    t.string('username', 64).notNullable();
    t.string('address', 64).notNullable();
    t.bigInteger('signed_in_at').notNullable();
    t.primary(['username', 'address']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('runtime_trusted_addresses');
  await db.schema.dropTableIfExists('runtime_login_failures');
}
