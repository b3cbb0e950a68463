import test, { type ExecutionContext } from 'ava';
import { eventually, postgresReachable, startTestRuntime, type TestRuntime, testDatabase } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

/** Two processes sharing one database, stopped when the test ends (before the database is dropped). */
async function twoProcesses(
  t: ExecutionContext,
  databaseUrl: string,
  config: object,
): Promise<[TestRuntime, TestRuntime]> {
  const a = await startTestRuntime({ plugins: ['search'], databaseUrl, config });
  const b = await startTestRuntime({ plugins: ['search'], databaseUrl, config });
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });
  return [a, b];
}

pgTest('on PostgreSQL the search service stores, indexes, searches and survives a restart', async (t) => {
  const url = (await testDatabase(t)).url;
  const docs = makeDocs(150);
  const first = await startTestRuntime({ plugins: ['search'], databaseUrl: url });
  await createSite(first);
  const imported = await importDocs(first, docs);
  t.is(imported.accepted, 150);
  const r = await search(first, 'q=*&_setlocale=en_US&fq[]=arch:all');
  t.is(r.body.queryContext.count, docs.filter((d) => d.arch === 'all').length);
  const m = await json(first, 'GET', '/api/sn/Sample/monitoring');
  t.like(m.body, { documents: 150, queue: 0 });
  await json(first, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { locale: 'en_US', turSNJobAction: 'DELETE', siteNames: ['Sample'], attributes: { id: docs[0]!.id } },
    ],
  });
  await first.stop();

  const second = await startTestRuntime({ plugins: ['search'], databaseUrl: url });
  t.teardown(() => second.stop());
  t.is((await search(second, 'q=*&_setlocale=en_US')).body.queryContext.count, 149);
  const token = await json(second, 'POST', '/api/dev/token', { title: 'pg' });
  t.is(token.status, 201);
  t.is((await second.fetch('search', '/api/sn', { headers: { key: token.body.token } })).status, 200);
});

pgTest(
  "processes sharing one PostgreSQL database see each other's sites, documents and token revocations",
  async (t) => {
    const [a, b] = await twoProcesses(t, (await testDatabase(t)).url, {
      plugins: { search: { indexer: { pollMs: 150 } } },
    });
    await createSite(a);
    await importDocs(a, makeDocs(40));
    const token = (await json(a, 'POST', '/api/dev/token', { title: 'shared' })).body.token as string;
    await eventually(
      async () => (await search(b, 'q=*&_setlocale=en_US')).body.queryContext?.count === 40,
      'B seeing the site and its documents',
    );
    await eventually(
      async () => (await b.fetch('search', '/api/sn', { headers: { key: token } })).status === 200,
      'B accepting the new token',
    );
    await json(a, 'DELETE', `/api/dev/token/${(await json(a, 'GET', '/api/dev/token')).body[0].id}`);
    await eventually(
      async () => (await b.fetch('search', '/api/sn', { headers: { key: token } })).status === 401,
      'B refusing the revoked token',
    );
    await json(a, 'PUT', '/api/sn/Sample', { rowsPerPage: 4 });
    await eventually(
      async () => (await search(b, 'q=*&_setlocale=en_US')).body.queryContext?.limit === 4,
      'B using the new site settings',
    );
    t.is((await search(b, 'q=*&_setlocale=en_US')).body.queryContext.count, 40, 'B still finds every document');
  },
);

pgTest(
  'on PostgreSQL spotlights are stored, matched, shared between processes and kept across a restart',
  async (t) => {
    const url = (await testDatabase(t)).url;
    const [a, b] = await twoProcesses(t, url, { plugins: { search: { indexer: { pollMs: 150 } } } });
    await createSite(a, 'Sample', { spotlightWithResults: true, rowsPerPage: 3 });
    const docs = makeDocs(20);
    await importDocs(a, docs);
    const created = await json(a, 'POST', '/api/sn/Sample/spotlight', {
      name: 'Editors',
      terms: ['package', { name: 'Écrire' }],
      documents: [
        { position: 1, title: 'Choosing a package', link: 'https://wiki.example/packages' },
        { position: 2, referenceId: docs[5]!.id },
      ],
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const updated = await json(a, 'PUT', `/api/sn/Sample/spotlight/${created.body.id}`, {
      terms: ['package', 'écrire'],
    });
    t.deepEqual(updated.body.terms, ['package', 'écrire'], 'terms replaced whole');
    const unmanaged = await json(a, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [
        {
          locale: 'en_US',
          siteNames: ['Sample'],
          attributes: {
            type: 'TUR_SPOTLIGHT',
            id: 'cms-1',
            name: 'From the CMS',
            source_apps: 'CMS',
            terms: 'audio',
            content: [{ position: 1, title: 'Audio week' }],
          },
        },
      ],
    });
    t.is(unmanaged.body.accepted, 1);

    const spotlit = (vela: typeof a, q: string) => search(vela, `q=${q}&_setlocale=en_US`);
    const onA = await spotlit(a, 'package');
    t.deepEqual(
      onA.body.widget.spotlights.map((s: any) => [s.position, s.title, s.referenceId]),
      [
        [1, 'Choosing a package', null],
        [2, '', docs[5]!.id],
      ],
    );
    t.deepEqual(
      onA.body.results.document.slice(0, 2).map((d: any) => [d.elevate, d.fields.id]),
      [
        [true, created.body.documents[0].id],
        [true, docs[5]!.id],
      ],
    );
    await eventually(
      async () => (await spotlit(b, 'audio')).body.widget?.spotlights?.[0]?.title === 'Audio week',
      'B matching the unmanaged spotlight',
    );
    t.deepEqual(
      (await spotlit(b, 'package')).body.widget.spotlights,
      onA.body.widget.spotlights,
      'B matches what A matches',
    );
    await json(a, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [
        {
          locale: 'en_US',
          turSNJobAction: 'DELETE',
          siteNames: ['Sample'],
          attributes: { type: 'TUR_SPOTLIGHT', source_apps: 'CMS' },
        },
      ],
    });
    await a.stop();

    const c = await startTestRuntime({ plugins: ['search'], databaseUrl: url });
    t.teardown(() => c.stop());
    const listed = (await json(c, 'GET', '/api/sn/Sample/spotlight')).body as any[];
    t.deepEqual(
      listed.map((s) => [s.name, s.managed, s.terms]),
      [['Editors', true, ['package', 'écrire']]],
      'the managed one survives the restart; the unmanaged one was deleted by provider',
    );
    t.is((await spotlit(c, 'audio')).body.widget.spotlights.length, 0);
    t.deepEqual((await json(c, 'DELETE', `/api/sn/Sample/spotlight/${created.body.id}`)).body, {
      deleted: true,
      id: created.body.id,
      name: 'Editors',
    });
    t.deepEqual((await spotlit(c, 'package')).body.widget.spotlights, []);
  },
);
