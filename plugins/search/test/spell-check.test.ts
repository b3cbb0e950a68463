import test from 'ava';
import type { JsonSchema } from 'vela/plugin';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { searchResponseSchema } from '../schemas/search-response.js';
import { createSite, importDocs, json, makeDocs } from './fixtures.js';

let vela: TestRuntime;
const docs = makeDocs(60);

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search'] });
  await createSite(vela, 'Sample', { spellCheck: true, spellCheckFixes: true, mlt: true, rowsPerPage: 5 });
  await createSite(vela, 'Plain', { locales: ['en_US'] });
  await createSite(vela, 'Offered', { locales: ['en_US'], spellCheck: true });
  await importDocs(vela, docs);
  await importDocs(vela, docs, 'Plain');
  await importDocs(vela, docs, 'Offered');
});
test.after.always(() => vela?.stop());

const get = (path: string) => json(vela, 'GET', path, undefined, { authorization: '' });

/**
 * widget.spellCheck of a search of `typed` on `site`, `locale` the `_setlocale` the search gave (its links keep
 * it), `fixed` the correction ('' for none), `using` whether the corrected text was what was searched.
 */
const spellCheck = (site: string, typed: string, fixed: string, using: boolean, locale = '') => ({
  correctedText: fixed !== '',
  usingCorrectedText: using,
  original: { text: typed, link: `/api/sn/${site}/search?q=${typed}${locale && `&_setlocale=${locale}`}&nfpr=1` },
  corrected: { text: fixed, link: `/api/sn/${site}/search?q=${fixed}${locale && `&_setlocale=${locale}`}` },
});

test('widget.spellCheck follows the site switch: the original shape when on, absent when off', async (t) => {
  const r = await get('/api/sn/Plain/search?q=pyhton&_setlocale=en_US');
  t.is(r.status, 200);
  t.false('spellCheck' in r.body.widget, 'spell check is off on this site');
  t.deepEqual(r.body.widget.similar, [], 'More Like This is off on this site');
  t.deepEqual(r.body.widget.spotlights, []);
  const on = await get('/api/sn/Sample/search?q=python&_setlocale=en_US');
  t.deepEqual(on.body.widget.spellCheck, spellCheck('Sample', 'python', '', false, 'en_US'));
  // In the original's order, which the response schema lists.
  const order = Object.keys((searchResponseSchema.properties!.widget as JsonSchema).properties!);
  t.deepEqual(Object.keys(on.body.widget), order);
  t.deepEqual(
    Object.keys(r.body.widget),
    order.filter((key) => key !== 'spellCheck'),
  );
});

test('a query that finds nothing is searched corrected, and the original link goes back to it', async (t) => {
  const expected = docs.filter((d) => `${d.title} ${d.text}`.toLowerCase().includes('python')).length;
  t.true(expected > 0);
  const r = await get('/api/sn/Sample/search?q=pyhton&_setlocale=en_US');
  t.is(r.body.queryContext.count, expected, 'the corrected text found what the original did not');
  t.is(r.body.queryContext.query.queryString, 'python');
  t.deepEqual(r.body.widget.spellCheck, spellCheck('Sample', 'pyhton', 'python', true, 'en_US'));
  t.regex(
    r.body.pagination.find((p: any) => p.type === 'NEXT').href,
    /^\/api\/sn\/Sample\/search\?q=python&/,
    'every link searches the corrected text',
  );
  t.true(
    r.body.results.document[0].fields.title.includes('<mark>python</mark>'),
    'the corrected words are highlighted',
  );

  const back = await get(r.body.widget.spellCheck.original.link);
  t.is(back.body.queryContext.count, 0);
  t.is(back.body.widget.spellCheck.usingCorrectedText, false);
  t.is(back.body.widget.spellCheck.correctedText, true);
  t.is(back.body.widget.spellCheck.corrected.text, 'python');
});

test('spellCheckFixes decides whether the corrected text is searched; without it the correction is only offered', async (t) => {
  const expected = docs.filter((d) => `${d.title} ${d.text}`.toLowerCase().includes('python')).length;
  const offered = await get('/api/sn/Offered/search?q=pyhton');
  t.is(offered.status, 200);
  t.is(offered.body.queryContext.count, 0, 'the query as typed is what was searched');
  t.is(offered.body.queryContext.query.queryString, 'pyhton');
  t.deepEqual(offered.body.widget.spellCheck, spellCheck('Offered', 'pyhton', 'python', false));
  // The correction's link is a search of the corrected text.
  t.is((await get(offered.body.widget.spellCheck.corrected.link)).body.queryContext.count, expected);

  // The console's "Spell Check fixes" switch: the same query is now searched corrected, and says so.
  const switched = await json(vela, 'PUT', '/api/sn/Offered', { spellCheckFixes: true });
  t.is(switched.status, 200, JSON.stringify(switched.body));
  const fixed = await get('/api/sn/Offered/search?q=pyhton');
  t.is(fixed.body.queryContext.count, expected);
  t.is(fixed.body.queryContext.query.queryString, 'python');
  t.deepEqual(fixed.body.widget.spellCheck, spellCheck('Offered', 'pyhton', 'python', true));
  // Fixes without the spell check itself correct nothing (as in the original, both switches are needed).
  t.is((await json(vela, 'PUT', '/api/sn/Offered', { spellCheck: false })).status, 200);
  const off = await get('/api/sn/Offered/search?q=pyhton');
  t.is(off.body.queryContext.count, 0);
  t.false('spellCheck' in off.body.widget, 'no widget with spell check off');
});

