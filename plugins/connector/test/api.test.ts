import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { TestRuntime } from 'vela/testing';
import {
  call,
  createSite,
  createSource,
  KEY,
  makePackages,
  postKindSource,
  postSource,
  runAndWait,
  searchCall,
  startConnector,
  tempDir,
  tempJsonl,
  waitForRun,
} from './helpers.js';

let vela: TestRuntime;
let file: string;

// A browser app on this origin may call the connector's key routes (services.connector.cors.credentialedOrigins).
const ADMIN_APP = 'https://admin.example';

test.before(async () => {
  vela = await startConnector({ config: { services: { connector: { cors: { credentialedOrigins: [ADMIN_APP] } } } } });
  await createSite(vela, 'Docs');
  file = tempJsonl(makePackages(120), 'packages.jsonl');
  await createSource(vela, 'pkgs', file, 'Docs');
  await runAndWait(vela, '/api/v2/connector/index/pkgs/all', 'pkgs');
});

test.after.always(() => vela?.stop());

test('status is public; every other connector endpoint needs the Key header (401 JSON)', async (t) => {
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/status', undefined, {})).body, { status: 'ok' });
  const none = await call(vela, 'GET', '/api/v2/connector/source', undefined, {});
  t.like(none, { status: 401, body: { error: 'unauthorized' } });
  t.regex(none.body.message, /Key header/);
  const wrong = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing', undefined, { key: 'not-a-key' });
  t.is(wrong.status, 401);
  t.is((await call(vela, 'GET', '/api/v2/connector/index/pkgs/all', undefined, {})).status, 401);
  t.is((await call(vela, 'GET', '/api/v2/connector/source', undefined, { key: KEY })).status, 200);
});

test('a path in other letter cases reaches no route, with or without the Key', async (t) => {
  for (const p of [
    '/API/v2/connector/source',
    '/api/V2/Connector/source',
    '/api/v2/CONNECTOR/monitoring/indexing',
    '/Api/v2/connector/system-info',
  ]) {
    const r = await call(vela, 'GET', p, undefined, {});
    t.is(r.status, 404, p);
    t.is(r.body.error, 'not_found', p);
    t.is((await call(vela, 'GET', p, undefined, { key: KEY })).status, 404, p);
  }
  t.is((await call(vela, 'GET', '/API/v2/connector/STATUS', undefined, {})).status, 404);
});

test('an API token of the co-hosted search service is accepted as the Key', async (t) => {
  const token = await searchCall(vela, 'POST', '/api/dev/token', { title: 'connector', scopes: ['connector'] });
  t.is(token.status, 201, JSON.stringify(token.body));
  const r = await call(vela, 'GET', '/api/v2/connector/source', undefined, { key: token.body.token });
  t.is(r.status, 200);
});

test('unknown sources answer 404 JSON on triggers, validation and monitoring', async (t) => {
  for (const [method, p] of [
    ['GET', '/api/v2/connector/index/nope/all'],
    ['GET', '/api/v2/connector/reindex/nope/all'],
    ['POST', '/api/v2/connector/index/nope'],
    ['GET', '/api/v2/connector/validate/nope'],
    ['GET', '/api/v2/connector/monitoring/indexing/nope'],
    ['GET', '/api/v2/connector/source/nope'],
  ] as const) {
    const r = await call(vela, method, p, method === 'POST' ? ['1'] : undefined);
    t.is(r.status, 404, `${method} ${p}`);
    t.is(r.body.error, 'source_not_found', `${method} ${p}`);
  }
  const records = await call(vela, 'GET', '/api/v2/connector/monitoring/index/nope');
  t.like(records, { status: 404, body: { error: 'not_found' } });
  const stats = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/nope');
  t.is(stats.status, 404);
});

