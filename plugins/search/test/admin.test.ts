import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs } from './fixtures.js';

/** Each test gets its own runtime (tests in a file run concurrently). */
async function fresh(t: import('ava').ExecutionContext): Promise<TestRuntime> {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  return vela;
}

test('a new site gets the defaults, the template fields and en_US', async (t) => {
  const vela = await fresh(t);
  const created = await json(vela, 'POST', '/api/sn', { name: 'News Site' });
  t.is(created.status, 201);
  t.like(created.body, {
    name: 'News Site',
    rowsPerPage: 10,
    facet: true,
    itemsPerFacet: 10,
    facetType: 'AND',
    facetItemType: 'AND',
    hl: true,
    hlPre: '<mark>',
    hlPost: '</mark>',
    locales: ['en_US'],
  });
  const fields = await json(vela, 'GET', `/api/sn/${created.body.id}/field`);
  t.deepEqual(fields.body.map((f: any) => f.name).sort(), [
    'abstract',
    'author',
    'id',
    'image',
    'modification_date',
    'publication_date',
    'section',
    'site',
    'source_apps',
    'text',
    'title',
    'type',
    'url',
  ]);
  t.is((await json(vela, 'GET', '/api/sn/News%20Site')).body.id, created.body.id, 'a site is found by id or name');
});

test('site validation names the member; a duplicate name is a 409', async (t) => {
  const vela = await fresh(t);
  const badFields = await json(vela, 'POST', '/api/sn', {
    name: 'F',
    fields: [{ type: 'NUMBER' }, { name: 'n', facet: 'yes' }],
  });
  t.is(badFields.status, 400);
  t.regex(badFields.body.message, /body\.fields\[0\]\.name is required/);
  t.regex(badFields.body.message, /body\.fields\[1\]\.facet must be of type boolean/);
  const badRestore = await json(vela, 'POST', '/api/sn/import-config', {
    sites: [{ name: 'Loose', rowsPerPage: 'ten', locales: ['english'] }],
  });
  t.is(badRestore.status, 400);
  t.regex(badRestore.body.message, /body\.sites\[0\]\.rowsPerPage must be of type integer/);
  t.is((await json(vela, 'GET', '/api/sn/Loose')).status, 404, 'nothing was stored');
  const bad = await json(vela, 'POST', '/api/sn', { name: 'X', rowsPerPage: 'ten', locales: ['english'] });
  t.is(bad.status, 400);
  t.regex(bad.body.message, /body\.rowsPerPage must be of type integer, got "ten"/);
  t.regex(bad.body.message, /body\.locales\[0\] must match/);
  t.is((await json(vela, 'POST', '/api/sn', { name: 'Dup' })).status, 201);
  const dup = await json(vela, 'POST', '/api/sn', { name: 'dup' });
  t.deepEqual([dup.status, dup.body.error], [409, 'site_exists']);
  t.is((await json(vela, 'GET', '/api/sn/none')).status, 404);
});

