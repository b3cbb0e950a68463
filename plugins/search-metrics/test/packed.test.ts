import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import * as tar from 'tar';
import { childEnv, packageRoot, packPlugin, startChildRuntime } from 'vela/testing';

// The search-metrics plugin as a user deploys it: packed with its migrations and loaded from the archive in
// another process, beside the search plugin's folder; searches there are recorded and reported.

const admin = `Basic ${Buffer.from('admin:child-test-password').toString('base64')}`;

test('the packed search-metrics plugin loads from its archive beside the search plugin, records searches and reports them', async (t) => {
  t.timeout(120_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'vela-search-metrics-packed-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const archive = await packPlugin(path.join(packageRoot, 'plugins', 'search-metrics'), path.join(home, 'plugins'));
  t.is(path.basename(archive), 'search-metrics-1.0.0.tgz');
  const entries: string[] = [];
  await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  t.true(entries.includes('package/migrations/001_searches.ts'));
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
  t.true(vela.output().includes('"origin":"archive"'), 'search-metrics loaded from its archive');
  t.deepEqual(vela.plugins.sort(), ['search', 'search-metrics']);
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

  for (const query of ['beta', 'beta', 'gamma'])
    t.is((await post('/api/sn/Packed/search?_setlocale=en_US', { query, userId: 'ana' })).status, 200);
  const top = await fetch(`${base}/api/sn/Packed/metrics/top-terms/all-time/10`, { headers: { authorization: admin } });
  t.is(top.status, 200);
  t.deepEqual(
    ((await top.json()) as { terms: Array<{ term: string; count: number }> }).terms.map(({ term, count }) => [
      term,
      count,
    ]),
    [
      ['beta', 2],
      ['gamma', 1],
    ],
  );
  const latest = await post(
    '/api/sn/Packed/search/latest?_setlocale=en_US',
    { userId: 'ana' },
    { authorization: admin },
  );
  t.deepEqual(await latest.json(), ['gamma', 'beta']);
});