test('index by ids refuses a body that is not a list of ids (400 naming the member)', async (t) => {
  const notArray = await call(vela, 'POST', '/api/v2/connector/index/pkgs', { ids: ['1'] });
  t.is(notArray.status, 400);
  t.regex(notArray.body.message, /body must be a non-empty JSON array/);
  const badItem = await call(vela, 'POST', '/api/v2/connector/index/pkgs', ['ok', 42]);
  t.is(badItem.status, 400);
  t.regex(badItem.body.message, /body\[1\] must be a content id/);
  const empty = await call(vela, 'POST', '/api/v2/connector/index/pkgs', []);
  t.is(empty.status, 400);
  const tooMany = Array.from({ length: 100001 }, (_, i) => `id-${i}`);
  for (const [method, p] of [
    ['POST', '/api/v2/connector/index/pkgs'],
    ['POST', '/api/v2/connector/reindex/pkgs'],
    ['POST', '/api/v2/connector/monitoring/indexing'],
  ] as const) {
    const r = await call(vela, method, p, tooMany);
    t.is(r.status, 400, `${method} ${p}`);
    t.regex(r.body.message, /^body must (hold|have) at most 100000/, `${method} ${p}`);
  }
});

test('a body that is not JSON is a 400 JSON error, and nothing is stored', async (t) => {
  // A string body goes as it stands.
  const res = await call(vela, 'POST', '/api/v2/connector/indexing-rule', '{"name": "x",');
  t.is(res.status, 400);
  t.is(typeof res.body.error, 'string');
  t.is(typeof res.body.message, 'string');
  t.is((await call(vela, 'POST', '/api/v2/connector/source', '[1,')).status, 400);
  t.false((await call(vela, 'GET', '/api/v2/connector/indexing-rule')).body.some((r: any) => r.name === 'x'));
});

test('a second full run of a running source is refused with 409 JSON', async (t) => {
  const big = tempJsonl(makePackages(3000), 'big.jsonl');
  await createSite(vela, 'Busy');
  await createSource(vela, 'busy', big, 'Busy');
  const first = await call(vela, 'GET', '/api/v2/connector/index/busy/all');
  t.is(first.status, 200);
  t.is(first.body.status, 'sent');
  const second = await call(vela, 'GET', '/api/v2/connector/reindex/busy/all');
  t.like(second, { status: 409, body: { error: 'source_running' } });
  // Runs by id are queued behind it, not refused.
  const byId = await call(vela, 'POST', '/api/v2/connector/index/busy', ['pkg-00001']);
  t.is(byId.status, 200);
});

test('a source cannot be deleted while a run by ids is going (409); once it ended, it can', async (t) => {
  const fifo = path.join(tempDir(), 'feed.jsonl');
  execFileSync('mkfifo', [fifo]);
  await createSource(vela, 'piped', fifo, 'Docs');
  const run = await call(vela, 'POST', '/api/v2/connector/index/piped', ['pkg-00001']);
  t.is(run.status, 200);
  const writer = createWriteStream(fifo);
  writer.on('error', () => undefined);
  const busy = await call(vela, 'DELETE', '/api/v2/connector/source/piped');
  t.like(busy, { status: 409, body: { error: 'source_running' } });
  writer.end(`${JSON.stringify(makePackages(2)[1])}\n`);
  t.like(await waitForRun(vela, 'piped', run.body.runId), { status: 'COMPLETED', indexed: 1 });
  t.true((await call(vela, 'DELETE', '/api/v2/connector/source/piped')).body);
});

