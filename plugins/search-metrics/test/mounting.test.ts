import test from 'ava';
import { apiDocument, describedPaths, pluginTraces, startTestRuntimeFor } from 'vela/testing';
import { createSite, json } from '../../search/test/fixtures.js';
import { searchAs } from './searching.js';

// The search-metrics plugin on the search service: a runtime without it has neither its routes nor their
// description, and searches there are answered the same; a config written when metrics were part of the search
// plugin (plugins.search.metrics) still starts and still applies, with a warning saying where the settings
// belong now.

const METRICS_PATHS = [
  '/api/sn/{id}/metrics/live',
  '/api/sn/{id}/metrics/top-terms/{period}/{rows}',
  '/api/sn/{id}/metrics/zero-result-terms/{period}/{rows}',
  '/api/sn/{siteName}/search/latest',
  '/api/v2/sn/{siteName}/search/latest',
];

test('without the search-metrics plugin, its routes answer 404 and are not described; searches are answered', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search'] });
  t.deepEqual(vela.runtime.pluginNames, ['search']);
  await createSite(vela, 'Sample');
  for (const [method, path] of [
    ['GET', '/api/sn/Sample/metrics/live'],
    ['GET', '/api/sn/Sample/metrics/top-terms/today/5'],
    ['GET', '/api/sn/Sample/metrics/zero-result-terms/all-time/5'],
    ['POST', '/api/sn/Sample/search/latest?_setlocale=en_US'],
  ] as const) {
    const res = await json(vela, method, path, method === 'POST' ? { userId: 'ana' } : undefined);
    t.is(res.status, 404, path);
    t.is(res.body.error, 'not_found', path);
  }
  t.is((await searchAs(vela, 'Sample', 'editor', 'ana')).status, 200);
  const docs = await apiDocument(vela, 'search');
  t.deepEqual(
    pluginTraces(docs, (p) => p.includes('/metrics') || p.endsWith('/latest'), 'metrics'),
    [],
  );
  t.truthy(docs.paths['/api/sn/{siteName}/search'], 'the search routes are described');
});

test('with it, its routes are described on the search service, behind a key with the search scope', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search-metrics'] });
  t.deepEqual([...vela.runtime.pluginNames].sort(), ['search', 'search-metrics'], 'the search plugin comes with it');
  const docs = await apiDocument(vela, 'search');
  t.deepEqual(
    describedPaths(docs, (p) => p.includes('/metrics') || p.endsWith('/latest')),
    METRICS_PATHS,
  );
  t.deepEqual(docs.paths['/api/sn/{id}/metrics/live']?.get?.tags, ['metrics']);
  t.deepEqual(docs.paths['/api/sn/{siteName}/search/latest']?.post?.tags, ['search']);
  for (const path of METRICS_PATHS) t.notDeepEqual(Object.values(docs.paths[path]!)[0]?.security, [], path);
  await createSite(vela, 'Sample');
  const anonymous = await json(vela, 'GET', '/api/sn/Sample/metrics/live', undefined, { authorization: '' });
  t.is(anonymous.status, 401);
  t.is(anonymous.body.error, 'unauthorized');
  const live = await json(vela, 'GET', '/api/sn/Sample/metrics/live');
  t.is(live.status, 200);
  t.is(live.body.site, 'Sample');
});

test('plugins.search.metrics is read as plugins.search-metrics, with a warning, and its settings apply', async (t) => {
  const vela = await startTestRuntimeFor(t, {
    plugins: ['search', 'search-metrics'],
    config: { plugins: { search: { metrics: { enabled: false } } } },
  });
  t.true(
    vela.logs.some(
      (line) =>
        line.msg ===
          'plugins.search.metrics is read as plugins.search-metrics, where these settings belong now; move it there' &&
        line.level === 40,
    ),
  );
  await createSite(vela, 'Sample');
  t.is((await searchAs(vela, 'Sample', 'editor', 'ana')).status, 200);
  const live = await json(vela, 'GET', '/api/sn/Sample/metrics/live');
  t.is(live.status, 200);
  t.is(live.body.searchesToday, 0, 'enabled: false was applied: nothing recorded');
  t.like(live.body.recorder, { queued: 0, written: 0 });
  t.deepEqual((await json(vela, 'POST', '/api/sn/Sample/search/latest?_setlocale=en_US', { userId: 'ana' })).body, []);
});
