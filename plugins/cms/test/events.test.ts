import { rmSync } from 'node:fs';
import test from 'ava';
import { slingDate } from './fixtures/wknd-tree.js';
import {
  AUTHOR_SITE,
  call,
  contentServer,
  createSites,
  createSource,
  PUBLISH_SITE,
  runsOf,
  searchIds,
  setUpCms,
  startCms,
  waitForRuns,
} from './helpers.js';

const BALI = '/content/wknd/us/en/adventures/bali-surf-camp';
const SKI = '/content/wknd/us/en/adventures/ski-touring';
const ADVENTURES = '/content/wknd/us/en/adventures';

const post = (vela: any, body: unknown, source = 'wknd') => call(vela, 'POST', `/api/v2/cms/index/${source}`, body);

test('GET /status answers ok without a key', async (t) => {
  const { vela } = await setUpCms(t);
  const status = await call(vela, 'GET', '/api/v2/cms/status', undefined, {});
  t.like(status, { status: 200, body: { status: 'ok' } });
});

test('each event: INDEXING into the author site, PUBLISHING into the publish site, UNPUBLISHING out of publish, DEINDEXING out of both', async (t) => {
  const { vela } = await setUpCms(t);
  // INDEXING is the default event; the author copy goes in whatever its replication status.
  t.like(await post(vela, { paths: [BALI, SKI] }), { status: 200, body: { status: 'sent' } });
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], {
    operationType: 'INDEX_IDS',
    status: 'COMPLETED',
    indexed: 2,
  });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [SKI, BALI].sort());
  t.deepEqual(await runsOf(vela, 'wknd-publish'), []);

  // PUBLISHING: the news that the page is published, so it is taken as delivered (ski touring is not activated yet).
  t.is((await post(vela, { paths: [SKI], event: 'PUBLISHING' })).body.status, 'sent');
  t.like((await waitForRuns(vela, 'wknd-publish', 1))[0], { operationType: 'INDEX_IDS', indexed: 1 });
  t.deepEqual(await searchIds(vela, PUBLISH_SITE), [SKI]);

  t.is((await post(vela, { paths: [SKI], event: 'UNPUBLISHING' })).body.status, 'sent');
  t.like((await waitForRuns(vela, 'wknd-publish', 2))[0], {
    operationType: 'DEINDEX_IDS',
    status: 'COMPLETED',
    deindexed: 1,
  });
  t.deepEqual(await searchIds(vela, PUBLISH_SITE), []);
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [SKI, BALI].sort(), 'the author copy stays');

  t.is((await post(vela, { paths: [BALI], event: 'PUBLISHING' })).body.status, 'sent');
  await waitForRuns(vela, 'wknd-publish', 3);
  t.is((await post(vela, { paths: [BALI], event: 'DEINDEXING' })).body.status, 'sent');
  t.like((await waitForRuns(vela, 'wknd-author', 2))[0], { operationType: 'DEINDEX_IDS', deindexed: 1 });
  t.like((await waitForRuns(vela, 'wknd-publish', 4))[0], { operationType: 'DEINDEX_IDS', deindexed: 1 });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [SKI]);
  t.deepEqual(await searchIds(vela, PUBLISH_SITE), []);
});

test('INDEXING of a page the repository no longer has removes it', async (t) => {
  // No repeat window: the second request is the first one again.
  const { server, vela } = await setUpCms(t, { cms: { repeatWindowMs: 0 } });
  // null members take their defaults, as the original's did (INDEXING, not recursive, ID).
  t.like(await post(vela, { paths: [BALI], event: null, recursive: null, attribute: null }), {
    status: 200,
    body: { status: 'sent' },
  });
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { operationType: 'INDEX_IDS', indexed: 1 });
  server.remove(BALI);
  await post(vela, { paths: [BALI], event: 'INDEXING', recursive: false, attribute: 'ID' });
  t.like((await waitForRuns(vela, 'wknd-author', 2))[0], { status: 'COMPLETED', indexed: 0, deindexed: 1 });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), []);
});

test('recursive takes the pages below each path; without it only the path itself', async (t) => {
  const { vela } = await setUpCms(t);
  await post(vela, { paths: [ADVENTURES] });
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { indexed: 1 });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [ADVENTURES]);

  await post(vela, { paths: [ADVENTURES], recursive: true });
  t.like((await waitForRuns(vela, 'wknd-author', 2))[0], { documentCount: 3, indexed: 2, unchanged: 1 });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [ADVENTURES, BALI, SKI].sort());

  // A recursive DEINDEXING removes the subtree.
  await post(vela, { paths: [ADVENTURES], recursive: true, event: 'DEINDEXING' });
  t.like((await waitForRuns(vela, 'wknd-author', 3))[0], { operationType: 'DEINDEX_IDS', deindexed: 3 });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), []);
});

