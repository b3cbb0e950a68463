import test from 'ava';
import { ownerOfTable, tablesOf } from '../../runtime/storage/table-scope.js';
import { manifest, startTestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

test('the tables a statement names are read from what knex writes on both databases and from raw SQL', (t) => {
  t.deepEqual(tablesOf('select `a`.* from `search_sites` as `a` inner join `search_docs` on 1 = 1'), [
    'search_sites',
    'search_docs',
  ]);
  t.deepEqual(tablesOf('insert into "public"."gateway_apps" ("id") values ($1)'), ['gateway_apps']);
  t.deepEqual(tablesOf('UPDATE runtime_users SET name = ? WHERE id IN (SELECT id FROM runtime_sessions)'), [
    'runtime_users',
    'runtime_sessions',
  ]);
  t.deepEqual(
    tablesOf(
      'create table if not exists `notes_items` (`id` integer, foreign key (`x`) references `other_things` (`id`))',
    ),
    ['notes_items', 'other_things'],
  );
  t.deepEqual(tablesOf('select 1'), []);
});

test('a table belongs to the owner with the longest prefix it starts with', (t) => {
  const owners = ['runtime', 'search', 'search-postgres'];
  t.is(ownerOfTable('search_postgres_docs', owners), 'search-postgres');
  t.is(ownerOfTable('search_sites', owners), 'search');
  t.is(ownerOfTable('runtime_users', owners), 'runtime');
  t.is(ownerOfTable('pg_tables', owners), undefined);
});

const migration = (
  table: string,
) => `export async function up(knex) { await knex.schema.createTable('${table}', (t) => { t.string('id').primary(); }); }
export async function down(knex) { await knex.schema.dropTable('${table}'); }`;

const plugin = (name: string) => ({
  manifest: manifest(name, { consumes: ['db'], migrations: './migrations' }),
  files: {
    'migrations/001_items.js': migration(`${name}_items`),
    'index.ts': `export default { register(ctx) { ctx.routes((r) => r.get('/${name}/read', { access: 'public', query: { type: 'object', properties: { table: { type: 'string' }, trx: { type: 'boolean' } } } }, async (req, res) => {
      try {
      const db = ctx.resolve('db');
      const table = req.query.table;
        const rows = req.query.trx ? await db.transaction((trx) => trx(table).select('id')) : await db(table).select('id');
        res.json({ rows: rows.length });
      } catch (e) { res.json({ code: e.code, message: e.message }); }
    })); } };`,
  },
});

test("a plugin's database handle reaches its own tables and refuses another plugin's and the runtime's, naming both", async (t) => {
  const loaderPath = await writePlugins([plugin('notes'), plugin('tasks')]);
  const vela = await startTestRuntime({ loaderPath: [loaderPath] });
  t.teardown(() => vela.stop());
  const read = async (query: string) => (await vela.fetch('search', `/notes/read?${query}`)).json();
  t.deepEqual(await read('table=notes_items'), { rows: 0 });
  t.deepEqual(await read('table=notes_items&trx=true'), { rows: 0 });
  t.deepEqual(await read('table=tasks_items'), {
    code: 'E_TABLE_SCOPE',
    message: `plugin "notes" queried table "tasks_items", which belongs to plugin "tasks" (reach it through that plugin's services); a plugin's database handle reaches only its own tables (notes_*)`,
  });
  t.like(await read('table=tasks_items&trx=true'), { code: 'E_TABLE_SCOPE' });
  t.deepEqual(await read('table=runtime_users'), {
    code: 'E_TABLE_SCOPE',
    message: `plugin "notes" queried table "runtime_users", which belongs to the runtime (reach it through its services: accounts, changes); a plugin's database handle reaches only its own tables (notes_*)`,
  });
  t.deepEqual(await (await vela.fetch('search', '/tasks/read?table=tasks_items')).json(), { rows: 0 });
});
