import test from 'ava';
import { packedProblems, startPacked } from 'vela/testing';
import { packedSite, searchPost } from '../../search/test/packed-beside-search.js';

// The graphql plugin as a user deploys it: packed (graphql, graphql-http and graphql-query-complexity inside, and
// GraphiQL's prebuilt files) and loaded from the archive in another process, beside the search plugin's folder.

test('the packed graphql plugin carries its packages, loads from its archive beside the search plugin and answers queries and GraphiQL', async (t) => {
  t.timeout(180_000);
  const packed = await startPacked(t, 'graphql', ['search']);
  const { vela, entries } = packed;
  const has = (name: string) => entries.includes(`package/node_modules/${name}/package.json`);
  for (const name of [
    'graphql',
    'graphql-http',
    'graphql-query-complexity',
    'lodash.get',
    'graphiql',
    'react',
    'react-dom',
  ])
    t.true(has(name), name);
  t.false(has('express'), "express is the host's");
  t.false(
    has('@graphiql/react'),
    'graphiql is carried for its files only: not its dependencies (its bundle holds them)',
  );
  t.false(
    entries.some((e) => e.startsWith('package/node_modules/graphiql/esm/')),
    'nor its sources',
  );

  t.deepEqual(packedProblems(packed, ['graphql', 'search']), []);
  t.deepEqual(await packedSite(vela, ['alpha', 'beta']), [201, 200]);

  const found = await searchPost(
    vela,
    '/graphql',
    {
      query: '{ siteSearch(siteName: PACKED, searchParams: {q: "beta"}, locale: "en_US") { queryContext { count } } }',
    },
    {},
  );
  t.deepEqual(await found.json(), { data: { siteSearch: { queryContext: { count: 1 } } } });
  const base = vela.urls.search!;
  const page = await fetch(`${base}/graphql`);
  t.is(page.status, 200);
  t.regex(await page.text(), /graphiql/i);
  for (const asset of [
    'graphiql.min.js',
    'graphiql.min.css',
    'react.production.min.js',
    'react-dom.production.min.js',
    'graphiql-page.js',
  ]) {
    t.is((await fetch(`${base}/graphql/assets/${asset}`)).status, 200, asset);
  }
});