test("sources: create, read, update and delete, with the kind's settings checked", async (t) => {
  const badKind = await call(vela, 'POST', '/api/v2/connector/source', { name: 'x', kind: 'ftp', sites: ['Docs'] });
  t.is(badKind.status, 400);
  t.regex(badKind.body.message, /kind must be one of .*jsonl/);
  const badSettings = await postKindSource(vela, 'x', 'jsonl', ['Docs'], { idField: 'id' });
  t.is(badSettings.status, 400);
  t.regex(badSettings.body.message, /settings\.path is required/);
  const badCron = await postSource(vela, 'x', file, 'Docs', { schedule: 'every day' });
  t.is(badCron.status, 400);
  t.regex(badCron.body.message, /schedule must be a cron expression/);
  const noSites = await call(vela, 'POST', '/api/v2/connector/source', {
    name: 'x',
    kind: 'jsonl',
    settings: { path: file },
  });
  t.is(noSites.status, 400);
  // GET /source/structure, /source/kinds and /monitoring/indexing/stats could never reach such a source.
  for (const name of ['structure', 'Kinds', 'STATS']) {
    const reserved = await postKindSource(vela, name, 'jsonl', ['Docs'], { path: file });
    t.is(reserved.status, 400, name);
    t.regex(reserved.body.message, /^name must not be "structure", "kinds", "stats"/, name);
  }

  const created = await postKindSource(vela, 'crud', 'jsonl', ['Docs'], { path: file }, { schedule: '0 3 * * *' });
  t.is(created.status, 201);
  t.like(created.body, {
    name: 'crud',
    kind: 'jsonl',
    locale: 'en_US',
    schedule: '0 3 * * *',
    origin: 'api',
    settings: { path: file, idField: 'id' },
  });
  t.is((await call(vela, 'POST', '/api/v2/connector/source', created.body)).status, 409);

  const got = await call(vela, 'GET', '/api/v2/connector/source/crud');
  t.is(got.body.name, 'crud');
  const updated = await call(vela, 'PUT', '/api/v2/connector/source/crud', {
    ...got.body,
    description: 'changed',
    schedule: null,
  });
  t.is(updated.status, 200);
  t.like(updated.body, { description: 'changed', schedule: null });
  const mismatch = await call(vela, 'PUT', '/api/v2/connector/source/crud', { ...got.body, name: 'other' });
  t.is(mismatch.status, 400);
  t.is(
    (
      await call(vela, 'PUT', '/api/v2/connector/source/missing', {
        kind: 'jsonl',
        sites: ['Docs'],
        settings: { path: file },
      })
    ).status,
    404,
  );
  t.true((await call(vela, 'GET', '/api/v2/connector/source')).body.some((s: any) => s.name === 'crud'));
  t.deepEqual((await call(vela, 'DELETE', '/api/v2/connector/source/crud')).body, true);
  t.is((await call(vela, 'GET', '/api/v2/connector/source/crud')).status, 404);
  t.is((await call(vela, 'DELETE', '/api/v2/connector/source/crud')).status, 404);
  const structure = await call(vela, 'GET', '/api/v2/connector/source/structure');
  t.like(structure.body, { name: '', kind: 'jsonl' });
});

test('two creates of one source name at once: one is created, the other is a 409', async (t) => {
  const body = { name: 'twice', kind: 'jsonl', sites: ['Docs'], settings: { path: file } };
  const answers = await Promise.all([
    call(vela, 'POST', '/api/v2/connector/source', body),
    call(vela, 'POST', '/api/v2/connector/source', body),
  ]);
  t.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
  await call(vela, 'DELETE', '/api/v2/connector/source/twice');
});

