import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { AnswerCache, answerBytes } from '../query/answer-cache.js';
import type { SearchParams } from '../query/search-params.js';
import { createSite, importDocs, json, makeDocs } from './fixtures.js';

const params = { q: 'x' } as SearchParams;
const answer = (responseTime: number, pad = '') =>
  Buffer.from(`{"pagination":[],"queryContext":{"count":1,"responseTime":${responseTime},"query":"${pad}"}}`);

test('an answer is found by its key; the least recently used go past the byte limit; one too large is not kept', (t) => {
  const one = answer(3).length + 'k1'.length * 2;
  const cache = new AnswerCache(8 * one);
  for (let i = 1; i <= 8; i++) cache.put(`k${i}`, cache.ticket(), 's', answer(3), params, i);
  t.is(cache.get('k1')?.count, 1, 'k1 is now the most recently used');
  cache.put('k9', cache.ticket(), 's', answer(3), params, 9);
  t.is(cache.get('k2'), undefined, 'k2 went first');
  t.is(cache.get('k1')?.count, 1);
  t.is(cache.get('k9')?.count, 9);
  t.like(cache.stats(), { entries: 8, bytes: 8 * one, maxBytes: 8 * one, hits: 3, misses: 1 });
  cache.put('big', cache.ticket(), 's', answer(1, 'x'.repeat(one)), params, 10);
  t.is(cache.get('big'), undefined, 'more than an eighth of the limit is never kept');
  t.is(cache.stats().entries, 8);
});

test("a site's change removes its answers only, and an answer of a search begun before a change is not kept", (t) => {
  const cache = new AnswerCache(1 << 20);
  cache.put('a', cache.ticket(), 'site-a', answer(1), params, 1);
  cache.put('b', cache.ticket(), 'site-b', answer(1), params, 1);
  const before = cache.ticket();
  cache.invalidateSite('site-a');
  t.is(cache.get('a'), undefined);
  t.truthy(cache.get('b'));
  cache.put('a', before, 'site-a', answer(1), params, 1);
  t.is(cache.get('a'), undefined, 'begun before the change: not kept');
  cache.put('a', cache.ticket(), 'site-a', answer(1), params, 1);
  t.truthy(cache.get('a'));
  t.is(cache.clear(), 2);
  t.is(cache.stats().bytes, 0);
});

test('a hit carries the time it took in place of the time the search took; a limit of 0 keeps nothing', (t) => {
  const cache = new AnswerCache(1 << 20);
  cache.put('k', cache.ticket(), 's', answer(1234), params, 1);
  const hit = cache.get('k')!;
  t.deepEqual(JSON.parse(answerBytes(hit, 0.2).toString()), JSON.parse(answer(0).toString()));
  t.deepEqual(JSON.parse(answerBytes(hit, 17.6).toString()), JSON.parse(answer(18).toString()));
  const off = new AnswerCache(0);
  t.false(off.enabled);
  off.put('k', off.ticket(), 's', answer(1), params, 1);
  t.is(off.stats().entries, 0);
});

/** A search over HTTP: the answer without its responseTime, and whether it came from the cache. */
async function ask(
  vela: TestRuntime,
  query: string,
  init: RequestInit = {},
): Promise<{ status: number; cache: string | null; body: any }> {
  const res = await vela.fetch('search', `/api/sn/Sample/search?${query}`, init);
  const body = await res.json();
  if (body.queryContext) body.queryContext.responseTime = 0;
  return { status: res.status, cache: res.headers.get('x-cache'), body };
}

const titles = (body: any): string[] => body.results.document.map((d: any) => d.fields.title.replace(/<\/?mark>/g, ''));

test.serial(
  'over HTTP: a repeated search is answered from the cache, the same answer; every kind of change is seen at once',
  async (t) => {
    const vela = await startTestRuntime({ plugins: ['search'] });
    t.teardown(() => vela.stop());
    await createSite(vela, 'Sample', { spotlightWithResults: true });
    const docs = makeDocs(30);
    await importDocs(vela, docs);
    const query = 'q=package&_setlocale=en_US&sort=id:asc&rows=5';

    const first = await ask(vela, query);
    t.is(first.status, 200);
    t.is(first.cache, 'MISS');
    const second = await ask(vela, query);
    t.is(second.cache, 'HIT');
    t.deepEqual(second.body, first.body);
    t.is((await ask(vela, `${query}&p=2`)).cache, 'MISS', 'another URL is another answer');

    // Documents: a re-import and a deletion.
    await importDocs(vela, [{ ...docs[0]!, title: 'renamed package 0' }]);
    const renamed = await ask(vela, query);
    t.is(renamed.cache, 'MISS');
    t.is(titles(renamed.body)[0], 'renamed package 0');
    const deleted = await json(vela, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [
        { turSNJobAction: 'DELETE', locale: 'en_US', siteNames: ['Sample'], attributes: { id: docs[0]!.id } },
      ],
    });
    t.is(deleted.status, 200);
    t.false(titles((await ask(vela, query)).body).includes('renamed package 0'));
    t.is((await ask(vela, query)).cache, 'HIT');

    // The site's settings.
    t.is((await json(vela, 'PUT', '/api/sn/Sample', { rowsPerPage: 3 })).status, 200);
    const paged = await ask(vela, 'q=package&_setlocale=en_US&sort=id:asc');
    t.is(paged.body.results.document.length, 3);
    t.is((await json(vela, 'PUT', '/api/sn/Sample', { rowsPerPage: 4 })).status, 200);
    t.is((await ask(vela, 'q=package&_setlocale=en_US&sort=id:asc')).body.results.document.length, 4);

    // Its fields: a facet more.
    const facets = async () => (await ask(vela, query)).body.widget.facet.map((f: any) => f.name);
    const before = await facets();
    const size = (await json(vela, 'GET', '/api/sn/Sample/field')).body.find((f: any) => f.name === 'size');
    t.is((await json(vela, 'PUT', `/api/sn/Sample/field/${size.id}`, { facet: true, facetName: 'Sizes' })).status, 200);
    t.deepEqual(await facets(), [...before, 'size']);

    // Its spotlights.
    const spotlit = async () => (await ask(vela, query)).body.widget.spotlights.length;
    t.is(await spotlit(), 0);
    const created = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
      name: 'Offer',
      terms: ['package'],
      documents: [{ position: 1, title: 'Offer' }],
    });
    t.is(created.status, 201);
    t.is(await spotlit(), 1);
    t.is((await json(vela, 'DELETE', `/api/sn/Sample/spotlight/${created.body.id}`)).status, 200);
    t.is(await spotlit(), 0);

    for (let i = 0; i < 3; i++) await ask(vela, 'q=editor&_setlocale=en_US');
    const caches = await json(vela, 'GET', '/api/system/cache');
    t.is(caches.status, 200);
    t.true(caches.body.answers.hits >= 2 && caches.body.answers.entries > 0, JSON.stringify(caches.body));
  },
);

