import test from 'ava';
import { apiDocument, pluginTraces, startTestRuntimeFor, type TestRuntime } from 'vela/testing';
import { createSite } from '../../search/test/fixtures.js';

// The graphql plugin adds its routes and their OpenAPI entries to the search service; the search plugin alone has
// neither.

const postQuery = (vela: TestRuntime, query: string) =>
  vela.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });

test('without the graphql plugin the search service has no /graphql route, no GraphiQL and no GraphQL entry in its document', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search'] });
  const post = await postQuery(vela, '{ siteNames }');
  t.is(post.status, 404);
  t.like(await post.json(), { error: 'not_found' });
  for (const path of ['/graphql', '/graphql/assets/graphiql.min.js'])
    t.is((await vela.fetch('search', path)).status, 404, path);
  const document = await apiDocument(vela, 'search');
  t.deepEqual(
    pluginTraces(document, (path) => path.startsWith('/graphql'), 'graphql'),
    [],
  );
  t.true(Object.keys(document.paths).includes('/api/sn/{siteName}/search'), 'the search routes are there');
});

test('with it, POST /graphql answers on the search service and is described under the graphql tag', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search', 'graphql'] });
  await createSite(vela);
  const post = await postQuery(vela, '{ siteNames }');
  t.is(post.status, 200);
  t.deepEqual(await post.json(), { data: { siteNames: ['Sample'] } });
  const page = await vela.fetch('search', '/graphql');
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  const document = await apiDocument(vela, 'search');
  t.deepEqual(Object.keys(document.paths['/graphql'] ?? {}), ['post']);
  t.deepEqual(document.paths['/graphql']!.post!.tags, ['graphql']);
});

test('limits written at their former place, plugins.search.graphql, still apply, and the log says where they belong now', async (t) => {
  const vela = await startTestRuntimeFor(t, {
    plugins: ['search', 'graphql'],
    config: { plugins: { search: { graphql: { maxAliases: 2 } } } },
  });
  await createSite(vela);
  const twice = await postQuery(vela, '{ a: siteNames b: siteNames }');
  t.deepEqual(await twice.json(), { data: { a: ['Sample'], b: ['Sample'] } });
  const thrice = (await (await postQuery(vela, '{ a: siteNames b: siteNames c: siteNames }')).json()) as {
    errors: Array<{ extensions: unknown }>;
  };
  t.deepEqual(
    thrice.errors.map((error) => error.extensions),
    [{ code: 'alias_limit_exceeded', limit: 2, found: 3 }],
  );
  t.true(
    vela.logs.some(
      (line) =>
        line.msg ===
        'plugins.search.graphql is read as plugins.graphql, where these settings belong now; move it there',
    ),
    'the move is logged',
  );
});