test('attribute URL: delivery URLs map back to content paths', async (t) => {
  const { server, vela } = await setUpCms(t);
  const sent = await post(vela, {
    attribute: 'URL',
    event: 'PUBLISHING',
    paths: [
      `https://wknd.example${BALI}.html`,
      `${server.origin}/content/dam/wknd/en/activities/ski%20touring.jpg`,
      'https://elsewhere.example/content/wknd/es/es.html',
    ],
  });
  t.is(sent.body.status, 'sent');
  t.like((await waitForRuns(vela, 'wknd-publish', 1))[0], { indexed: 3 });
  t.deepEqual(await searchIds(vela, PUBLISH_SITE), ['/content/dam/wknd/en/activities/ski touring.jpg', BALI].sort());
  t.deepEqual(await searchIds(vela, PUBLISH_SITE, 'es_ES'), ['/content/wknd/es/es']);
});

test('bad path lists are refused with 400 naming the member; an unknown source is a 404', async (t) => {
  const { vela } = await setUpCms(t);
  const cases: Array<[unknown, RegExp]> = [
    [{}, /body\.paths is required/],
    [{ paths: 'x' }, /body\.paths/],
    [{ paths: [BALI], event: 'PUBLISH' }, /body\.event/],
    [{ paths: [BALI], recursive: 'yes' }, /body\.recursive/],
    [{ paths: [BALI], attribute: 'PATH' }, /body\.attribute/],
    [{ paths: [BALI], extra: 1 }, /extra/],
    [{ paths: ['content/wknd'] }, /body\.paths\[0\] must be a content path/],
    [{ paths: [BALI, '/content/../etc/passwd'] }, /body\.paths\[1\] must be/],
    [{ paths: [`/content/${'x'.repeat(500)}`] }, /body\.paths\[0\]/],
    [{ paths: ['/content/wknd'], attribute: 'URL' }, /body\.paths\[0\] must be an http or https URL/],
    [{ paths: ['ftp://wknd.example/content/wknd.html'], attribute: 'URL' }, /body\.paths\[0\]/],
    [{ paths: Array.from({ length: 1001 }, (_, i) => `/content/p${i}`) }, /body\.paths/],
  ];
  for (const [body, message] of cases) {
    const refused = await post(vela, body);
    t.is(refused.status, 400, JSON.stringify(body).slice(0, 100));
    t.regex(refused.body.message, message);
    t.true(['validation_failed', 'invalid_parameter'].includes(refused.body.error));
  }
  const notJson = await call(vela, 'POST', '/api/v2/cms/index/wknd', '{"paths": [', {
    key: 'cms-test-connector-key-0123456789',
    'content-type': 'application/json',
  });
  t.is(notJson.status, 400);
  t.is(notJson.body.error, 'invalid_json');
  const unknown = await post(vela, { paths: [BALI] }, 'nope');
  t.is(unknown.status, 404);
  t.is(unknown.body.error, 'source_not_found');
  const badName = await post(vela, { paths: [BALI] }, 'bad name!');
  t.is(badName.status, 400);
  t.is((await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [BALI] }, {})).status, 401);
  t.deepEqual(await runsOf(vela, 'wknd-author'), [], 'nothing was run');
  // An empty list and paths outside the root path are accepted and do nothing.
  t.is((await post(vela, { paths: [] })).body.status, 'sent');
  t.is((await post(vela, { paths: ['/etc/designs/wknd'] })).body.status, 'sent');
});

