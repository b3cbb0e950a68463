import test, { type ExecutionContext } from 'ava';
import { CachedTable, type Database } from 'vela/plugin';
import { createLogger, startTestRuntime } from 'vela/testing';
import { ApiTokens } from '../auth/api-tokens.js';
import { SiteStore } from '../store/site-store.js';
import { heldRead } from './fixtures.js';

const silent = createLogger({ level: 'silent' });

/** The database of a search runtime started for the test, its next read of `table` held back on demand. */
async function heldDatabase(t: ExecutionContext, table: string): Promise<ReturnType<typeof heldRead>> {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  return heldRead(vela.runtime.resolve('db') as Database, table);
}

test("a cached table's load during whose read the store wrote reads again; writes during every read keep the map", async (t) => {
  let reads = 0;
  let duringRead = (_read: number) => {};
  const db = (() => ({
    select: () => {
      reads += 1;
      duringRead(reads);
      return Promise.resolve([{ id: 'a', read: reads }]);
    },
  })) as unknown as Database;
  const table = new CachedTable<{ id: string; read: number }, number>({
    db,
    table: 't',
    keyOf: (r) => r.id,
    fromRow: (r) => r.read,
    logger: silent,
  });
  await table.load();
  t.is(table.get('a'), 1);
  duringRead = (read) => {
    if (read === 2) table.set('b', 0);
  };
  await table.load();
  t.is(reads, 3, 'the read that a write overtook was made again');
  t.is(table.get('a'), 3);
  duringRead = () => table.set('c', 0);
  await table.load();
  t.is(reads, 6);
  t.is(table.get('a'), 3, 'no read was kept: the map stays as the writes left it');
  t.is(table.get('c'), 0);
});

test("a reload of the API tokens whose read began before a token's deletion does not bring the token back", async (t) => {
  const late = await heldDatabase(t, 'search_api_tokens');
  const tokens = new ApiTokens(late.db, silent);
  await tokens.load();
  const created = await tokens.create('short-lived', '', 'admin');
  t.truthy(tokens.verify(created.token));
  late.hold();
  const reload = tokens.load();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await tokens.delete(created.id);
  late.release();
  await reload;
  t.is(tokens.verify(created.token), null, 'the deleted token stays refused');
});

test('a refresh of the sites whose read began before this process created a site neither drops nor announces it deleted', async (t) => {
  const late = await heldDatabase(t, 'search_sites');
  const sites = new SiteStore(late.db, silent);
  await sites.load();
  const changes: string[] = [];
  sites.onChange((change) => {
    changes.push(change.kind);
  });
  late.hold();
  const refresh = sites.refresh();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const creating = sites.create({ name: 'Meanwhile', locales: ['en_US'] });
  await new Promise((resolve) => setTimeout(resolve, 50));
  late.release();
  await Promise.all([refresh, creating]);
  t.truthy(sites.find('Meanwhile'), 'the site created meanwhile is still known');
  t.false(changes.includes('site-deleted'));
});
