import test, { type ExecutionContext } from 'ava';
import { postgresReachable, testDatabase } from 'vela/testing';
import { type StatusRecord, StatusStore, type StatusUpdate } from '../pipeline/status-store.js';
import { startConnector } from './helpers.js';

const pgTest = postgresReachable() ? test : test.skip;

async function storeOn(t: ExecutionContext, databaseUrl?: string): Promise<StatusStore> {
  const vela = await startConnector(databaseUrl ? { databaseUrl } : {});
  t.teardown(() => vela.stop());
  return new StatusStore(vela.runtime.db);
}

const update = (objectId: string, extra: Partial<StatusUpdate> = {}): StatusUpdate => ({
  objectId,
  status: 'INDEXED',
  checksum: `sum-${objectId}`,
  locale: 'en_US',
  sites: ['Docs'],
  error: null,
  ...extra,
});

const byId = async (store: StatusStore, ids: string[]): Promise<Map<string, StatusRecord>> =>
  new Map((await store.byObjectIds(ids)).map((r) => [r.objectId, r]));

async function recordsAsUpsertedOneByOne(t: ExecutionContext, store: StatusStore): Promise<void> {
  await store.record('src', 'run-1', [
    update('a'),
    update('b', { status: 'ERROR', checksum: null, error: 'refused: "why" ✓' }),
    update('c'),
  ]);
  const first = await byId(store, ['a', 'b', 'c']);
  t.like(first.get('b'), {
    source: 'src',
    status: 'ERROR',
    checksum: null,
    error: 'refused: "why" ✓',
    locale: 'en_US',
    sites: ['Docs'],
    transactionId: 'run-1',
  });
  t.true(
    first.get('a')!.id < first.get('b')!.id && first.get('b')!.id < first.get('c')!.id,
    'rows are created in the order given',
  );

  // An update keeps the row (its id and creation time); an object named twice in one call ends as its last update.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await store.record('src', 'run-2', [
    update('b'),
    update('d', { status: 'IGNORED', checksum: null }),
    update('a', { locale: 'pt_BR', sites: ['Docs', 'Other'] }),
    update('d', { checksum: 'second' }),
  ]);
  const second = await byId(store, ['a', 'b', 'c', 'd']);
  t.like(second.get('a'), {
    id: first.get('a')!.id,
    created: first.get('a')!.created,
    locale: 'pt_BR',
    sites: ['Docs', 'Other'],
    transactionId: 'run-2',
  });
  t.not(second.get('a')!.modificationDate, first.get('a')!.modificationDate);
  t.like(second.get('b'), { status: 'INDEXED', checksum: 'sum-b', error: null, transactionId: 'run-2' });
  t.like(second.get('c'), { transactionId: 'run-1' });
  t.like(second.get('d'), { status: 'INDEXED', checksum: 'second' });
  t.is((await store.targets('src')).length, 4);

  // More than one statement's rows: all recorded, in one transaction.
  const many = Array.from({ length: 2345 }, (_, i) =>
    update(`m${String(i).padStart(5, '0')}`, { sites: [i % 2 ? 'Docs' : 'Other'] }),
  );
  await store.record('src', 'run-3', many);
  t.deepEqual(await store.counts('src'), { INDEXED: 2349 });
  t.deepEqual(
    (await store.byObjectIds(['m00001', 'm02344'])).map((r) => [r.objectId, r.sites]),
    [
      ['m00001', ['Docs']],
      ['m02344', ['Other']],
    ],
  );
}

test('sqlite: a batch of status records is upserted as one by one, each object once with its last update', async (t) => {
  await recordsAsUpsertedOneByOne(t, await storeOn(t));
});

pgTest(
  'postgres: a batch of status records is upserted as one by one, each object once with its last update',
  async (t) => {
    await recordsAsUpsertedOneByOne(t, await storeOn(t, (await testDatabase(t)).url));
  },
);
