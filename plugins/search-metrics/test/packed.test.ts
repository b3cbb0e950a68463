import test from 'ava';
import { packedProblems, startPacked } from 'vela/testing';
import { ADMIN_AUTH, packedSite, searchPost } from '../../search/test/packed-beside-search.js';

// The search-metrics plugin as a user deploys it: packed with its migrations and loaded from the archive in
// another process, beside the search plugin's folder; searches there are recorded and reported.

test('the packed search-metrics plugin loads from its archive beside the search plugin, records searches and reports them', async (t) => {
  t.timeout(120_000);
  const packed = await startPacked(t, 'search-metrics', ['search']);
  const { vela } = packed;
  t.true(packed.entries.includes('package/migrations/001_searches.ts'));
  t.deepEqual(packedProblems(packed, ['search', 'search-metrics']), []);
  t.deepEqual(await packedSite(vela, ['alpha', 'beta']), [201, 200]);
  const base = vela.urls.search!;

  for (const query of ['beta', 'beta', 'gamma'])
    t.is((await searchPost(vela, '/api/sn/Packed/search?_setlocale=en_US', { query, userId: 'ana' }, {})).status, 200);
  const top = await fetch(`${base}/api/sn/Packed/metrics/top-terms/all-time/10`, {
    headers: { authorization: ADMIN_AUTH },
  });
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
  const latest = await searchPost(vela, '/api/sn/Packed/search/latest?_setlocale=en_US', { userId: 'ana' });
  t.deepEqual(await latest.json(), ['gamma', 'beta']);
});
