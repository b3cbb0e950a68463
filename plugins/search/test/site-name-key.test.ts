import test, { type ExecutionContext } from 'ava';
import knexFactory, { type Knex } from 'knex';
import { onBothDatabases } from 'vela/testing';
import * as sites from '../migrations/001_sites.js';
import * as nameKey from '../migrations/004_site_name_key.js';

/** Names an earlier version could store (a race let "news" in beside "News"), then the migration. */
async function migrateDuplicates(t: ExecutionContext, db: Knex): Promise<void> {
  await sites.up(db);
  const row = (id: string, name: string, minute: number) => ({
    id,
    name,
    settings: '{}',
    created_at: new Date(Date.UTC(2026, 0, 1, 0, minute)),
  });
  await db('search_sites').insert([
    row('a', 'News', 0),
    row('b', 'news', 1),
    row('c', 'NEWS', 2),
    row('d', 'news-2', 3),
    row('e', 'Other', 4),
  ]);
  await nameKey.up(db);
  const names = (await db('search_sites').select('id', 'name').orderBy('id')).map((r: { id: string; name: string }) => [
    r.id,
    r.name,
  ]);
  t.deepEqual(names, [
    ['a', 'News'],
    ['b', 'news-3'],
    ['c', 'NEWS-4'],
    ['d', 'news-2'],
    ['e', 'Other'],
  ]);
  // The database now refuses a name that differs only in case.
  await t.throwsAsync(() => db('search_sites').insert(row('f', 'OTHER', 5)));
  await nameKey.down(db);
  await db('search_sites').insert(row('f', 'OTHER', 5));
}

onBothDatabases(
  test,
  '004 renames names stored twice ignoring case, then keeps names unique ignoring case',
  async (t, databaseUrl) => {
    const db = databaseUrl
      ? knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 } })
      : knexFactory({
          client: 'sqlite3',
          connection: { filename: ':memory:' },
          useNullAsDefault: true,
          pool: { min: 1, max: 1 },
        });
    t.teardown(() => db.destroy());
    await migrateDuplicates(t, db);
  },
);
