import test, { type ExecutionContext } from 'ava';
import { onBothDatabases, startTestRuntime } from 'vela/testing';
import { autocompleteFiltered } from '../suggest/autocomplete.js';
import { createSite, importDocs, json } from './fixtures.js';

// Autocomplete with the search's filters, as the original's clients send them: only documents that pass the
// filters complete the query, in every filter spelling the search takes.

const DOCS = [
  { id: 'a1', title: 'Python library for parsing', section: 'devel', tags: ['role::program'] },
  { id: 'a2', title: 'Python linter', section: 'devel', tags: ['role::program'] },
  { id: 'a3', title: 'Python lightweight web framework', section: 'web', tags: ['role::plugin'] },
  { id: 'a4', title: 'Pylons web toolkit', section: 'web', tags: [] },
  { id: 'a5', title: 'Python webserver', section: 'web', tags: ['role::program'] },
  { id: 'a6', title: 'Perl library', section: 'devel', tags: [] },
];

async function checks(t: ExecutionContext, databaseUrl: string | undefined) {
  const vela = await startTestRuntime({ plugins: ['search'], databaseUrl });
  t.teardown(() => vela.stop());
  await createSite(vela, 'Sample', { locales: ['en_US'] });
  await importDocs(vela, DOCS);
  const ac = async (query: string) => {
    const r = await json(vela, 'GET', `/api/sn/Sample/ac?_setlocale=en_US&${query}`, undefined, { authorization: '' });
    t.is(r.status, 200, `${query}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  t.deepEqual(await ac('q=li'), ['library', 'lightweight', 'linter'], 'without filters: the whole site');
  t.deepEqual(await ac('q=li&fq[]=section:devel'), ['library', 'linter']);
  t.deepEqual(await ac('q=li&fq[]=section:web'), ['lightweight']);
  // Ranked by the documents that pass: "web" is in two web documents, "webserver" in one.
  t.deepEqual(await ac('q=we&fq[]=section:web'), ['web', 'webserver']);
  t.deepEqual(await ac('q=we&fq[]=section:devel'), []);
  // Several words: completions after the words typed, counted over the filtered documents that have them all.
  t.deepEqual(await ac('q=python%20l&fq[]=section:web'), ['python lightweight']);
  t.deepEqual(await ac('q=python%20l&fq[]=section:devel'), ['python library', 'python linter']);
  // The other spellings, and filters combined as the search combines them.
  t.deepEqual(await ac('q=li&fq.and[]=section:devel&fq.and[]=tags:role::program'), ['library', 'linter']);
  t.deepEqual(await ac('q=li&fq.and[]=section:web&fq.and[]=tags:role::program'), []);
  t.deepEqual(await ac('q=li&fq.or[]=section:web&fq.or[]=tags:role::program'), ['library', 'lightweight', 'linter']);
  t.deepEqual(await ac('q=li&fq=section:devel'), ['library', 'linter']);
  t.deepEqual(await ac('q=li&rows=1&fq[]=section:devel'), ['library']);
  t.deepEqual(await ac('q=l&fq[]=section:devel'), [], 'one character completes nothing, as without filters');

  // A filter on a field the site lacks: the autocomplete answers as the search does.
  const anonymous = { authorization: '' };
  const search = await json(
    vela,
    'GET',
    '/api/sn/Sample/search?_setlocale=en_US&q=li&fq[]=nosuch:x',
    undefined,
    anonymous,
  );
  const odd = await json(vela, 'GET', '/api/sn/Sample/ac?_setlocale=en_US&q=li&fq[]=nosuch:x', undefined, anonymous);
  if (search.status === 200) t.deepEqual([odd.status, odd.body, search.body.queryContext.count], [200, [], 0]);
  else t.deepEqual([odd.status, odd.body.error], [search.status, search.body.error]);
}

onBothDatabases(test, 'autocomplete completes only from the documents that pass the filters', checks);

test('the filtered ranking is exact: a word rare in the site but frequent under the filter comes first', async (t) => {
  // A dictionary where "lib" is the site's most frequent word, but only "lint" passes the filter twice.
  const frequency = new Map([
    ['lib', 50],
    ['lint', 3],
    ['lisp', 1],
  ]);
  const terms = {
    generation: 1,
    documents: 60,
    documentFrequency: (term: string) => frequency.get(term) ?? 0,
    sortedTerms: () => [...frequency.keys()].sort(),
    phraseFrequency: () => 0,
    forEachPhrase: () => undefined,
  };
  const filtered = new Map([
    ['lib', 1],
    ['lint', 2],
    ['lisp', 1],
  ]);
  const counted: string[] = [];
  const count = (text: string) => {
    counted.push(text);
    return filtered.get(text) ?? 0;
  };
  t.deepEqual(await autocompleteFiltered(terms, 'li', 2, new Set(), count), ['lint', 'lib']);
  t.deepEqual(counted, ['lib', 'lint', 'lisp'], 'lisp counted: its site count (1) can still tie');
  counted.length = 0;
  t.deepEqual(await autocompleteFiltered(terms, 'li', 1, new Set(), count), ['lint']);
  t.deepEqual(counted, ['lib', 'lint'], 'lisp not counted: at most 1 document, below lint');
});
