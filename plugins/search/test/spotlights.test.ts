import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Database } from 'vela/plugin';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { SpotlightStore } from '../spotlights/spotlight-store.js';
import { SiteStore } from '../store/site-store.js';
import { createSite, heldRead, json, makeDocs, startSample } from './fixtures.js';

let vela: TestRuntime;
const docs = makeDocs(40);

test.before(async () => {
  vela = await startSample(docs, { spotlightWithResults: true });
});
test.after.always(() => vela?.stop());

const get = (path: string) => json(vela, 'GET', path, undefined, { authorization: '' });
const ids = (r: any) => r.body.results.document.map((d: any) => (d.elevate ? `*${d.fields.id}` : d.fields.id));

test.serial('CRUD: create, read, list, update (terms and documents replaced whole), delete; 404 and 400', async (t) => {
  const structure = await json(vela, 'GET', '/api/sn/Sample/spotlight/structure');
  t.is(structure.status, 200);
  t.like(structure.body, { name: '', locale: 'en_US', terms: [], documents: [] });
  const created = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'Holiday',
    terms: ['sale', { name: 'Offer' }],
    documents: [
      { position: 1, title: 'Big sale', content: 'Everything half price', link: 'https://shop.example/sale' },
    ],
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body, { name: 'Holiday', locale: 'en_US', managed: true, provider: 'VELA', terms: ['sale', 'Offer'] });
  t.like(created.body.documents[0], {
    position: 1,
    title: 'Big sale',
    type: 'Page',
    referenceId: null,
    link: 'https://shop.example/sale',
  });
  const id = created.body.id;
  t.deepEqual((await json(vela, 'GET', `/api/sn/Sample/spotlight/${id}`)).body, created.body);
  t.is((await json(vela, 'GET', '/api/sn/Sample/spotlight')).body.length, 1);
  const updated = await json(vela, 'PUT', `/api/sn/Sample/spotlight/${id}`, {
    terms: ['deal'],
    documents: [{ position: 2, title: 'Deal' }],
  });
  t.is(updated.status, 200);
  t.deepEqual(updated.body.terms, ['deal']);
  t.deepEqual(
    updated.body.documents.map((d: any) => [d.position, d.title]),
    [[2, 'Deal']],
  );
  t.is(updated.body.name, 'Holiday', 'members left out keep their values');
  t.is((await json(vela, 'PUT', `/api/sn/Sample/spotlight/${id}`, { locale: 'fr_FR' })).status, 400);
  t.is((await json(vela, 'POST', '/api/sn/Sample/spotlight', { terms: ['x'] })).status, 400, 'name is required');
  t.is((await json(vela, 'POST', '/api/sn/Sample/spotlight', { name: 'x', documents: [{ position: 0 }] })).status, 400);
  // Refusals name the member and say what it takes.
  for (const [method, path, body, message] of [
    ['PUT', `/api/sn/Sample/spotlight/${id}`, null, 'body must be of type object, got null'],
    ['PUT', `/api/sn/Sample/spotlight/${id}`, 'x', 'body must be of type object, got "x"'],
    [
      'POST',
      '/api/sn/Sample/spotlight',
      { name: 'x', terms: [''] },
      'body.terms[0] must be at least 1 characters long, got ""',
    ],
    [
      'POST',
      '/api/sn/Sample/spotlight',
      { name: 'x', terms: ['ok', 7] },
      'body.terms[1] must be of type string or object, got 7',
    ],
    ['POST', '/api/sn/Sample/spotlight', { name: 'x', terms: [{ id: 1 }] }, 'body.terms[0].name is required'],
    [
      'POST',
      '/api/sn/Sample/spotlight',
      { name: 'x', terms: [{ name: '' }] },
      'body.terms[0].name must be at least 1 characters long, got ""',
    ],
    [
      'POST',
      '/api/sn/Sample/spotlight',
      { name: 'n'.repeat(101) },
      `body.name must be at most 100 characters long, got "${'n'.repeat(76)}...`,
    ],
  ] as const) {
    t.deepEqual(
      (await json(vela, method, path, body)).body,
      { error: 'validation_failed', message },
      `${method} ${JSON.stringify(body)}`,
    );
  }
  const longest = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'n'.repeat(100),
    terms: [{ name: 'long name' }],
  });
  t.is(longest.status, 201, 'a name of 100 characters, as the console allows');
  await json(vela, 'DELETE', `/api/sn/Sample/spotlight/${longest.body.id}`);
  t.deepEqual((await json(vela, 'DELETE', `/api/sn/Sample/spotlight/${id}`)).body, {
    deleted: true,
    id,
    name: 'Holiday',
  });
  const gone = await json(vela, 'GET', `/api/sn/Sample/spotlight/${id}`);
  t.is(gone.status, 404);
  t.is(gone.body.error, 'spotlight_not_found');
  t.is((await json(vela, 'GET', '/api/sn/Nope/spotlight')).status, 404);
  t.is((await json(vela, 'GET', '/api/sn/Sample/spotlight', undefined, { authorization: '' })).status, 401);
});

