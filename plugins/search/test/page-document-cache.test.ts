import test from 'ava';
import { startTestRuntime } from 'vela/testing';
import { PageDocumentCache } from '../store/page-document-cache.js';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

const doc = (title: string) => ({ title });

test('documents read for a page are found there next time; the least recently used go past the capacity', (t) => {
  const cache = new PageDocumentCache(2);
  cache.fill(
    's',
    'en_US',
    new Map([
      ['a', doc('A')],
      ['b', doc('B')],
    ]),
    cache.currentGeneration(),
  );
  t.deepEqual(cache.lookup('s', 'en_US', ['a', 'x']).missing, ['x']);
  cache.fill('s', 'en_US', new Map([['c', doc('C')]]), cache.currentGeneration());
  // a was used after b: b goes first.
  const { found, missing } = cache.lookup('s', 'en_US', ['a', 'b', 'c']);
  t.deepEqual([...found.keys()], ['a', 'c']);
  t.deepEqual(missing, ['b']);
  t.is(cache.size, 2);
  t.deepEqual(cache.lookup('s', 'pt_BR', ['a']).missing, ['a'], 'locales are apart');
});

test('an invalidated document is read again, and a read that began before the invalidation fills nothing', (t) => {
  const cache = new PageDocumentCache(10);
  cache.fill('s', 'en_US', new Map([['a', doc('old')]]), cache.currentGeneration());
  const before = cache.currentGeneration();
  cache.invalidate('s', 'en_US', ['a']);
  t.deepEqual(cache.lookup('s', 'en_US', ['a']).missing, ['a']);
  cache.fill('s', 'en_US', new Map([['a', doc('old')]]), before);
  t.deepEqual(cache.lookup('s', 'en_US', ['a']).missing, ['a'], 'the stale read was not kept');
  cache.fill('s', 'en_US', new Map([['a', doc('new')]]), cache.currentGeneration());
  t.deepEqual(cache.lookup('s', 'en_US', ['a']).found.get('a'), doc('new'));
  cache.clear();
  t.is(cache.size, 0);
});

test('a capacity of 0 keeps nothing', (t) => {
  const cache = new PageDocumentCache(0);
  cache.fill('s', 'en_US', new Map([['a', doc('A')]]), cache.currentGeneration());
  t.is(cache.size, 0);
});

test('over HTTP, a page seen before shows a re-imported document as it is now, and a deleted one no more', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  await createSite(vela);
  const [first, second] = makeDocs(2);
  await importDocs(vela, [first!, second!]);
  const titles = async () =>
    (await search(vela, `q=*&_setlocale=en_US&sort=id:asc`)).body.results.document.map((d: any) => d.fields.title);
  t.deepEqual(await titles(), [first!.title, second!.title]);
  await importDocs(vela, [{ ...first!, title: 'renamed package' }]);
  t.deepEqual(await titles(), ['renamed package', second!.title]);
  const removed = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { turSNJobAction: 'DELETE', locale: 'en_US', siteNames: ['Sample'], attributes: { id: second!.id } },
    ],
  });
  t.is(removed.status, 200, JSON.stringify(removed.body));
  t.deepEqual(await titles(), ['renamed package']);
});