test('updating a site keeps what is left out; deleting it removes its documents and index', async (t) => {
  const vela = await fresh(t);
  const site = await createSite(vela);
  await importDocs(vela, makeDocs(10));
  const updated = await json(vela, 'PUT', `/api/sn/${site.id}`, { rowsPerPage: 3, facetItemType: 'OR' });
  t.like(updated.body, { rowsPerPage: 3, facetItemType: 'OR', hlPre: '<mark>', name: 'Sample' });
  const r = await json(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US');
  t.is(r.body.queryContext.limit, 3);
  const deleted = await json(vela, 'DELETE', `/api/sn/${site.id}`);
  t.deepEqual(deleted.body, { deleted: true, id: site.id, name: 'Sample' });
  t.is((await vela.runtime.db('search_documents').where({ site_id: site.id }).count({ n: '*' }).first())!.n, 0);
  t.is((await json(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US')).status, 404);
});

test('fields: CRUD, 409 on a duplicate name, and a new facet shows in results after its index rebuild', async (t) => {
  const vela = await fresh(t);
  await createSite(vela);
  await importDocs(vela, makeDocs(30));
  const list = await json(vela, 'GET', '/api/sn/Sample/field');
  const size = list.body.find((f: any) => f.name === 'size');
  t.is((await json(vela, 'POST', '/api/sn/Sample/field', { name: 'size' })).status, 409);
  const bad = await json(vela, 'POST', '/api/sn/Sample/field', { name: 'x', type: 'NUMBER' });
  t.regex(
    bad.body.message,
    /body\.type must be one of "STRING", "TEXT", "INT", "LONG", "FLOAT", "DATE", "BOOL", got "NUMBER"/,
  );
  const updated = await json(vela, 'PUT', `/api/sn/Sample/field/${size.id}`, {
    facet: true,
    facetName: 'Size',
    facetLabels: { pt_BR: 'Tamanho' },
  });
  t.like(updated.body, { name: 'size', type: 'INT', facet: true, facetName: 'Size' });
  const r = await json(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US');
  const facet = r.body.widget.facet.find((g: any) => g.name === 'size');
  t.truthy(facet, 'the rebuilt index counts the new facet');
  t.deepEqual(facet.label, { lang: 'en_US', text: 'Size' });
  const created = await json(vela, 'POST', '/api/sn/Sample/field', { name: 'maintainer', facet: true });
  t.is(created.status, 201);
  t.is((await json(vela, 'GET', `/api/sn/Sample/field/${created.body.id}`)).body.name, 'maintainer');
  t.is((await json(vela, 'DELETE', `/api/sn/Sample/field/${created.body.id}`)).status, 200);
  t.is((await json(vela, 'GET', `/api/sn/Sample/field/${created.body.id}`)).status, 404);
});

test('locales can be added and removed (the last one stays)', async (t) => {
  const vela = await fresh(t);
  await json(vela, 'POST', '/api/sn', { name: 'L' });
  t.deepEqual((await json(vela, 'POST', '/api/sn/L/locale', { locale: 'de_DE' })).body.locales, ['en_US', 'de_DE']);
  t.is((await json(vela, 'POST', '/api/sn/L/locale', { locale: 'de_DE' })).status, 409);
  t.deepEqual((await json(vela, 'DELETE', '/api/sn/L/locale/en_US')).body.locales, ['de_DE']);
  t.is((await json(vela, 'DELETE', '/api/sn/L/locale/de_DE')).status, 409);
});

test('monitoring counts documents and the indexing queue per locale', async (t) => {
  const vela = await fresh(t);
  const site = await createSite(vela);
  await importDocs(vela, makeDocs(25));
  const m = await json(vela, 'GET', `/api/sn/${site.id}/monitoring`);
  t.deepEqual(m.body, {
    documents: 25,
    queue: 0,
    locales: { en_US: { documents: 25, indexed: 25, queue: 0 }, pt_BR: { documents: 0, indexed: 0, queue: 0 } },
  });
});

test('import rejects bad documents one by one with their reasons', async (t) => {
  const vela = await fresh(t);
  await createSite(vela);
  const r = await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      {
        locale: 'en_US',
        turSNJobAction: 'CREATE',
        siteNames: ['Sample'],
        attributes: { id: 'ok-1', title: 'fine', size: 5, extra_note: 'kept' },
      },
      { locale: 'en_US', turSNJobAction: 'CREATE', siteNames: ['Sample'], attributes: { title: 'no id' } },
      { locale: 'en_US', turSNJobAction: 'CREATE', siteNames: ['Sample'], attributes: { id: 'bad-size', size: 'big' } },
      { locale: 'en_US', turSNJobAction: 'CREATE', siteNames: ['Sample', 'Ghost'], attributes: { id: 'two-sites' } },
      { locale: 'fr_FR', turSNJobAction: 'CREATE', siteNames: ['Sample'], attributes: { id: 'wrong-locale' } },
      { locale: 'en_US', turSNJobAction: 'EXPLODE', siteNames: ['Sample'], attributes: { id: 'x' } },
      { locale: 'en_US', turSNJobAction: 'COMMIT', siteNames: ['Sample'] },
    ],
  });
  t.is(r.status, 200);
  t.is(r.body.accepted, 2);
  t.is(r.body.commits, 1);
  t.deepEqual(
    r.body.rejected.map((x: any) => [x.index, x.reason]),
    [
      [1, 'attribute "id" is required to create a document'],
      [2, 'attribute "size" must be an integer, got "big"'],
      [3, 'site "Ghost" does not exist'],
      [4, 'site "Sample" has no locale fr_FR (it has: en_US, pt_BR)'],
      [5, 'turSNJobAction must be CREATE, DELETE or COMMIT, got "EXPLODE"'],
    ],
  );
  const doc = await json(vela, 'GET', '/api/sn/Sample/search?q=fine&_setlocale=en_US');
  t.is(doc.body.results.document[0].fields.extra_note, 'kept', 'unknown attributes are kept as stored fields');
  const allBad = await json(vela, 'POST', '/api/sn/import', {
    turingDocuments: [{ locale: 'en_US', siteNames: ['Ghost'], attributes: { id: 'g' } }],
  });
  t.deepEqual([allBad.status, allBad.body.error], [400, 'invalid_parameter']);
  t.regex(allBad.body.message, /were all rejected: #0 \(g\): site "Ghost" does not exist/);
  t.is((await json(vela, 'POST', '/api/sn/import', { documents: [] })).status, 400);
});

test('DELETE by id and by type, and /api/sn/deindex, remove documents from search', async (t) => {
  const vela = await fresh(t);
  await createSite(vela);
  const docs = makeDocs(10).map((d, i) => ({ ...d, type: i < 4 ? 'old' : 'new' }));
  await importDocs(vela, docs as any);
  const del = (items: unknown[], path = '/api/sn/import?wait=true') =>
    json(vela, 'POST', path, { turingDocuments: items });
  await del([{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: 'doc-0009' } }]);
  await del([{ locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { type: 'old' } }]);
  await del([{ locale: 'en_US', siteNames: ['Sample'], attributes: { id: 'doc-0008' } }], '/api/sn/deindex?wait=true');
  const r = await json(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US&fl=id');
  t.deepEqual(r.body.results.document.map((d: any) => d.fields.id).sort(), [
    'doc-0004',
    'doc-0005',
    'doc-0006',
    'doc-0007',
  ]);
});

test('import specs create the fields a site lacks', async (t) => {
  const vela = await fresh(t);
  await json(vela, 'POST', '/api/sn', { name: 'Specs', fields: [{ name: 'id' }, { name: 'title', type: 'TEXT' }] });
  await json(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      {
        locale: 'en_US',
        turSNJobAction: 'CREATE',
        siteNames: ['Specs'],
        attributes: { id: '1', title: 'hello', category: ['a', 'b'] },
        specs: [
          {
            name: 'category',
            type: 'STRING',
            multiValued: true,
            facet: true,
            facetName: { default: 'Categories', pt_BR: 'Categorias' },
          },
        ],
      },
    ],
  });
  const field = (await json(vela, 'GET', '/api/sn/Specs/field/category')).body;
  t.like(field, {
    name: 'category',
    multiValued: true,
    facet: true,
    facetName: 'Categories',
    facetLabels: { pt_BR: 'Categorias' },
  });
  const r = await json(vela, 'GET', '/api/sn/Specs/search?q=*&_setlocale=en_US');
  t.deepEqual(
    r.body.widget.facet[0].facets.map((f: any) => [f.label, f.count]),
    [
      ['a', 1],
      ['b', 1],
    ],
  );
});

test('an export restores the same sites into another runtime', async (t) => {
  const vela = await fresh(t);
  await createSite(vela, 'Sample', { rowsPerPage: 7 });
  const exported = await json(vela, 'GET', '/api/sn/export');
  t.is(exported.body.sites.length, 1);
  const other = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => other.stop());
  const restored = await json(other, 'POST', '/api/sn/import-config', exported.body);
  t.deepEqual(restored.body, { restored: [{ name: 'Sample', action: 'created' }] });
  const site = (await json(other, 'GET', '/api/sn/Sample')).body;
  t.like(site, { rowsPerPage: 7, locales: ['en_US', 'pt_BR'] });
  const fields = (await json(other, 'GET', '/api/sn/Sample/field')).body
    .map((f: any) => [f.name, f.type, f.facet])
    .sort();
  const originalFields = (await json(vela, 'GET', '/api/sn/Sample/field')).body
    .map((f: any) => [f.name, f.type, f.facet])
    .sort();
  t.deepEqual(fields, originalFields);
  const again = await json(other, 'POST', '/api/sn/import-config', exported.body);
  t.deepEqual(again.body, { restored: [{ name: 'Sample', action: 'replaced' }] });
});

