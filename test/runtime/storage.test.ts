import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { Database } from '../../runtime/storage/database.js';
import { postgresReachable, testDatabase } from '../../runtime/testing/test-postgres.js';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

/** A plugin with two migrations and a route that writes and reads its table. */
const notesPlugin = () => ({
  manifest: manifest('notes', { migrations: './migrations', consumes: ['db'] }),
  files: {
    'migrations/001_notes.ts': `export async function up(db) { await db.schema.createTable('notes_items', (t) => { t.increments('id'); t.string('text').notNullable(); t.timestamp('created_at', { useTz: true }).defaultTo(db.fn.now()); }); }
      export async function down(db) { await db.schema.dropTable('notes_items'); }`,
    'migrations/002_tags.ts': `export async function up(db) { await db.schema.alterTable('notes_items', (t) => { t.jsonb('tags'); t.index(['text']); }); }
      export async function down(db) { await db.schema.alterTable('notes_items', (t) => { t.dropIndex(['text']); t.dropColumn('tags'); }); }`,
    'index.ts': `export default { register(ctx) { ctx.routes((r) => {
        r.post('/notes', { access: 'public' }, async (req, res) => { const db = ctx.resolve('db'); await db('notes_items').insert({ text: req.body.text, tags: JSON.stringify(req.body.tags ?? []) }); res.status(201).json({ ok: true }); });
        r.get('/notes', { access: 'public' }, async (_q, res) => { const rows = await ctx.resolve('db')('notes_items').select('text').orderBy('id'); res.json(rows.map((x) => x.text)); });
      }); } };`,
  },
});

async function migrationsRoundTrip(t: import('ava').ExecutionContext, databaseUrl?: string) {
  const loaderPath = await writePlugins([notesPlugin()]);
  const first = await startTestRuntime({ loaderPath: [loaderPath], databaseUrl });
  const post = (text: string) =>
    first.fetch('search', '/notes', {
      method: 'POST',
      body: JSON.stringify({ text, tags: ['x'] }),
      headers: { 'content-type': 'application/json' },
    });
  t.is((await post('first')).status, 201);
  t.is((await post('second')).status, 201);
  const db = first.runtime.db;
  const applied = await db('notes_knex_migrations').select('name').orderBy('id');
  t.deepEqual(
    applied.map((r: { name: string }) => r.name),
    ['001_notes', '002_tags'],
    'each plugin has its own migrations table',
  );
  t.truthy(await db('runtime_users').where({ username: 'admin' }).first(), "the runtime's own migrations ran");
  const dataDir = first.dataDir;
  await first.runtime.stop();

  // A second start on the same storage applies nothing again and keeps the rows.
  const second = await startTestRuntime({ loaderPath: [loaderPath], databaseUrl, dataDir });
  t.teardown(() => second.stop());
  t.deepEqual(await (await second.fetch('search', '/notes')).json(), ['first', 'second']);
  return second.runtime.db;
}

test('plugin migrations apply once on SQLite, in a WAL-mode file under the data dir', async (t) => {
  const db = await migrationsRoundTrip(t);
  const rows = (await db.raw('PRAGMA journal_mode')) as Array<{ journal_mode: string }>;
  t.is(rows[0]?.journal_mode, 'wal');
  t.is(db.client.config.client, 'sqlite3');
});

// Skipped (and counted as skipped) where no PostgreSQL answers; CI sets VELA_REQUIRE_POSTGRES=1,
// which turns a missing server into a failure instead.
const pgTest = postgresReachable() ? test : test.skip;

pgTest('the same migrations apply on PostgreSQL', async (t) => {
  const pg = await testDatabase(t);
  const db = await migrationsRoundTrip(t, pg.url);
  t.is(db.client.config.client, 'pg');
  const { rows } = (await db.raw(
    "select data_type from information_schema.columns where table_name = 'notes_items' and column_name = 'tags'",
  )) as {
    rows: Array<{ data_type: string }>;
  };
  t.is(rows[0]?.data_type, 'jsonb');
});

test("a migration that creates a table outside the plugin's prefix is refused", async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('tidy', { migrations: './migrations' }),
      files: {
        'migrations/001_bad.ts': `export async function up(db) { await db.schema.createTable('users', (t) => { t.increments('id'); }); }`,
        'index.ts': 'export default { register() {} };',
      },
    },
  ]);
  const dataDir = (await import('node:fs')).mkdtempSync(path.join((await import('node:os')).tmpdir(), 'vela-prefix-'));
  for (const attempt of [1, 2]) {
    const error = await t.throwsAsync(
      startTestRuntime({ loaderPath: [loaderPath], dataDir }),
      undefined,
      `start ${attempt}`,
    );
    t.is(error?.message, 'migrations of "tidy" created users; its tables must start with "tidy_"');
  }
  const { default: knex } = await import('knex');
  const db = knex({
    client: 'sqlite3',
    connection: { filename: path.join(dataDir, 'vela.sqlite') },
    useNullAsDefault: true,
  });
  t.teardown(() => db.destroy());
  t.false(await db.schema.hasTable('users'), 'the offending migration was rolled back, not recorded');
});

test('a failing migration names its plugin and the cause', async (t) => {
  const loaderPath = await writePlugins([
    {
      manifest: manifest('oops', { migrations: './migrations' }),
      files: {
        'migrations/001_bad.ts': `export async function up(db) { await db.raw('create tabel oops_x (id int)'); }`,
        'index.ts': 'export default { register() {} };',
      },
    },
  ]);
  const error = await t.throwsAsync(startTestRuntime({ loaderPath: [loaderPath] }));
  t.regex(error!.message, /^migrations of "oops" failed: .*syntax error/);
});

test('the SQLite file lives in the data dir', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  t.true(existsSync(path.join(vela.dataDir, 'vela.sqlite')));
  const db = vela.runtime.resolve<Database>('db');
  t.is(Number((await db('runtime_users').count({ n: '*' }).first())?.n), 1);
});
