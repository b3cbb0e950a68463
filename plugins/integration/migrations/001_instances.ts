import type { Knex } from 'vela/plugin';

// Integration instances: targets of the integration proxy (/api/v2/integration/<id>/...). Header values to add
// (the connector's Key) are stored encrypted (AES-256-GCM, the plugin's secret box), bound to the instance id
// and header name; answers show a hint only.
//
// A database an earlier search plugin migrated holds the instances in search_integrations: that table becomes
// this one, rows and sealed header values as they are (a value's binding does not depend on the table's name).
export async function up(db: Knex): Promise<void> {
  if (await db.schema.hasTable('search_integrations')) {
    await db.schema.renameTable('search_integrations', 'integration_instances');
    // PostgreSQL names the primary key's index after the table; SQLite's is implicit.
    if (db.client.config.client === 'pg')
      await db.raw('alter index if exists search_integrations_pkey rename to integration_instances_pkey');
    return;
  }
  await db.schema.createTable('integration_instances', instanceColumns(db));
}

/** The instances' columns, as search_integrations had them too (the upgrade test makes that table with them). */
export function instanceColumns(db: Knex): (t: Knex.CreateTableBuilder) => void {
  return (t) => {
    t.string('id', 36).primary();
    t.string('title', 100).notNullable();
    t.string('description', 1000).notNullable().defaultTo('');
    t.string('vendor', 40).notNullable();
    t.string('endpoint', 2000).notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    // JSON lists: path prefixes the proxy may forward to ([] = any), methods it forwards (reads only unless
    // listed: the proxy is public, so a write would be anyone's, with the instance's headers).
    t.text('allowed_paths').notNullable().defaultTo('[]');
    t.string('allowed_methods', 100).notNullable().defaultTo('["GET","HEAD"]');
    // JSON list of {name, value (encrypted), hint}.
    t.text('headers').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  };
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('integration_instances');
}
