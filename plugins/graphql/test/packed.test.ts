import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import * as tar from 'tar';
import { childEnv, packageRoot, packPlugin, startChildRuntime } from 'vela/testing';

// The graphql plugin as a user deploys it: packed (graphql, graphql-http and graphql-query-complexity inside, and
// GraphiQL's prebuilt files) and loaded from the archive in another process, beside the search plugin's folder.

const admin = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

async function archiveEntries(archive: string): Promise<string[]> {
  const entries: string[] = [];
  await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  return entries;
}

test('the packed graphql plugin carries its packages, loads from its archive beside the search plugin and answers queries and GraphiQL', async (t) => {
  t.timeout(180_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'vela-graphql-packed-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const archive = await packPlugin(path.join(packageRoot, 'plugins', 'graphql'), path.join(home, 'plugins'));
  t.is(path.basename(archive), 'graphql-1.0.0.tgz');
  const entries = await archiveEntries(archive);
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
  t.false(
    entries.some((e) => e.startsWith('package/test/')),
    'tests stay out',
  );

  const loaderPath = `${path.join(packageRoot, 'plugins', 'search')},${archive}`;
  const vela = await startChildRuntime(
    ['--loader-path', loaderPath],
    childEnv({ VELA_DATA_DIR: path.join(home, 'data') }),
    home,
  );
  t.teardown(() => vela.stop());
  t.true(vela.output().includes('"origin":"archive"'), 'graphql loaded from its archive');
  t.deepEqual(vela.plugins.sort(), ['graphql', 'search']);
  const base = vela.urls.search!;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  t.is(
    (
      await post(
        '/api/sn',
        { name: 'Packed', locales: ['en_US'], fields: [{ name: 'title', type: 'TEXT' }] },
        { authorization: admin },
      )
    ).status,
    201,
  );
  const documents = ['alpha', 'beta'].map((word, i) => ({
    locale: 'en_US',
    siteNames: ['Packed'],
    attributes: { id: `d${i}`, title: `${word} note` },
  }));
  t.is((await post('/api/sn/import?wait=true', { turingDocuments: documents }, { authorization: admin })).status, 200);

  const found = await post('/graphql', {
    query: '{ siteSearch(siteName: PACKED, searchParams: {q: "beta"}, locale: "en_US") { queryContext { count } } }',
  });
  t.deepEqual(await found.json(), { data: { siteSearch: { queryContext: { count: 1 } } } });
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
