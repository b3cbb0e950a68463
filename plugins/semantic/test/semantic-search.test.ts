import test from 'ava';
import {
  eventually,
  onBothDatabases,
  postgresReachable,
  startTestRuntime,
  testDatabase,
  testFolder,
} from 'vela/testing';
import { call, createToolbox, embedded, searchIds, toolboxDocuments } from './toolbox.js';

const start = (databaseUrl?: string, engine?: string, dataDir?: string) =>
  startTestRuntime({
    plugins: engine === 'postgres' ? ['search', 'search-postgres', 'semantic'] : ['search', 'semantic'],
    databaseUrl,
    dataDir,
    config: { plugins: { semantic: { pollMs: 50 }, ...(engine ? { search: { engine } } : {}) } },
  });

async function searchesByMeaning(t: import('ava').ExecutionContext, databaseUrl?: string, engine?: string) {
  const vela = await start(databaseUrl, engine);
  t.teardown(() => vela.stop());
  await createToolbox(vela);

  const keyword = await searchIds(vela, 'Toolbox', 'q=emacs&rows=50');
  t.false(keyword.ids.includes('vim'), 'the keyword search does not find a document without the word');
  t.deepEqual(keyword.body.queryContext.semantic, { requested: 'keyword', mode: 'keyword' });

  const vector = await searchIds(vela, 'Toolbox', 'q=emacs&semantic=vector&rows=50');
  t.is(vector.body.queryContext.semantic.mode, 'vector');
  // vim's words keep company with "emacs" in the other editors' texts: it ranks among the editors, above every
  // archiver and network tool, though it never says "emacs".
  const firstOther = vector.ids.findIndex((id: string) => !id.startsWith('editor-') && id !== 'vim');
  t.true(vector.ids.indexOf('vim') >= 0, 'the vector search finds it by the company its words keep');
  t.true(
    vector.ids.indexOf('vim') < firstOther,
    `vim before the first document of another kind: ${vector.ids.slice(0, 16).join(', ')}`,
  );

  const hybrid = await searchIds(vela, 'Toolbox', 'q=emacs&semantic=hybrid&rows=100');
  t.is(hybrid.body.queryContext.semantic.mode, 'hybrid');
  t.true(hybrid.ids.includes('vim'));
  for (const id of keyword.ids) t.true(hybrid.ids.includes(id), `hybrid keeps the keyword hit ${id}`);

  // Filters and facets work on the fused candidates as on any search.
  const filtered = await searchIds(vela, 'Toolbox', 'q=emacs&semantic=hybrid&rows=100&fq[]=kind:archive');
  t.true(filtered.ids.every((id) => id.startsWith('archive-')));

  // The site's monitoring says how far the embedding is.
  const monitoring = await call(vela, 'GET', '/api/sn/Toolbox/monitoring');
  t.deepEqual(monitoring.body.semantic, {
    enabled: true,
    locales: { en_US: { ready: true, pending: 0, done: toolboxDocuments().length, failed: 0 } },
  });

  // A changed document is embedded again: vim now speaks of archives.
  const changed = await call(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      {
        locale: 'en_US',
        siteNames: ['Toolbox'],
        attributes: { id: 'vim', title: 'vim', text: 'gzip compression of a tarball archive', kind: 'editor' },
      },
    ],
  });
  t.is(changed.status, 200);
  await eventually(async () => {
    const ids = (await searchIds(vela, 'Toolbox', 'q=emacs&semantic=vector&rows=50')).ids;
    return ids.indexOf('vim') > ids.findIndex((id: string) => id.startsWith('archive-'));
  }, 'vim embedded again, among the archivers');

  // A deleted document leaves the vector results.
  const removed = await call(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [{ locale: 'en_US', siteNames: ['Toolbox'], turSNJobAction: 'DELETE', attributes: { id: 'vim' } }],
  });
  t.is(removed.status, 200);
  await eventually(
    async () => !(await searchIds(vela, 'Toolbox', 'q=emacs&semantic=vector&rows=50')).ids.includes('vim'),
    'vim gone from the vector results',
  );
}

onBothDatabases(test, 'a site with semantic search on answers hybrid and vector searches by meaning', (t, url) =>
  searchesByMeaning(t, url),
);

(postgresReachable() ? test : test.skip)(
  'with the PostgreSQL engine vectors are searched in SQL, by meaning all the same',
  async (t) => searchesByMeaning(t, (await testDatabase(t)).url, 'postgres'),
);

test('a site without semantic search falls back to keyword and says why; bad settings are refused', async (t) => {
  const vela = await start();
  t.teardown(() => vela.stop());
  const site = await call(vela, 'POST', '/api/sn', { name: 'Plain', locales: ['en_US'], defaultTitleField: 'title' });
  t.is(site.status, 201);
  const answer = await searchIds(vela, 'Plain', 'q=anything&semantic=hybrid');
  t.is(answer.body.queryContext.semantic.mode, 'keyword');
  t.regex(answer.body.queryContext.semantic.reason, /off/);

  const settings = await call(vela, 'GET', '/api/sn/Plain/semantic');
  t.like(settings.body, { enabled: false, embedder: 'builtin', custom: false, passageChars: 1000 });
  const overlap = await call(vela, 'PUT', '/api/sn/Plain/semantic', { passageChars: 200, passageOverlap: 150 });
  t.is(overlap.status, 400);
  t.is(overlap.body.error, 'invalid_parameter');
  const embedder = await call(vela, 'PUT', '/api/sn/Plain/semantic', { embedder: 'nowhere' });
  t.is(embedder.status, 409, 'an LLM instance needs the genai plugin, which this runtime has not');
  const unknown = await call(vela, 'PUT', '/api/sn/Plain/semantic', { enabled: true, colour: 'red' });
  t.is(unknown.status, 400);
  const missing = await call(vela, 'GET', '/api/sn/Nowhere/semantic/status');
  t.is(missing.status, 404);
  t.is(missing.body.error, 'site_not_found');
});

test('a restart searches the stored vectors without embedding again', async (t) => {
  const dataDir = testFolder(t, 'semantic-restart');
  const first = await start(undefined, undefined, dataDir);
  await createToolbox(first);
  await first.stop();
  const again = await start(undefined, undefined, dataDir);
  t.teardown(() => again.stop());
  await embedded(again, 'Toolbox', toolboxDocuments().length);
  const status = (await call(again, 'GET', '/api/sn/Toolbox/semantic/status')).body;
  t.is(status.models.length, 1, 'the same model');
  const after = await searchIds(again, 'Toolbox', 'q=emacs&semantic=vector&rows=50');
  t.true(after.ids.includes('vim'));
});
