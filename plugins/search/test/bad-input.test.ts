import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

/** Each test gets its own runtime (tests in a file run concurrently). */
async function fresh(t: import('ava').ExecutionContext, dataDir?: string): Promise<TestRuntime> {
  const vela = await startTestRuntime({ plugins: ['search'], dataDir });
  t.teardown(() => vela.stop());
  return vela;
}

const item = (attributes: Record<string, unknown>, site = 'Sample') => ({
  locale: 'en_US',
  siteNames: [site],
  attributes,
});

test('a date beyond what a date can hold is rejected by the import; one already stored does not stop the indexer or a start', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-dates-'));
  const first = await startTestRuntime({
    plugins: ['search'],
    dataDir,
    config: { plugins: { search: { indexer: { snapshotDelayMs: 0 } } } },
  });
  t.teardown(() => first.stop());
  const site = await createSite(first, 'Sample', {
    fields: [{ name: 'id' }, { name: 'title', type: 'TEXT' }, { name: 'when', type: 'DATE', facet: true }],
  });
  const imported = await json(first, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      item({ id: 'far', title: 'far', when: 1e20 }),
      item({ id: 'bool', title: 'bool', when: true }),
      item({ id: 'ok', title: 'ok', when: '2026-01-01T00:00:00Z' }),
    ],
  });
  t.is(imported.status, 200);
  t.deepEqual(
    imported.body.rejected.map((r: any) => [r.id, r.reason]),
    [
      ['far', 'attribute "when" must be a date (ISO 8601 or epoch milliseconds), got 100000000000000000000'],
      ['bool', 'attribute "when" must be a date (ISO 8601 or epoch milliseconds), got true'],
    ],
  );
  // A value an older version let in, as stored: the indexer takes it (as text) and goes on.
  await first.runtime.db('search_documents').insert({
    site_id: site.id,
    locale: 'en_US',
    doc_id: 'old',
    attributes: JSON.stringify({ id: 'old', title: 'old', when: 1e20 }),
  });
  await first.runtime
    .db('search_changes')
    .insert({ site_id: site.id, locale: 'en_US', action: 'CREATE', doc_id: 'old' });
  t.is(
    (
      await json(first, 'POST', '/api/sn/import?wait=true', {
        turingDocuments: [item({ id: 'later', title: 'later' })],
      })
    ).status,
    200,
  );
  const r = await search(first, 'q=*&_setlocale=en_US&fl=id');
  t.is(r.status, 200);
  t.deepEqual(r.body.results.document.map((d: any) => d.fields.id).sort(), ['later', 'ok', 'old']);
  await first.runtime.stop();

  // The restart rebuilds the index from the stored documents, the odd one included.
  const second = await fresh(t, dataDir);
  const again = await search(second, 'q=*&_setlocale=en_US&fl=id');
  t.is(again.body.queryContext.count, 3);
});

test('a failing indexer step answers ?wait=true with a 500 instead of hanging, and the next import is indexed', async (t) => {
  const vela = await fresh(t);
  await createSite(vela);
  const importer = vela.runtime.resolve<{
    docs: { changesAfter: (...args: unknown[]) => Promise<unknown> };
    indexes: { drain(): Promise<void> };
  }>('search.importer');
  const original = importer.docs.changesAfter.bind(importer.docs);
  // Every step fails while this is on, so the import's own step does whatever else kicks the indexer meanwhile.
  let failing = true;
  importer.docs.changesAfter = async (...args: unknown[]) => {
    if (failing) throw new Error('database went away');
    return original(...args);
  };
  const stepFailures = () => vela.logs.filter((l) => l.msg.startsWith('search indexer step failed')).length;
  const [a, b] = makeDocs(2);
  const failed = await json(vela, 'POST', '/api/sn/import?wait=true', { turingDocuments: [item({ ...a })] });
  failing = false;
  t.is(failed.status, 500);
  t.true(stepFailures() > 0);
  // The first batch was stored; the next import's step applies both.
  t.is((await importDocs(vela, [b!])).indexed, true);
  t.is((await search(vela, 'q=*&_setlocale=en_US')).body.queryContext.count, 2);
  // drain() itself never rejects: the connector leaves it running without a catch.
  const before = stepFailures();
  failing = true;
  await t.notThrowsAsync(importer.indexes.drain());
  failing = false;
  t.true(stepFailures() > before);
});