test.serial('matching and injection: documents at their absolute positions across pages, elevate true', async (t) => {
  // Organic order of q=package (every document matches): the order of the plain search.
  const organic: string[] = ids(await get('/api/sn/Sample/search?q=package&_setlocale=en_US&rows=40'));
  t.is(organic.length, 40);
  const promoted = docs[30]!.id;
  const created = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'Packages',
    terms: ['PACKAGE'],
    documents: [
      { position: 1, title: 'Read me first', content: 'How packages work', link: 'https://packages.example/readme' },
      { position: 4, referenceId: promoted, title: 'ignored: the document is shown' },
      { position: 4, title: 'Same position', content: 'takes the next slot' },
    ],
  });
  t.is(created.status, 201);
  const [readme, , same] = created.body.documents.map((d: any) => d.id);
  // The merged list: slot 1 readme, 2-3 organic, 4 the promoted document, 5 "same", then organic.
  const merged = [`*${readme}`, organic[0], organic[1], `*${promoted}`, `*${same}`, ...organic.slice(2)];
  const pages: string[] = [];
  for (let p = 1; p <= 15; p++) {
    const r = await get(`/api/sn/Sample/search?q=package&_setlocale=en_US&rows=3&p=${p}`);
    if (r.body.results.document.length === 0) break;
    pages.push(...ids(r));
    if (p === 1) {
      t.deepEqual(
        r.body.widget.spotlights.map((s: any) => s.position),
        [1, 4, 4],
      );
      t.like(r.body.results.document[0], { source: 'https://packages.example/readme', elevate: true, metadata: [] });
      t.is(r.body.results.document[0].fields.title, 'Read me first');
      t.is(r.body.queryContext.count, 40, 'count stays the documents found');
      t.is(r.body.queryContext.pageCount, 15, '43 listed, 3 per page');
    }
  }
  t.deepEqual(pages, merged);
  const promotedDoc = (await get('/api/sn/Sample/search?q=package&_setlocale=en_US&rows=3&p=2')).body.results
    .document[0];
  t.is(
    promotedDoc.fields.title,
    docs[30]!.title.replace(/package/, '<mark>package</mark>'),
    'a referenced document is shown highlighted, as a result',
  );

  // A query without a spotlight term: nothing injected, widget empty.
  const other = await get('/api/sn/Sample/search?q=editor&_setlocale=en_US');
  t.deepEqual(other.body.widget.spotlights, []);
  t.false(other.body.results.document.some((d: any) => d.elevate));

  // Off: listed in the widget only.
  await json(vela, 'PUT', '/api/sn/Sample', { spotlightWithResults: false });
  const off = await get('/api/sn/Sample/search?q=package&_setlocale=en_US&rows=3');
  t.is(off.body.widget.spotlights.length, 3);
  t.deepEqual(ids(off), organic.slice(0, 3));
  await json(vela, 'PUT', '/api/sn/Sample', { spotlightWithResults: true });

  // Positions past the results are never injected.
  const few = await get('/api/sn/Sample/search?q=package%207&_setlocale=en_US&rows=10');
  const found = few.body.queryContext.count;
  t.is(found, 1);
  t.deepEqual(
    few.body.results.document.filter((d: any) => d.elevate).map((d: any) => d.fields.id),
    [readme],
  );
  await json(vela, 'DELETE', `/api/sn/Sample/spotlight/${created.body.id}`);
});

