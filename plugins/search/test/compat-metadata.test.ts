import test, { type ExecutionContext } from 'ava';
import { createTestPostgres, startTestRuntime, type TestPostgres, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

/** The same checks on a SQLite file and, where a server answers, on a fresh PostgreSQL database. */
const backends: Array<{ name: string; vela: TestRuntime }> = [];
let postgres: TestPostgres | null = null;
const docs = makeDocs(30);

async function start(databaseUrl?: string): Promise<TestRuntime> {
  const vela = await startTestRuntime({ plugins: ['search', 'graphql'], databaseUrl });
  await createSite(vela, 'Grouped');
  await createSite(vela, 'Flat', { metadataFormat: 'flat' });
  await createSite(vela, 'Switched');
  await createSite(vela, 'Off', { locales: ['en_US'] });
  await createSite(vela, 'Fixes', { locales: ['en_US'], spellCheck: true, spellCheckFixes: true });
  await createSite(vela, 'FixesOnly', { locales: ['en_US'], spellCheckFixes: true });
  for (const site of ['Grouped', 'Flat', 'Switched', 'Off', 'Fixes', 'FixesOnly']) await importDocs(vela, docs, site);
  return vela;
}

test.before(async () => {
  backends.push({ name: 'SQLite', vela: await start() });
  postgres = await createTestPostgres();
  if (postgres) backends.push({ name: 'PostgreSQL', vela: await start(postgres.url) });
});
test.after.always(async () => {
  for (const { vela } of backends) await vela.stop();
  await postgres?.drop();
});

/** Runs `check` on every backend, its assertions named after it. */
async function onEach(
  t: ExecutionContext,
  check: (vela: TestRuntime, on: (message: string) => string) => Promise<void>,
): Promise<void> {
  t.true(backends.length > 0);
  for (const { name, vela } of backends) await check(vela, (message) => `${name}: ${message}`);
}

interface Grouped {
  name: string;
  values: Array<{ label: string; link: string }>;
}
const flattened = (metadata: Grouped[]) =>
  metadata.flatMap((entry) => entry.values.map(({ label, link }) => ({ href: link, text: label })));
const metadataOf = (body: any): any[][] => body.results.document.map((d: any) => d.metadata);

const post = (vela: TestRuntime, site: string, body: object) =>
  json(vela, 'POST', `/api/sn/${site}/search`, body, { authorization: '' });

const gql = async (vela: TestRuntime, query: string) => {
  const r = await vela.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await r.json()) as any;
};

test('GET: grouped by default; metadata=flat lists one {href, text} per value, with the grouped links', async (t) => {
  await onEach(t, async (vela, on) => {
    const query = 'q=*&_setlocale=en_US&rows=10&fq[]=arch:all';
    const grouped = await search(vela, query, 'Grouped');
    t.is(grouped.status, 200);
    const first = grouped.body.results.document[0];
    t.deepEqual(Object.keys(first.metadata[0]), ['name', 'values'], on('grouped by field'));
    const flat = await search(vela, `${query}&metadata=flat`, 'Grouped');
    t.is(flat.status, 200);
    const named = await search(vela, `${query}&metadata=grouped`, 'Grouped');
    const expected = metadataOf(named.body).map((m) =>
      flattened(m).map(({ href, text }) => ({ href: href.replace('metadata=grouped', 'metadata=flat'), text })),
    );
    t.deepEqual(metadataOf(flat.body), expected, on('the same values and links, which keep the form'));
    t.true(
      metadataOf(flat.body).every((m) => m.every((entry) => Object.keys(entry).join() === 'href,text')),
      on("the original's members, no others"),
    );
    const tagged = flat.body.results.document.find((d: any) => d.fields.tags.length > 0);
    const entry = tagged.metadata.find((m: any) => m.text === tagged.fields.tags[0]);
    const followed = await search(vela, entry.href.slice(entry.href.indexOf('?') + 1), 'Grouped');
    t.true(
      followed.body.results.document.some((d: any) => d.fields.id === tagged.fields.id),
      on('a value link finds the document'),
    );
    t.true(
      metadataOf(followed.body).every((m) => m.every((e) => 'href' in e)),
      on('the page it leads to is flat too'),
    );
    const upper = await search(vela, `${query}&metadata=FLAT`, 'Grouped');
    t.deepEqual(
      metadataOf(upper.body).map((m) => m.map((e: any) => e.text)),
      metadataOf(flat.body).map((m) => m.map((e: any) => e.text)),
      on('any case'),
    );
    const bad = await search(vela, `${query}&metadata=tree`, 'Grouped');
    t.is(bad.status, 400);
    t.like(bad.body, { error: 'invalid_parameter' }, on('an unknown form is refused'));
    t.regex(bad.body.message, /metadata/);
  });
});

