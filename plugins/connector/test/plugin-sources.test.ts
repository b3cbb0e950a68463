import test from 'ava';
import type { ConnectorRuns, ConnectorSources } from '../api.js';
import { call, createSite, createSource, searchIds, startWithKind, tempJsonl } from './helpers.js';

// A plugin whose kind reads documents from its settings, each with the version the source gives it.
const VERSIONED_KIND = `{
  name: 'versioned',
  description: 'documents listed in the settings, with versions',
  settingsSchema: { type: 'object', required: ['docs'], properties: { docs: { type: 'array' } } },
  async *read(ctx) {
    for (const doc of ctx.source.settings.docs) {
      if (ctx.onlyIds && !ctx.onlyIds.includes(doc.id)) continue;
      yield { id: doc.id, attributes: { title: doc.title }, version: doc.version };
    }
  },
}`;

async function start(t: any) {
  const vela = await startWithKind('versioned', VERSIONED_KIND);
  t.teardown(() => vela.stop());
  await createSite(vela, 'Docs');
  return vela;
}

const docs = (title: string, version: string) => [
  { id: 'v1', title, version },
  { id: 'v2', title: 'two', version: '1' },
];

type SourceInput = Parameters<ConnectorSources['put']>[0];

/** The plugin's source "owned" of the versioned kind on Docs, listing no documents unless `changes` says. */
const owned = (changes: Partial<SourceInput> = {}): SourceInput => ({
  name: 'owned',
  kind: 'versioned',
  sites: ['Docs'],
  settings: { docs: [] },
  ...changes,
});

test('connector.sources: a plugin saves and removes its sources; the API sees them but cannot change them', async (t) => {
  const vela = await start(t);
  const sources = vela.runtime.resolve('connector.sources') as ConnectorSources;
  await sources.put(owned({ settings: { docs: docs('one', '1') } }));
  const listed = await call(vela, 'GET', '/api/v2/connector/source/owned');
  t.like(listed.body, { name: 'owned', kind: 'versioned', origin: 'plugin', sites: ['Docs'] });
  const refusedPut = await call(vela, 'PUT', '/api/v2/connector/source/owned', {
    kind: 'versioned',
    sites: ['Docs'],
    settings: { docs: [] },
  });
  t.is(refusedPut.status, 409);
  t.regex(refusedPut.body.message, /belongs to the plugin/);
  t.is((await call(vela, 'DELETE', '/api/v2/connector/source/owned')).status, 409);

  // Replaced by its owner, with the same checks as the API's.
  await sources.put(owned({ description: 'changed', settings: { docs: docs('one', '1') } }));
  t.is((await call(vela, 'GET', '/api/v2/connector/source/owned')).body.description, 'changed');
  await t.throwsAsync(sources.put(owned({ sites: ['Nope'] })), {
    message: /sites\[0\] must name a site/,
  });
  await t.throwsAsync(sources.put(owned({ settings: {} })), {
    message: /settings\.docs is required/,
  });
  // A name the user took is not the plugin's.
  await createSource(vela, 'users', tempJsonl([], 'a.jsonl'), 'Docs');
  await t.throwsAsync(sources.put(owned({ name: 'users' })), {
    message: /already exists/,
  });
  t.false(await sources.remove('users', 'jsonl'), "nor is it the plugin's to delete");
  t.is((await call(vela, 'GET', '/api/v2/connector/source/users')).status, 200);
  // A source belongs to the kind it was made with: a caller naming another kind (another plugin's) cannot touch it.
  await t.throwsAsync(sources.put(owned({ kind: 'jsonl', settings: { path: 'x.jsonl' } })), {
    message: /already exists/,
  });
  t.false(await sources.remove('owned', 'jsonl'));
  // Every locale its documents may carry is checked against the sites, named as sent.
  await t.throwsAsync(sources.put(owned({ locales: ['en_US', 'fr_FR'] })), {
    message: /^locales\[1\] is fr_FR, which sites\[0\] \("Docs"\) does not have/,
  });

  t.true(await sources.remove('owned', 'versioned'));
  t.false(await sources.remove('owned', 'versioned'));
  t.is((await call(vela, 'GET', '/api/v2/connector/source/owned')).status, 404);
});

test('DEINDEX_IDS removes the given documents without reading; a version decides what is sent again', async (t) => {
  const vela = await start(t);
  const sources = vela.runtime.resolve('connector.sources') as ConnectorSources;
  const runs = vela.runtime.resolve('connector.runs') as ConnectorRuns;
  /** The source saved with `title` and `version` for its first document, then read in full: the run. */
  const indexAll = async (title: string, version: string) => {
    await sources.put(owned({ settings: { docs: docs(title, version) } }));
    return (await runs.trigger('owned', 'INDEX_ALL', 'api')).done;
  };
  t.like(await indexAll('one', '1'), { status: 'COMPLETED', indexed: 2 });

  // Same version, other attributes: unchanged (the source says its version did not move); a new version is sent.
  t.like(await indexAll('one, retitled', '1'), { indexed: 0, unchanged: 2 });
  t.like(await indexAll('one, retitled', '2'), { indexed: 1, unchanged: 1 });

  // The ids it tracks, by exact prefix (case counts, on SQLite too) or among given ones.
  t.deepEqual(await sources.trackedIds('owned', { prefix: 'v', limit: 10 }), ['v1', 'v2']);
  t.deepEqual(await sources.trackedIds('owned', { prefix: 'V', limit: 10 }), []);
  t.deepEqual(await sources.trackedIds('owned', { prefix: 'v', limit: 1 }), ['v1']);
  t.deepEqual(await sources.trackedIds('owned', { ids: ['v2', 'never-indexed'], limit: 10 }), ['v2']);
  t.deepEqual(await sources.trackedIds('unknown', { prefix: 'v', limit: 10 }), []);
  const removed = await (await runs.trigger('owned', 'DEINDEX_IDS', 'api', ['v1', 'never-indexed'])).done;
  t.like(removed, { operationType: 'DEINDEX_IDS', status: 'COMPLETED', documents: 0, deindexed: 1, errors: 0 });
  t.deepEqual(await searchIds(vela, 'Docs'), ['v2']);
  const records = await call(vela, 'GET', '/api/v2/connector/monitoring/index/owned');
  t.deepEqual(
    (records.body as any[]).map((r) => r.objectId),
    ['v2'],
  );
});