test.serial(
  'unmanaged spotlights through the import API (TUR_SPOTLIGHT): created, replaced, deleted by id or provider',
  async (t) => {
    const item = (attributes: Record<string, unknown>, action = 'CREATE') => ({
      locale: 'en_US',
      turSNJobAction: action,
      siteNames: ['Sample'],
      attributes: { type: 'TUR_SPOTLIGHT', ...attributes },
    });
    const spotlight = {
      id: 'promo-1',
      name: 'Promo',
      source_apps: 'CMS',
      modification_date: '2026-01-02T10:00:00',
      terms: 'editor, vim',
      content: JSON.stringify([
        {
          position: 2,
          title: 'Editors guide',
          content: 'Pick one',
          link: 'https://cms.example/editors',
          type: 'Guide',
        },
      ]),
    };
    const imported = await json(vela, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [
        item(spotlight),
        item({ id: 'bad', name: 'No terms', terms: '' }),
        item({ id: 'promo-2', name: 'Other', source_apps: 'CMS', terms: 'zzz' }),
      ],
    });
    t.is(imported.status, 200);
    t.is(imported.body.accepted, 2);
    t.deepEqual(
      imported.body.rejected.map((r: any) => [r.index, r.reason]),
      [[1, 'attribute "terms" must name at least one term']],
    );
    const list = (await json(vela, 'GET', '/api/sn/Sample/spotlight')).body;
    t.is(list.length, 2);
    // Both were created in one import, often in the same millisecond: the list's order between them is by id.
    t.like(
      list.find((s: any) => s.unmanagedId === 'promo-1'),
      {
        name: 'Promo',
        managed: false,
        unmanagedId: 'promo-1',
        provider: 'CMS',
        terms: ['editor', 'vim'],
        modificationDate: '2026-01-02T10:00:00',
      },
    );
    t.is(
      (await get('/api/sn/Sample/search?q=vim%20editor&_setlocale=en_US')).body.widget.spotlights[0].title,
      'Editors guide',
    );
    t.is((await get('/api/sn/Sample/search?q=editor&_setlocale=en_US')).body.results.document[1].elevate, true);

    // The same id again replaces it; the documents are not in the index.
    await json(vela, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [item({ ...spotlight, name: 'Promo 2', terms: 'emacs' })],
    });
    const again = (await json(vela, 'GET', '/api/sn/Sample/spotlight')).body;
    t.is(again.length, 2);
    t.like(
      again.find((s: any) => s.unmanagedId === 'promo-1'),
      { name: 'Promo 2', terms: ['emacs'] },
    );
    t.is((await get('/api/sn/Sample/search?q=*&_setlocale=en_US&rows=1')).body.queryContext.count, 40);

    await json(vela, 'POST', '/api/sn/import?wait=true', { turingDocuments: [item({ id: 'promo-1' }, 'DELETE')] });
    t.deepEqual(
      (await json(vela, 'GET', '/api/sn/Sample/spotlight')).body.map((s: any) => s.unmanagedId),
      ['promo-2'],
    );
    await json(vela, 'POST', '/api/sn/deindex?wait=true', { turingDocuments: [item({ source_apps: 'CMS' })] });
    t.deepEqual((await json(vela, 'GET', '/api/sn/Sample/spotlight')).body, []);
  },
);

test.serial('spotlights survive a restart, and go with their site', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-spotlights-'));
  try {
    const first = await startTestRuntime({ plugins: ['search'], dataDir });
    await createSite(first, 'Temp', { locales: ['en_US'] });
    const created = await json(first, 'POST', '/api/sn/Temp/spotlight', {
      name: 'Kept',
      terms: ['x'],
      documents: [{ position: 1, title: 'X' }],
    });
    t.is(created.status, 201);
    await first.stop();
    const second = await startTestRuntime({ plugins: ['search'], dataDir });
    try {
      t.deepEqual((await json(second, 'GET', '/api/sn/Temp/spotlight')).body, [created.body]);
      t.is((await json(second, 'GET', '/api/sn/Temp/search?q=x')).body.widget.spotlights.length, 1);
      await json(second, 'DELETE', '/api/sn/Temp');
      await createSite(second, 'Temp', { locales: ['en_US'] });
      t.deepEqual((await json(second, 'GET', '/api/sn/Temp/spotlight')).body, []);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.serial("a reload whose read began before this process's write does not drop the write from memory", async (t) => {
  const db = vela.runtime.resolve('db') as Database;
  const site = (await json(vela, 'GET', '/api/sn/Sample')).body;
  const late = heldRead(db, 'search_spotlights');
  const store = new SpotlightStore(late.db, new SiteStore(db, vela.runtime.logger), vela.runtime.logger);
  await store.load();
  late.hold();
  const reload = store.load();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const written = await store.create(site.id, { name: 'Written meanwhile', locale: 'en_US', terms: ['meanwhile'] });
  late.release();
  await reload;
  t.truthy(store.find(site.id, written.id), 'the write is still in memory after the reload');
  await store.delete(site.id, written.id);
});