test("POST: the body's metadata member; its links carry it", async (t) => {
  await onEach(t, async (vela, on) => {
    const body = { query: '*', locale: 'en_US', rows: 3, fq: ['arch:all'] };
    const grouped = await post(vela, 'Grouped', body);
    const flat = await post(vela, 'Grouped', { ...body, metadata: 'flat' });
    t.is(flat.status, 200);
    t.deepEqual(
      metadataOf(flat.body).map((m) => m.map((e: any) => e.text)),
      metadataOf(grouped.body).map((m) => flattened(m).map((e) => e.text)),
      on('the same values'),
    );
    t.true(
      flat.body.pagination.every((p: any) => p.href.endsWith('&metadata=flat')),
      on('a link followed as a GET keeps the form'),
    );
    const followed = await search(vela, flat.body.pagination[0].href.split('?')[1], 'Grouped');
    t.deepEqual(metadataOf(followed.body), metadataOf(flat.body), on('the same page, as a GET'));
    t.is((await post(vela, 'Grouped', { ...body, metadata: 'tree' })).status, 400, on('an unknown form'));
    const wrongType = await post(vela, 'Grouped', { ...body, metadata: 1 });
    t.is(wrongType.status, 400, on('not a string'));
    t.is(typeof wrongType.body.error, 'string');
  });
});

test("the site's metadataFormat sets the form; the request's parameter overrides it", async (t) => {
  await onEach(t, async (vela, on) => {
    const query = 'q=*&_setlocale=en_US&rows=5';
    const site = await json(vela, 'GET', '/api/sn/Flat');
    t.is(site.body.metadataFormat, 'flat', on('the setting is read back'));
    t.is((await json(vela, 'GET', '/api/sn/Grouped')).body.metadataFormat, 'grouped', on('grouped by default'));
    const flat = await search(vela, query, 'Flat');
    t.true(metadataOf(flat.body).flat().length > 0);
    t.true(
      metadataOf(flat.body).every((m) => m.every((e) => 'href' in e && 'text' in e)),
      on('flat by the site'),
    );
    const asGrouped = await search(vela, `${query}&metadata=grouped`, 'Flat');
    t.true(
      metadataOf(asGrouped.body).every((m) => m.every((e) => 'name' in e && 'values' in e)),
      on('the GET parameter wins'),
    );
    const postGrouped = await post(vela, 'Flat', { query: '*', locale: 'en_US', rows: 5, metadata: 'grouped' });
    const labels = (body: any) => metadataOf(body).map((m) => m.map((g: Grouped) => g.values.map((v) => v.label)));
    t.deepEqual(labels(postGrouped.body), labels(asGrouped.body), on('the POST member wins'));
    const postFlat = await post(vela, 'Flat', { query: '*', locale: 'en_US', rows: 5 });
    t.deepEqual(
      metadataOf(postFlat.body).map((m) => m.map((e: any) => e.text)),
      metadataOf(flat.body).map((m) => m.map((e: any) => e.text)),
      on('a POST without it follows the site'),
    );
    const refused = await json(vela, 'PUT', '/api/sn/Flat', { metadataFormat: 'nested' });
    t.is(refused.status, 400);
    t.is(refused.body.error, 'validation_failed', on('only grouped or flat'));
    const exported = await json(vela, 'GET', `/api/sn/${site.body.id}/export`);
    t.is(exported.body.sites[0].metadataFormat, 'flat', on('an export carries it'));
  });
});

