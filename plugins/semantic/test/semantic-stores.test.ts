import test from 'ava';
import { createLogger, onBothDatabases } from 'vela/testing';
import { ModelStore, type NewModel } from '../store/model-store.js';
import { DEFAULT_SETTINGS, SemanticSettingsStore } from '../store/settings-store.js';
import { storeDatabase } from './store-database.js';

const logger = createLogger({ level: 'silent' });

onBothDatabases(test, 'site settings: defaults until saved, kept across a reload, reset and pruned', async (t, url) => {
  const { db } = await storeDatabase(t, url);
  let announced = 0;
  const store = new SemanticSettingsStore(db, logger, false, async () => {
    announced += 1;
  });
  await store.load();
  t.deepEqual(store.forSite('s1'), { ...DEFAULT_SETTINGS, enabled: false, custom: false, updatedAt: null });
  t.true(new SemanticSettingsStore(db, logger, true).forSite('s1').enabled);

  const saved = await store.save('s1', { enabled: true, fields: ['title', 'text'], window: 50, embedder: 'llm-1' });
  t.like(saved, { enabled: true, fields: ['title', 'text'], window: 50, embedder: 'llm-1', rrfK: 60, custom: true });
  t.is(announced, 1);
  await store.save('s2', { passageChars: 400, passageOverlap: 40, rrfK: 10 });

  const other = new SemanticSettingsStore(db, logger);
  await other.load();
  t.deepEqual(other.forSite('s1'), saved);
  t.like(other.forSite('s2'), {
    enabled: false,
    passageChars: 400,
    passageOverlap: 40,
    rrfK: 10,
    window: 100,
    fields: [],
  });
  t.deepEqual(await other.sitesUsing('llm-1'), ['s1']);

  t.like(await store.reset('s1'), { custom: false, enabled: false });
  t.deepEqual(await store.prune((siteId) => siteId !== 's2'), ['s2']);
  await other.load();
  t.false(other.forSite('s2').custom);
});

const model = (modelKey: string, bytes: Uint8Array | null = null): NewModel => ({
  siteId: 's1',
  locale: 'en',
  modelKey,
  kind: bytes ? 'builtin' : 'instance',
  dimensions: 256,
  documents: 10,
  bytes,
});

onBothDatabases(
  test,
  'models: bytes round trip, one active per site and locale, the one before retired',
  async (t, url) => {
    const { db } = await storeDatabase(t, url);
    const store = new ModelStore(db);
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) % 256);
    const info = await store.save(model('builtin:v1', bytes));
    t.like(info, { modelKey: 'builtin:v1', kind: 'builtin', state: 'training', dimensions: 256, documents: 10 });
    t.false(Number.isNaN(Date.parse(info.createdAt)));
    t.deepEqual((await store.get('s1', 'en', 'builtin:v1'))?.bytes, bytes);
    t.is(await store.active('s1', 'en'), undefined);

    t.true(await store.activate('s1', 'en', 'builtin:v1'));
    t.like(await store.active('s1', 'en'), { modelKey: 'builtin:v1', state: 'active' });
    t.deepEqual((await store.active('s1', 'en'))?.bytes, bytes);
    // Saved again (same content): keeps its state.
    await store.save({ ...model('builtin:v1', bytes), documents: 12 });
    t.like(await store.info('s1', 'en', 'builtin:v1'), { state: 'active', documents: 12 });

    await store.save(model('llm-1:embed:256'));
    t.is((await store.get('s1', 'en', 'llm-1:embed:256'))?.bytes, null);
    t.true(await store.activate('s1', 'en', 'llm-1:embed:256'));
    t.deepEqual(
      (await store.list('s1')).map((m) => `${m.modelKey} ${m.state}`),
      ['builtin:v1 retired', 'llm-1:embed:256 active'],
    );
    t.false(await store.activate('s1', 'en', 'nope'));
    t.is((await store.active('s1', 'en'))?.modelKey, 'llm-1:embed:256', 'a failed activation changes nothing');

    // Concurrent activations end with exactly one active model.
    await store.save(model('builtin:v2', bytes));
    await Promise.all([store.activate('s1', 'en', 'builtin:v2'), store.activate('s1', 'en', 'builtin:v1')]);
    t.is((await store.list('s1')).filter((m) => m.state === 'active').length, 1);

    t.true(await store.retire('s1', 'en', 'builtin:v2'));
    await store.setDocuments('s1', 'en', 'builtin:v1', 99);
    t.is((await store.info('s1', 'en', 'builtin:v1'))?.documents, 99);
    await store.remove('s1', 'en', 'builtin:v2');
    t.is(await store.info('s1', 'en', 'builtin:v2'), undefined);
    await store.forgetSite('s1');
    t.deepEqual(await store.list(), []);
  },
);