test('fields named like Object.prototype members (__proto__, constructor, toString) index, facet, sort and return like any other', async (t) => {
  const vela = await fresh(t);
  await createSite(vela, 'Sample', {
    fields: [
      { name: 'id' },
      { name: 'title', type: 'TEXT' },
      { name: '__proto__', facet: true },
      { name: 'constructor', facet: true },
      { name: 'toString', type: 'INT' },
    ],
  });
  const imported = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      item(JSON.parse('{"id":"a","title":"alpha","__proto__":"P1","constructor":"C1","toString":2}')),
      item({ id: 'b', title: 'beta', constructor: 'C1', toString: 1 }),
      item({ id: 'c', title: 'gamma' }),
    ],
  });
  t.deepEqual([imported.status, imported.body.accepted], [200, 3]);
  const r = await search(vela, 'q=*&_setlocale=en_US&sort=toString:asc');
  t.is(r.status, 200);
  t.deepEqual(
    r.body.results.document.map((d: any) => d.fields.id),
    ['b', 'a', 'c'],
  );
  const a = r.body.results.document[1];
  t.is(
    Object.getOwnPropertyDescriptor(a.fields, '__proto__')?.value,
    'P1',
    'the attribute is returned, not taken as a prototype',
  );
  t.deepEqual(
    a.metadata.map((m: any) => [m.name, m.values.map((v: any) => v.label)]),
    [
      ['__proto__', ['P1']],
      ['constructor', ['C1']],
    ],
  );
  t.deepEqual(r.body.results.document[2].metadata, [], 'a document without the fields has no values for them');
  const facets = Object.fromEntries(
    r.body.widget.facet.map((g: any) => [g.name, g.facets.map((f: any) => [f.label, f.count])]),
  );
  t.deepEqual(facets, JSON.parse('{"__proto__":[["P1",1]],"constructor":[["C1",2]]}'));
  t.is((await search(vela, 'q=*&_setlocale=en_US&fq[]=constructor:C1')).body.queryContext.count, 2);
  // A site change rebuilds the index, which must handle these names too (not a 500).
  t.is((await json(vela, 'PUT', '/api/sn/Sample', { description: 'rebuilt' })).status, 200);
  t.is((await search(vela, 'q=*&_setlocale=en_US&fq[]=__proto__:P1')).body.queryContext.count, 1);
});

test('a malformed range on a number or date field is a 400 naming the filter, not a silently open bound', async (t) => {
  const vela = await fresh(t);
  await createSite(vela);
  await importDocs(vela, makeDocs(20));
  for (const [fq, wanted] of [
    [
      'size:[x TO]',
      /^fq\[\] has a malformed range "size:\[x TO\]": write size:\[from TO to\] with numbers, or \* for an open end$/,
    ],
    ['size:[1 TO', /malformed range "size:\[1 TO"/],
    ['size:[a TO b]', /malformed range/],
    ['publication_date:[2026-13-45T00:00:00Z TO *]', /malformed range .*with UTC date-times like 2026-03-01T00:00:00Z/],
  ] as const) {
    const r = await search(vela, `q=*&_setlocale=en_US&fq[]=${encodeURIComponent(fq)}`);
    t.is(r.status, 400, fq);
    t.is(r.body.error, 'invalid_parameter');
    t.regex(r.body.message, wanted);
  }
  const post = await json(vela, 'POST', '/api/sn/Sample/search', {
    query: '*',
    locale: 'en_US',
    fqAnd: ['size:[1 TO x]'],
  });
  t.deepEqual([post.status, post.body.error], [400, 'invalid_parameter']);
  t.regex(post.body.message, /^fqAnd has a malformed range/);
  // Well-formed ranges still work, open ends and day-only bounds included.
  t.is((await search(vela, 'q=*&_setlocale=en_US&fq[]=size:[*%20TO%20*]')).body.queryContext.count, 20);
  t.is(
    (await search(vela, 'q=*&_setlocale=en_US&fq[]=publication_date:[2024-01-01%20TO%202024-01-05]')).body.queryContext
      .count,
    5,
  );
});

test('import items of the wrong shape are rejected with a reason naming the member, not stored as something else', async (t) => {
  const vela = await fresh(t);
  await createSite(vela);
  const r = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { locale: 'en_US', turSNJobAction: 5, siteNames: ['Sample'], attributes: { id: 'numeric-action' } },
      { locale: 'en_US', siteNames: ['Sample'], attributes: [1, 2] },
      { locale: 'en_US', siteNames: ['Sample'], attributes: 'id=x' },
      { locale: 'en_US', siteNames: ['Sample'], attributes: { id: { nested: true } } },
      { locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: true } },
      { locale: 'en_US', turSNJobAction: null, siteNames: ['Sample'], attributes: { id: 'fine' } },
    ],
  });
  t.is(r.status, 200);
  t.deepEqual(
    r.body.rejected.map((x: any) => [x.index, x.reason]),
    [
      [0, 'turSNJobAction must be CREATE, DELETE or COMMIT, got 5'],
      [1, 'attributes must be an object of attribute values, got [1,2]'],
      [2, 'attributes must be an object of attribute values, got "id=x"'],
      [3, 'attribute "id" must be a non-empty string or a number, got {"nested":true}'],
      [4, 'attribute "id" must be a non-empty string or a number, got true'],
    ],
  );
  t.is(r.body.accepted, 1, 'a null action is the default CREATE');
  t.deepEqual(
    (await search(vela, 'q=*&_setlocale=en_US&fl=id')).body.results.document.map((d: any) => d.fields.id),
    ['fine'],
  );
});