test('a repeat of the same request within the window is answered sent and ignored, also after a restart', async (t) => {
  const server = await contentServer(t);
  const first = await startCms(server);
  await createSites(first);
  await createSource(first, server);
  await post(first, { paths: [BALI, SKI] });
  await waitForRuns(first, 'wknd-author', 1);
  // The same set of paths in another order: a repeat.
  t.is((await post(first, { paths: [SKI, BALI] })).body.status, 'sent');
  // Another event or another set of paths is another request.
  await post(first, { paths: [BALI], event: 'PUBLISHING' });
  await post(first, { paths: [BALI] });
  await waitForRuns(first, 'wknd-publish', 1);
  await waitForRuns(first, 'wknd-author', 2);
  t.true(first.logs.some((l) => l.msg === 'a repeated path list is ignored'));
  const dataDir = first.dataDir;
  // Keep the data folder (the database with the requests) for the second start.
  await first.runtime.stop();

  const second = await startCms(server, { dataDir });
  t.teardown(async () => {
    await second.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  t.is((await post(second, { paths: [BALI, SKI] })).body.status, 'sent');
  // A request that is not a repeat runs after it: had the repeat run, it would be counted first.
  const bali = server.node(`${BALI}/jcr:content`)!;
  bali['cq:lastModified'] = slingDate('2024-05-01T10:00:00Z');
  await post(second, { paths: [BALI], recursive: true });
  const runs = await waitForRuns(second, 'wknd-author', 3);
  t.is(runs.length, 3, 'the repeat after the restart ran nothing');
  t.like(runs[0], { documentCount: 1, indexed: 1 });
});

test('with a short window, the same request runs again once the window has passed', async (t) => {
  const { vela } = await setUpCms(t, { cms: { repeatWindowMs: 2000 } });
  await post(vela, { paths: [BALI] });
  // The server accepted it before answering: its window ends at most 2 s from now.
  const firstAnswered = Date.now();
  // Back to back: within the window, so ignored.
  await post(vela, { paths: [BALI] });
  await waitForRuns(vela, 'wknd-author', 1);
  await new Promise((r) => setTimeout(r, Math.max(0, firstAnswered + 2100 - Date.now())));
  t.is((await runsOf(vela, 'wknd-author')).length, 1, 'the repeat within the window ran nothing');
  await post(vela, { paths: [BALI] });
  const runs = await waitForRuns(vela, 'wknd-author', 2);
  t.is(runs.length, 2);
  t.like(runs[0], { unchanged: 1 });
});

test('a recursive UNPUBLISHING or DEINDEXING after the repository deleted the tree removes what the connector holds below the path', async (t) => {
  const { server, vela } = await setUpCms(t);
  await post(vela, { paths: [ADVENTURES], recursive: true });
  await post(vela, { paths: [ADVENTURES], recursive: true, event: 'PUBLISHING' });
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { indexed: 3 });
  t.like((await waitForRuns(vela, 'wknd-publish', 1))[0], { indexed: 3 });

  /** The removal `event` of the tree: its second run on `source` de-indexes the three pages, and `site` is empty. */
  const removeTree = async (event: string, source: string, site: string) => {
    await post(vela, { paths: [ADVENTURES], recursive: true, event });
    const done = { operationType: 'DEINDEX_IDS', status: 'COMPLETED', deindexed: 3 };
    t.like((await waitForRuns(vela, source, 2))[0], done, event);
    t.deepEqual(await searchIds(vela, site), [], event);
  };
  // AEM deleted the tree first and reported it afterwards: there is nothing left to walk.
  server.remove(ADVENTURES);
  await removeTree('UNPUBLISHING', 'wknd-publish', PUBLISH_SITE);
  // Removal needs no repository at all: even while it is down, the subtree goes.
  server.unavailable = true;
  await removeTree('DEINDEXING', 'wknd-author', AUTHOR_SITE);
});

test('a recursive path list whose walk fails still sends its paths, says so, and its retry is not taken for a repeat', async (t) => {
  const { server, vela } = await setUpCms(t);
  await post(vela, { paths: [BALI] });
  await waitForRuns(vela, 'wknd-author', 1);
  server.unavailable = true;
  t.like(await post(vela, { paths: [ADVENTURES], recursive: true }), { status: 200, body: { status: 'sent' } });
  // The named path and what the connector holds below it are read, and fail where monitoring shows them.
  const [failed] = await waitForRuns(vela, 'wknd-author', 2);
  t.like(failed, { operationType: 'INDEX_IDS', documentCount: 2, errors: 2 });
  const records = await call(vela, 'GET', '/api/v2/connector/monitoring/index/wknd-author');
  t.like(
    (records.body as any[]).find((r) => r.objectId === ADVENTURES),
    { status: 'ERROR' },
  );
  t.true(
    vela.logs.some(
      (l) => l.level >= 50 && l.msg.startsWith('the content below a recursive path list could not be walked'),
    ),
    'an error is logged',
  );
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [BALI], 'nothing was removed');

  // The repository is back: the same request at once is carried out, not ignored as a repeat.
  server.unavailable = false;
  await post(vela, { paths: [ADVENTURES], recursive: true });
  t.like((await waitForRuns(vela, 'wknd-author', 3))[0], {
    status: 'COMPLETED',
    documentCount: 3,
    indexed: 3,
    errors: 0,
  });
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [ADVENTURES, BALI, SKI].sort());
});