test('indexing rules: CRUD, structure, rules per source, and DELETE of an unknown rule answers false', async (t) => {
  const structure = await call(vela, 'GET', '/api/v2/connector/indexing-rule/structure');
  t.like(structure.body, { id: null, ruleType: 'IGNORE', values: [] });
  const bad = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'r',
    source: 'pkgs',
    attribute: 'title',
    ruleType: 'IGNORE',
    values: ['(unclosed'],
  });
  t.is(bad.status, 400);
  t.regex(bad.body.message, /values\[0\] must be a regular expression/);
  const badType = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'r',
    source: 'pkgs',
    attribute: 'title',
    ruleType: 'BOOST',
    values: ['x'],
  });
  t.is(badType.status, 400);

  const unknown = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'drafts',
    source: 'no-such-source',
    attribute: 'title',
    values: ['draft'],
  });
  t.is(unknown.status, 400, 'a rule for an unknown source would never apply');
  t.regex(unknown.body.message, /^source must name a source, got "no-such-source"/);
  t.is((await call(vela, 'GET', '/api/v2/connector/indexing-rule/source/no-such-source')).status, 404);
  await createSource(vela, 'rules-src', file, 'Docs');
  const created = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'drafts',
    source: 'rules-src',
    attribute: 'title',
    ruleType: 'IGNORE',
    values: ['draft'],
  });
  t.is(created.status, 201);
  t.like(created.body, { name: 'drafts', source: 'rules-src', ruleType: 'IGNORE', values: ['draft'] });
  const id = created.body.id as string;
  t.like((await call(vela, 'GET', `/api/v2/connector/indexing-rule/${id}`)).body, { id, name: 'drafts' });
  t.deepEqual(
    (await call(vela, 'GET', '/api/v2/connector/indexing-rule/source/rules-src')).body.map((r: any) => r.id),
    [id],
  );
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/indexing-rule/source/pkgs')).body, []);
  const updated = await call(vela, 'PUT', `/api/v2/connector/indexing-rule/${id}`, {
    name: 'drafts',
    source: 'rules-src',
    attribute: 'section',
    ruleType: 'IGNORE',
    values: ['web', 'net'],
  });
  t.like(updated.body, { id, attribute: 'section', values: ['web', 'net'] });
  const moved = await call(vela, 'PUT', `/api/v2/connector/indexing-rule/${id}`, {
    name: 'drafts',
    source: 'gone',
    attribute: 'section',
    values: ['web'],
  });
  t.is(moved.status, 400);
  t.regex(moved.body.message, /^source must name a source/);
  t.is(
    (
      await call(vela, 'PUT', '/api/v2/connector/indexing-rule/unknown', {
        name: 'x',
        source: 's',
        attribute: 'a',
        values: ['v'],
      })
    ).status,
    404,
  );
  t.true((await call(vela, 'GET', '/api/v2/connector/indexing-rule')).body.some((r: any) => r.id === id));
  const deleted = await call(vela, 'DELETE', `/api/v2/connector/indexing-rule/${id}`);
  t.is(deleted.status, 200);
  t.is(deleted.body, true);
  const again = await call(vela, 'DELETE', `/api/v2/connector/indexing-rule/${id}`);
  t.is(again.status, 200);
  t.is(again.body, false);
  t.is((await call(vela, 'GET', `/api/v2/connector/indexing-rule/${id}`)).status, 404);
});

test('a source naming a site the search service lacks, or a locale its site lacks, is refused with 400 naming sites[i]', async (t) => {
  const noSite = await postKindSource(vela, 'shop', 'jsonl', ['Docs', 'Shop'], { path: file });
  t.like(noSite, { status: 400, body: { error: 'invalid_parameter' } });
  t.regex(noSite.body.message, /^sites\[1\] must name a site of the search service, got "Shop"/);
  const noLocale = await postSource(vela, 'shop', file, 'Docs', { locale: 'fr_FR' });
  t.is(noLocale.status, 400);
  t.regex(noLocale.body.message, /^sites\[0\] \("Docs"\) has no locale fr_FR \(its locales: en_US\)/);
  t.is((await call(vela, 'GET', '/api/v2/connector/source/shop')).status, 404, 'nothing stored');
  const pkgs = (await call(vela, 'GET', '/api/v2/connector/source/pkgs')).body;
  const moved = await call(vela, 'PUT', '/api/v2/connector/source/pkgs', { ...pkgs, sites: ['Nowhere'] });
  t.is(moved.status, 400);
  t.regex(moved.body.message, /^sites\[0\] must name a site/);
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/source/pkgs')).body.sites, ['Docs']);
});

test('a regular expression that could backtrack exponentially, as (a+)+$, is refused with 400 naming the member', async (t) => {
  const rule = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'r',
    source: 'pkgs',
    attribute: 'title',
    values: ['draft', '(a+)+$'],
  });
  t.like(rule, { status: 400, body: { error: 'invalid_parameter' } });
  t.regex(rule.body.message, /^values\[1\] repeats a group that itself holds a repetition/);
  const web = await postKindSource(vela, 'crawl', 'web', ['Docs'], {
    seeds: ['http://127.0.0.1:9/'],
    deny: ['\\.zip$', '(\\w+\\s?)*x'],
  });
  t.is(web.status, 400);
  t.regex(web.body.message, /settings\.deny\[1\] repeats a group/);
  const files = await postKindSource(vela, 'files', 'filesystem', ['Docs'], {
    root: tempDir(),
    include: ['*.md', '/(a*)*$/'],
    exclude: ['/(unclosed/'],
  });
  t.is(files.status, 400);
  t.regex(files.body.message, /settings\.include\[1\]: pattern \/\(a\*\)\*\$\/ repeats a group/);
  t.regex(files.body.message, /settings\.exclude\[0\]: pattern \/\(unclosed\/ is not a valid regular expression/);
  t.is((await call(vela, 'GET', '/api/v2/connector/source/files')).status, 404, 'nothing stored');
  // Ordinary patterns, fixed counts in a repeated group included, are fine.
  const fine = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'ok',
    source: 'pkgs',
    attribute: 'title',
    values: ['.*draft', '\\.(png|jpe?g)$', '(\\d{3})+$'],
  });
  t.is(fine.status, 201);
  await call(vela, 'DELETE', `/api/v2/connector/indexing-rule/${fine.body.id}`);
});