test('corrections: edits, swaps, several words; known words and short words stay', async (t) => {
  const corrected = async (q: string) =>
    (await get(`/api/sn/Sample/search?q=${encodeURIComponent(q)}&_setlocale=en_US`)).body.widget.spellCheck;
  t.is((await corrected('libary')).corrected.text, 'library', 'a letter left out');
  t.is((await corrected('brwoser')).corrected.text, 'browser', 'two letters swapped');
  t.is((await corrected('Pyhton Libary!')).corrected.text, 'python library!', 'each word, separators kept');
  t.is((await corrected('terminall')).corrected.text, 'terminal');
  const known = await corrected('python');
  t.is(known.correctedText, false);
  t.is(known.corrected.text, '');
  t.is((await corrected('pxq')).correctedText, false, 'nothing near enough');
  t.is((await corrected('*')).correctedText, false);
});

test('GET /api/sn/{site}/{locale}/spell-check answers the spellCheck object (public)', async (t) => {
  const r = await get('/api/sn/Plain/en_US/spell-check?q=pyhton%20editr');
  t.is(r.status, 200);
  t.deepEqual(r.body, {
    correctedText: true,
    usingCorrectedText: false,
    original: { text: 'pyhton editr', link: '/api/sn/Plain/search?_setlocale=en_US&q=pyhton%20editr&nfpr=1' },
    corrected: { text: 'python editor', link: '/api/sn/Plain/search?_setlocale=en_US&q=python%20editor' },
  });
  for (const path of ['/api/sn/Plain/fr_FR/spell-check?q=x', '/api/sn/Nope/en_US/spell-check?q=x']) {
    const none = await get(path);
    t.deepEqual([none.status, none.body], [200, {}], `${path}: nothing to correct against, as the original`);
  }
  t.is((await get('/api/sn/Plain/en_US/spell-check')).status, 400);
});

test('the spell-check path takes the locale spellings _setlocale takes; control characters in q are refused', async (t) => {
  const expected = (await get('/api/sn/Plain/en_US/spell-check?q=pyhton')).body;
  for (const locale of ['en-US', 'en-us', 'EN_us']) {
    const r = await get(`/api/sn/Plain/${locale}/spell-check?q=pyhton`);
    t.is(r.status, 200, locale);
    t.deepEqual(r.body, expected, `${locale}: the links name the locale as en_US`);
  }
  t.is((await get('/api/sn/Plain/search?q=*&_setlocale=en-US')).status, 200, 'as search takes it');
  const unknown = await get('/api/sn/Plain/english/spell-check?q=x');
  t.deepEqual(
    [unknown.status, unknown.body],
    [200, {}],
    'an unknown spelling is an unknown locale: nothing to correct',
  );
  const control = await get('/api/sn/Plain/en_US/spell-check?q=py%01thon');
  t.is(control.status, 400);
  t.deepEqual(control.body, {
    error: 'invalid_parameter',
    message: 'q must not contain control characters, found U+0001 at position 3',
  });
});

test('More Like This: documents sharing the top terms of the first results, never the results themselves', async (t) => {
  const r = await get('/api/sn/Sample/search?q=audio&_setlocale=en_US&rows=3');
  const shown = new Set(r.body.results.document.map((d: any) => d.fields.id));
  const similar = r.body.widget.similar;
  t.true(similar.length > 0);
  t.true(similar.length <= 5);
  for (const s of similar) {
    t.false(shown.has(s.id), `${s.id} is a result of the page`);
    t.deepEqual(Object.keys(s), ['id', 'title', 'type', 'url']);
    const source = docs.find((d) => d.id === s.id)!;
    t.is(s.title, source.title);
    t.is(s.url, source.url);
  }
  // Every page: never its own results.
  for (let p = 1; p <= 3; p++) {
    const page = await get(`/api/sn/Sample/search?q=*&_setlocale=en_US&p=${p}`);
    const ids = new Set(page.body.results.document.map((d: any) => d.fields.id));
    for (const s of page.body.widget.similar) t.false(ids.has(s.id));
  }
  await json(vela, 'PUT', '/api/sn/Sample', { mlt: false });
  t.deepEqual((await get('/api/sn/Sample/search?q=audio&_setlocale=en_US&rows=3')).body.widget.similar, []);
  await json(vela, 'PUT', '/api/sn/Sample', { mlt: true });
});

test('the language spell checker: en_US and pt_BR dictionaries, unknown locale 404', async (t) => {
  const check = (locale: string, text: string) =>
    json(vela, 'GET', `/api/cognitive/spell-checker/${locale}?text=${encodeURIComponent(text)}`);
  const en = await check('en_US', 'I recieve it');
  t.is(en.status, 200, JSON.stringify(en.body));
  t.true(en.body.includes('I receive it'), JSON.stringify(en.body));
  t.deepEqual((await check('en-us', 'all good here')).body, []);
  const pt = await check('pt-br', 'eu sou brazileiro');
  t.is(pt.status, 200);
  t.true(pt.body.includes('eu sou brasileiro'), JSON.stringify(pt.body));
  for (const locale of ['xx_XX', 'english']) {
    const unknown = await check(locale, 'text');
    t.is(unknown.status, 404, locale);
    t.is(unknown.body.error, 'locale_not_found', locale);
  }
  t.is(
    (await json(vela, 'GET', '/api/cognitive/spell-checker/en_US?text=x', undefined, { authorization: '' })).status,
    401,
    'not public',
  );
});