test("a change of the site's metadataFormat is answered at once, not from the answer cache", async (t) => {
  await onEach(t, async (vela, on) => {
    const path = '/api/sn/Switched/search?q=*&_setlocale=en_US&rows=4&fq[]=arch:amd64';
    const get = () => vela.fetch('search', path);
    const first = await get();
    const grouped = (await first.json()) as any;
    t.is((await get()).headers.get('x-cache'), 'HIT', on('the answer is kept'));
    t.is((await json(vela, 'PUT', '/api/sn/Switched', { metadataFormat: 'flat' })).status, 200);
    const after = await get();
    t.not(after.headers.get('x-cache'), 'HIT', on('the change dropped the kept answer'));
    t.deepEqual(
      metadataOf(await after.json()),
      metadataOf(grouped).map(flattened),
      on('the same values and links as the grouped form'),
    );
    t.is((await json(vela, 'PUT', '/api/sn/Switched', { metadataFormat: 'grouped' })).status, 200);
    t.deepEqual(metadataOf((await (await get()).json()) as any), metadataOf(grouped), on('and back'));
  });
});

test('GraphQL: the metadata argument, else the site; each form fills its own members', async (t) => {
  await onEach(t, async (vela, on) => {
    const members = 'metadata { name values { label link } href text value }';
    const ask = (site: string, argument = '') =>
      gql(
        vela,
        `{ siteSearch(siteName: "${site}", locale: "en_US"${argument}, searchParams: { q: "*", rows: 3 }) { results { document { ${members} } } } }`,
      );
    const entries = (answer: any): any[] =>
      answer.data.siteSearch.results.document.flatMap((d: any) => d.metadata as any[]);
    const grouped = entries(await ask('Grouped'));
    t.true(grouped.length > 0);
    t.true(
      grouped.every((e) => e.name && e.values.length > 0 && e.href === null && e.text === null && e.value === null),
      on('grouped: name and values'),
    );
    const flat = entries(await ask('Grouped', ', metadata: flat'));
    t.true(
      flat.every((e) => e.name === null && e.values === null && e.href.includes('fq') && e.value === e.text),
      on('flat: href, text and value'),
    );
    t.deepEqual(
      flat.map((e) => e.text),
      grouped.flatMap((g) => g.values.map((v: any) => v.label)),
      on('the same values'),
    );
    const bySite = entries(await ask('Flat'));
    t.true(bySite.length > 0 && bySite.every((e) => e.text !== null), on("the site's form"));
    const overridden = entries(await ask('Flat', ', metadata: grouped'));
    t.true(
      overridden.every((e) => e.name !== null && e.text === null),
      on('the argument wins'),
    );
    const bad = await ask('Grouped', ', metadata: tree');
    t.truthy(bad.errors, on('an unknown form is refused'));
  });
});

test('widget.spellCheck follows the site switch (as the spec has it); spellCheck with spellCheckFixes searches the correction', async (t) => {
  await onEach(t, async (vela, on) => {
    const asked = (site: string) => search(vela, 'q=pyhton', site);
    const off = await asked('Off');
    t.is(off.status, 200);
    t.false('spellCheck' in off.body.widget, on('no widget with spell check off'));
    t.is(off.body.queryContext.count, 0, on('nothing corrected is searched'));
    const fixesOnly = await asked('FixesOnly');
    t.false('spellCheck' in fixesOnly.body.widget, on('spellCheckFixes alone turns nothing on'));
    t.is(fixesOnly.body.queryContext.count, 0, on('spellCheckFixes alone does not search the correction'));
    const fixes = await asked('Fixes');
    t.like(
      fixes.body.widget.spellCheck,
      { correctedText: true, usingCorrectedText: true, original: { text: 'pyhton' }, corrected: { text: 'python' } },
      on('both switches: offered and searched'),
    );
    t.true(fixes.body.queryContext.count > 0, on('both switches: the corrected text is searched'));
    const known = await search(vela, 'q=python', 'Fixes');
    t.like(known.body.widget.spellCheck, { correctedText: false, corrected: { text: '' } }, on('nothing to correct'));
  });
});