test('monitoring search pages through the records from page 0 with the total', async (t) => {
  const page0 = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
    source: 'pkgs',
    status: 'INDEXED',
    page: 0,
    size: 50,
  });
  t.is(page0.status, 200);
  t.like(page0.body, { page: 0, size: 50, totalElements: 120, totalPages: 3 });
  t.is(page0.body.content.length, 50);
  const page2 = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
    source: 'pkgs',
    status: 'INDEXED',
    page: 2,
    size: 50,
  });
  t.is(page2.body.content.length, 20);
  const all = new Set([...page0.body.content, ...page2.body.content].map((r: any) => r.objectId));
  t.is(all.size, 70, 'pages do not overlap');
  const none = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
    source: 'pkgs',
    status: 'ERROR',
    page: 0,
    size: 10,
  });
  t.like(none.body, { totalElements: 0, totalPages: 0, content: [] });
  const byId = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', {
    objectId: 'PKG-0001',
    page: 0,
    size: 100,
  });
  t.true(byId.body.content.every((r: any) => r.objectId.startsWith('pkg-0001')));
  const badSize = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', { page: -1, size: 10 });
  t.is(badSize.status, 400);
  t.regex(badSize.body.message, /page must be at least 0/);
});

test('monitoring search refuses a huge page with a 400 naming it (it was a 500 from the database)', async (t) => {
  for (const page of [1e20, 9007199254740991, 1000001]) {
    const r = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', { page, size: 5 });
    t.is(r.status, 400, String(page));
    t.is(r.body.error, 'validation_failed');
    t.regex(r.body.message, /^body\.page must be at most 1000000/);
  }
  const last = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing/_search', { page: 1000000, size: 1000 });
  t.like(last.body, { page: 1000000, content: [] });
});

test('monitoring lists records per source, by ids, and the newest 50', async (t) => {
  const latest = await call(vela, 'GET', '/api/v2/connector/monitoring/index/pkgs');
  t.is(latest.status, 200);
  t.is(latest.body.length, 50);
  t.like(latest.body[0], { source: 'pkgs', status: 'INDEXED' });
  const perSource = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/pkgs');
  t.deepEqual(perSource.body.sources, ['pkgs']);
  t.is(perSource.body.indexing.length, 50);
  const all = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing');
  t.true(all.body.sources.includes('pkgs'));
  const byIds = await call(vela, 'POST', '/api/v2/connector/monitoring/indexing', [
    'pkg-00003',
    'pkg-00004',
    'nothing',
  ]);
  t.deepEqual(
    byIds.body.indexing.map((r: any) => r.objectId),
    ['pkg-00003', 'pkg-00004'],
  );
});

test('statistics per run: start time, document count, duration, throughput and errors, per source and overall', async (t) => {
  const perSource = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats/pkgs');
  t.is(perSource.status, 200);
  const run = perSource.body.at(-1);
  t.like(run, {
    source: 'pkgs',
    provider: 'jsonl',
    operationType: 'INDEX_ALL',
    trigger: 'api',
    status: 'COMPLETED',
    documentCount: 120,
    indexed: 120,
    errors: 0,
  });
  t.true(Date.parse(run.startTime) <= Date.parse(run.endTime));
  t.is(typeof run.durationMs, 'number');
  t.true(run.documentsPerSecond > 0);
  const overall = await call(vela, 'GET', '/api/v2/connector/monitoring/indexing/stats');
  t.true(overall.body.some((r: any) => r.source === 'pkgs'));
});

