import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { archiveOrigins, childEnv, postgresReachable, runVela, startChildRuntime, testDatabase } from 'vela/testing';
import { checkPluginBoundaries } from '../../../scripts/lint/plugin-boundaries.js';
import { makeDocs, SITE_FIELDS } from '../../search/test/fixtures.js';

// The plugin as a user deploys it: `vela pack` of it and of the search plugin, then `vela start` from a folder
// outside the repository with only those archives on the loader path, over PostgreSQL with `"engine": "postgres"`.
const pgTest = postgresReachable() ? test : test.skip;
const auth = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

async function call(url: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('the plugin keeps the boundary rule: the search plugin through its contract as types, the shared text analysis as a declared package', (t) => {
  t.deepEqual(checkPluginBoundaries(path.join(import.meta.dirname, '..')), []);
});

pgTest(
  'search-postgres packs alone, and a runtime whose loader path is its archive and the search plugin’s serves searches from PostgreSQL',
  async (t) => {
    t.timeout(180_000);
    const home = mkdtempSync(path.join(os.tmpdir(), 'vela-packed-search-postgres-'));
    t.teardown(() => rmSync(home, { recursive: true, force: true }));
    const archives = path.join(home, 'plugins');
    const packs = await Promise.all(
      ['search', 'search-postgres'].map((plugin) => runVela(['pack', plugin, '--out', archives])),
    );
    for (const packed of packs) t.is(packed.code, 0, packed.stderr);
    t.deepEqual(readdirSync(archives).sort(), ['search-1.0.0.tgz', 'search-postgres-1.0.0.tgz']);

    const { url } = await testDatabase(t);
    const config = path.join(home, 'vela.json');
    writeFileSync(
      config,
      JSON.stringify({ runtime: { database: { url } }, plugins: { search: { engine: 'postgres' } } }),
    );
    const vela = await startChildRuntime(
      ['--config', config, '--loader-path', archives, '--no-seed'],
      childEnv({ VELA_DATA_DIR: path.join(home, 'data') }),
      home,
    );
    t.teardown(() => vela.stop());
    t.deepEqual(vela.plugins.sort(), ['search', 'search-postgres']);
    t.is(archiveOrigins(vela), 2, 'both load from their archives');

    const search = vela.urls.search!;
    const site = await call(`${search}/api/sn`, 'POST', { name: 'Packed', locales: ['en_US'], fields: SITE_FIELDS });
    t.is(site.status, 201, JSON.stringify(site.body));
    const docs = makeDocs(30);
    const imported = await call(`${search}/api/sn/import?wait=true`, 'POST', {
      turingDocuments: docs.map((attributes) => ({ locale: 'en_US', siteNames: ['Packed'], attributes })),
    });
    t.is(imported.status, 200, JSON.stringify(imported.body));
    const all = await call(`${search}/api/sn/Packed/search?q=*&rows=0&_setlocale=en_US`);
    t.is(all.body.queryContext?.count, 30, JSON.stringify(all.body));
    const word = docs[0]!.title.split(' ')[0]!;
    const found = await call(`${search}/api/sn/Packed/search?q=${encodeURIComponent(word)}&_setlocale=en_US`);
    t.true(found.body.queryContext?.count > 0, JSON.stringify(found.body.queryContext));
    // The index is in this plugin's tables, not in the process.
    const knex = (await import('knex')).default;
    const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    t.teardown(() => db.destroy());
    const [{ documents }] = (
      await db.raw('select count(*)::int as documents from search_postgres_documents where deleted_at is null')
    ).rows;
    t.is(documents, 30);
  },
);
