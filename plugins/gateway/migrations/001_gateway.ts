import { dropTables, type Knex } from 'vela/plugin';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('gateway_mappings', (t) => {
    t.string('id', 36).primary();
    t.string('name', 100).notNullable();
    t.string('context', 600).notNullable().unique();
    t.string('url', 2000).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.integer('timeout_ms');
    t.string('health_check_path', 1000);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await db.schema.createTable('gateway_apps', (t) => {
    t.string('id', 36).primary();
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('callback_urls').notNullable();
    // The four credentials are shown to the administrator on every read, so they are kept as
    // issued; tokens and codes issued by the OAuth2 endpoints are stored as SHA-256 only.
    t.string('api_key', 32).notNullable().unique();
    t.string('api_secret', 32).notNullable();
    t.string('access_token', 32);
    t.string('access_token_secret', 32);
    t.string('created_at', 30).notNullable();
    t.string('updated_at', 30).notNullable();
  });
  await db.schema.createTable('gateway_codes', (t) => {
    t.string('code_hash', 64).primary();
    t.string('app_id', 36).notNullable().index();
    t.string('redirect_uri', 2000).notNullable();
    t.string('code_challenge', 128);
    t.string('scope', 500);
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at');
  });
  await db.schema.createTable('gateway_tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.string('kind', 10).notNullable();
    t.string('app_id', 36).notNullable().index();
    t.string('grant_type', 30).notNullable();
    t.string('code_hash', 64);
    t.string('scope', 500);
    t.bigInteger('expires_at').notNullable();
    t.boolean('revoked').notNullable().defaultTo(false);
    t.bigInteger('created_at').notNullable();
    // Set when the token is issued or revoked: other processes apply the rows changed since their last look.
    t.bigInteger('changed_at').notNullable().index();
  });
  // One counter per kind of small state; another process sharing the database reloads what moved.
  await db.schema.createTable('gateway_versions', (t) => {
    t.string('kind', 20).primary();
    t.bigInteger('version').notNullable();
  });
  await db('gateway_versions').insert([
    { kind: 'mappings', version: 0 },
    { kind: 'apps', version: 0 },
  ]);
  // Response times per mapping and minute, one row per writing process (so processes never
  // contend for a row); `histogram` is a sparse log-scale histogram of microseconds, as JSON.
  await db.schema.createTable('gateway_response_times', (t) => {
    t.string('mapping_id', 36).notNullable();
    t.bigInteger('minute').notNullable();
    t.string('process_id', 36).notNullable();
    t.integer('count').notNullable();
    t.integer('errors').notNullable();
    t.text('histogram').notNullable();
    t.primary(['mapping_id', 'minute', 'process_id']);
    t.index(['minute']);
  });
  await db.schema.createTable('gateway_upstream_status', (t) => {
    t.string('mapping_id', 36).primary();
    t.string('status', 10).notNullable();
    t.float('latency_ms');
    t.string('last_checked_at', 30);
    t.string('last_change_at', 30);
    t.text('message');
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, [
    'gateway_upstream_status',
    'gateway_response_times',
    'gateway_versions',
    'gateway_tokens',
    'gateway_codes',
    'gateway_apps',
    'gateway_mappings',
  ]);
}