test("a field promoted to secondary facet shows in widget.secondaryFacet, also with the site's Facet switch off", async (t) => {
  const vela = await fresh(t);
  const site = await createSite(vela);
  const docs = makeDocs(40);
  await importDocs(vela, docs);
  t.is((await json(vela, 'PUT', '/api/sn/Sample/field/arch', { secondaryFacet: true })).status, 200);
  const r = await json(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US&fq[]=section:web');
  t.deepEqual(
    r.body.widget.facet.map((g: any) => g.name),
    ['tags'],
  );
  t.deepEqual(
    r.body.widget.secondaryFacet.map((g: any) => g.name),
    ['arch'],
  );
  const arch = r.body.widget.secondaryFacet[0];
  t.like(arch, {
    label: { lang: 'en_US', text: 'Architectures' },
    facetType: 'AND',
    facetItemType: 'AND',
    selectedFilterQueries: [],
  });
  for (const item of arch.facets) {
    t.is(item.count, docs.filter((d) => d.section === 'web' && d.arch === item.label).length);
    t.is(item.link, `/api/sn/Sample/search?q=*&_setlocale=en_US&fq[]=section:web&fq[]=arch:${item.label}`);
  }
  // Facet off: widget.facet is empty, secondary facets stay (the spec: independent of Facet).
  t.is((await json(vela, 'PUT', `/api/sn/${site.id}`, { facet: false })).status, 200);
  const off = await json(vela, 'GET', '/api/sn/Sample/search?q=*&_setlocale=en_US');
  t.deepEqual(off.body.widget.facet, []);
  t.deepEqual(
    off.body.widget.secondaryFacet.map((g: any) => [g.name, g.facets.reduce((n: number, f: any) => n + f.count, 0)]),
    [['arch', 40]],
  );
  t.true(off.body.results.document[0].metadata.length > 0, 'metadata does not depend on the switch');
});

test('import-config refuses a file that names a site or a field twice, before writing anything', async (t) => {
  const vela = await fresh(t);
  const r = await json(vela, 'POST', '/api/sn/import-config', {
    sites: [
      { name: 'First' },
      { name: 'Second', fields: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] },
      { name: 'first' },
    ],
  });
  t.deepEqual([r.status, r.body.error], [400, 'validation_failed']);
  t.is(
    r.body.message,
    'body.sites[1].fields[2].name "a" repeats body.sites[1].fields[0]; body.sites[2].name "first" names the site of body.sites[0] again',
  );
  t.deepEqual((await json(vela, 'GET', '/api/sn')).body, [], 'no site was written');
});
