import test from 'ava';
import { apiDocument, describedPaths, pluginTraces, startTestRuntimeFor } from 'vela/testing';
import { json } from '../../search/test/fixtures.js';

// The integration plugin on the search service: a runtime without it has neither its routes nor their
// description, and a config written when the proxy was part of the search plugin (plugins.search.integration)
// still starts and still applies, with a warning saying where the settings belong now.

test('without the integration plugin, /api/integration and the proxy answer 404 and are not described', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search'] });
  t.deepEqual(vela.runtime.pluginNames, ['search']);
  for (const path of ['/api/integration', '/api/integration/vendor', '/api/v2/integration/some-id/connector/status']) {
    const res = await vela.fetch('search', path, { headers: { authorization: vela.adminAuth } });
    t.is(res.status, 404, path);
    t.is((await res.json()).error, 'not_found', path);
  }
  const docs = await apiDocument(vela, 'search');
  t.deepEqual(
    pluginTraces(docs, (p) => p.includes('/integration'), 'integrations'),
    [],
  );
  t.truthy(docs.paths['/api/sn/{siteName}/search'], 'the search routes are described');
});

test('with it, its routes are described on the search service: the administration behind a key, the proxy public', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['integration'] });
  t.deepEqual([...vela.runtime.pluginNames].sort(), ['integration', 'search'], 'the search plugin comes with it');
  const docs = await apiDocument(vela, 'search');
  t.deepEqual(
    describedPaths(docs, (p) => p.includes('/integration')),
    [
      '/api/integration',
      '/api/integration/structure',
      '/api/integration/vendor',
      '/api/integration/{id}',
      '/api/v2/integration/{integrationId}',
      '/api/v2/integration/{integrationId}/{rest}',
    ],
  );
  t.deepEqual(docs.paths['/api/integration']?.get?.tags, ['integrations']);
  t.notDeepEqual(docs.paths['/api/integration']?.get?.security, []);
  t.deepEqual(docs.paths['/api/v2/integration/{integrationId}/{rest}']?.get?.security, []);
  t.is((await vela.fetch('search', '/api/integration')).status, 401);
});

test('plugins.search.integration is read as plugins.integration, with a warning, and its limits apply', async (t) => {
  const vela = await startTestRuntimeFor(t, {
    plugins: ['search', 'integration'],
    config: { plugins: { search: { integration: { maxRequestBytes: 10 } } } },
  });
  t.true(
    vela.logs.some(
      (line) =>
        line.msg ===
          'plugins.search.integration is read as plugins.integration, where these settings belong now; move it there' &&
        line.level === 40,
    ),
  );
  // A name that does not resolve is checked again on each request; the body's size is refused before any.
  const created = await json(vela, 'POST', '/api/integration', {
    id: 'writes',
    title: 'Writes',
    vendor: 'HTTP',
    endpoint: 'https://upstream.invalid/api',
    allowedMethods: ['POST'],
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const refused = await vela.fetch('search', '/api/v2/integration/writes/items', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'more than ten bytes',
  });
  t.is(refused.status, 413);
  t.deepEqual(await refused.json(), {
    error: 'payload_too_large',
    message: 'the request body is larger than the proxy limit of 10 bytes (plugins.integration.maxRequestBytes)',
  });
});