test.serial(
  'POST searches are keyed by their body too; the guest search is cached; clearing empties the caches or one, for a key only',
  async (t) => {
    const vela = await startTestRuntime({ plugins: ['search'] });
    t.teardown(() => vela.stop());
    await createSite(vela);
    await importDocs(vela, makeDocs(20));
    const post = (body: unknown) =>
      ask(vela, '_setlocale=en_US', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    t.is((await post({ query: 'editor' })).cache, 'MISS');
    t.is((await post({ query: 'browser' })).cache, 'MISS');
    const again = await post({ query: 'editor' });
    t.is(again.cache, 'HIT');
    t.is(again.body.queryContext.query.queryString, 'editor');
    t.is((await post({ query: 'x'.repeat(2001) })).status, 400, 'a refused body is refused again, never cached');
    t.is((await post({ query: 'x'.repeat(2001) })).status, 400);

    const guest = async () =>
      (await vela.fetch('search', '/api/v2/guest/sn/Sample/search?q=editor&_setlocale=en_US')).headers.get('x-cache');
    t.is(await guest(), 'MISS');
    t.is(await guest(), 'HIT');

    t.is((await vela.fetch('search', '/api/system/cache/clear', { method: 'POST' })).status, 401);
    t.is((await vela.fetch('search', '/api/system/cache')).status, 401);
    const cleared = await json(vela, 'POST', '/api/system/cache/clear');
    t.is(cleared.status, 200);
    t.is(cleared.body.answers, 3);
    t.true(cleared.body.pageDocuments > 0);
    t.like((await json(vela, 'GET', '/api/system/cache')).body, {
      answers: { entries: 0, bytes: 0 },
      pageDocuments: { entries: 0 },
    });
    t.is((await post({ query: 'editor' })).cache, 'MISS');

    // One cache alone: the answers go and the pages stay, or the other way round.
    const answersOnly = await json(vela, 'POST', '/api/system/cache/clear?cache=answers');
    t.deepEqual(answersOnly.body, { answers: 1, pageDocuments: 0 });
    const kept = (await json(vela, 'GET', '/api/system/cache')).body;
    t.is(kept.answers.entries, 0);
    t.true(kept.pageDocuments.entries > 0, 'the page documents stay when only the answers are emptied');
    t.is((await post({ query: 'editor' })).cache, 'MISS');
    const pagesOnly = await json(vela, 'POST', '/api/system/cache/clear?cache=pageDocuments');
    t.is(pagesOnly.body.answers, 0);
    t.is(pagesOnly.body.pageDocuments, kept.pageDocuments.entries);
    t.like((await json(vela, 'GET', '/api/system/cache')).body, {
      answers: { entries: 1 },
      pageDocuments: { entries: 0 },
    });
    const unknown = await json(vela, 'POST', '/api/system/cache/clear?cache=everything');
    t.is(unknown.status, 400);
    t.is(unknown.body.error, 'validation_failed');
    t.like(
      (await json(vela, 'GET', '/api/system/cache')).body,
      { answers: { entries: 1 } },
      'a refused request empties nothing',
    );
  },
);

test.serial('answerCache.megabytes 0: every search is searched', async (t) => {
  const vela = await startTestRuntime({
    plugins: ['search'],
    config: { plugins: { search: { answerCache: { megabytes: 0 } } } },
  });
  t.teardown(() => vela.stop());
  await createSite(vela);
  await importDocs(vela, makeDocs(5));
  for (let i = 0; i < 2; i++) {
    const res = await ask(vela, 'q=package&_setlocale=en_US');
    t.is(res.status, 200);
    t.is(res.cache, null);
  }
  t.like((await json(vela, 'GET', '/api/system/cache')).body, { answers: { entries: 0, maxBytes: 0, hits: 0 } });
});