test('validate lists documents missing from the index and extra ones', async (t) => {
  const clean = await call(vela, 'GET', '/api/v2/connector/validate/pkgs');
  t.is(clean.status, 200);
  t.deepEqual(clean.body.missing, { 'Docs/en_US': [] });
  // Remove one document behind the connector's back and add one it does not know.
  await searchCall(vela, 'POST', '/api/sn/deindex?wait=true', {
    turingDocuments: [{ locale: 'en_US', siteNames: ['Docs'], attributes: { id: 'pkg-00007' } }],
  });
  await searchCall(vela, 'POST', '/api/sn/import?wait=true', {
    turingDocuments: [
      { locale: 'en_US', siteNames: ['Docs'], attributes: { id: 'stranger', title: 'not from a source' } },
    ],
  });
  const diff = await call(vela, 'GET', '/api/v2/connector/validate/pkgs');
  t.deepEqual(diff.body.missing, { 'Docs/en_US': ['pkg-00007'] });
  t.deepEqual(diff.body.extra, { 'Docs/en_US': ['stranger'] });
  t.like(diff.body.counts, { missing: 1, extra: 1 });
  // Indexing that id again repairs it.
  await runAndWait(vela, '/api/v2/connector/reindex/pkgs', 'pkgs', ['pkg-00007']);
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/validate/pkgs')).body.missing, { 'Docs/en_US': [] });
});

test('system-info reports the application, Node.js, the OS, memory, heap and disk', async (t) => {
  const r = await call(vela, 'GET', '/api/v2/connector/system-info');
  t.is(r.status, 200);
  t.is(r.body.runtime.name, 'Node.js');
  t.is(r.body.runtime.version, process.version);
  t.is(r.body.runtime.v8, process.versions.v8);
  t.truthy(r.body.application.name);
  t.truthy(r.body.application.version);
  t.truthy(r.body.os.name);
  t.truthy(r.body.os.version);
  for (const space of [r.body.memory.physical, r.body.memory.heap, r.body.disk]) {
    t.true(space.total > 0);
    t.is(space.used + space.free <= space.total + 1, true);
  }
});

test("the connector's OpenAPI document lists its routes with the Key scheme", async (t) => {
  const res = await vela.fetch('connector', '/v3/api-docs');
  t.is(res.status, 200);
  const doc = (await res.json()) as {
    paths: Record<string, unknown>;
    components: { securitySchemes: Record<string, unknown> };
  };
  for (const p of [
    '/api/v2/connector/index/{name}/all',
    '/api/v2/connector/monitoring/indexing/_search',
    '/api/v2/connector/indexing-rule/{id}',
    '/api/v2/connector/source/{name}',
    '/api/v2/connector/system-info',
    '/api/v2/connector/validate/{source}',
  ]) {
    t.truthy(doc.paths[p], p);
  }
  t.truthy(doc.components.securitySchemes.Key);
});

test('CORS: a preflight from a configured browser app is answered without a key, and answers carry the allow-origin header; other origins get none', async (t) => {
  const preflight = (origin: string) =>
    vela.fetch('connector', '/api/v2/connector/source', {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'key,content-type',
      },
    });
  const allowed = await preflight(ADMIN_APP);
  t.is(allowed.status, 204);
  t.is(allowed.headers.get('access-control-allow-origin'), ADMIN_APP);
  t.regex(allowed.headers.get('access-control-allow-headers') ?? '', /key/i);
  const res = await vela.fetch('connector', '/api/v2/connector/source', { headers: { origin: ADMIN_APP, key: KEY } });
  t.is(res.status, 200);
  t.is(res.headers.get('access-control-allow-origin'), ADMIN_APP);

  t.is((await preflight('https://elsewhere.example')).status, 403);
  const other = await vela.fetch('connector', '/api/v2/connector/source', {
    headers: { origin: 'https://elsewhere.example', key: KEY },
  });
  t.is(other.headers.get('access-control-allow-origin'), null);
  const status = await vela.fetch('connector', '/api/v2/connector/status', {
    headers: { origin: 'https://elsewhere.example' },
  });
  t.is(status.headers.get('access-control-allow-origin'), '*', 'the public status route stays open');
});
