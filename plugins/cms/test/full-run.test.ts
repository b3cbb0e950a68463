import test from 'ava';
import { page } from './fixtures/wknd-tree.js';
import {
  ASSETS,
  AUTHOR_SITE,
  activate,
  call,
  EN_PAGES,
  edit,
  PUBLISH_SITE,
  runsOf,
  searchDocument,
  searchIds,
  setUpCms,
  waitForRuns,
} from './helpers.js';

test('indexAll runs both environments through the connector; an incremental run sends only the changed page and de-indexes the removed one', async (t) => {
  const { server, vela, source } = await setUpCms(t);

  const sent = await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  t.is(sent.status, 200);
  t.is(sent.body.status, 'sent');
  t.is(sent.body.runIds.length, 2);
  const [author] = await waitForRuns(vela, 'wknd-author', 1);
  t.like(author, { status: 'COMPLETED', operationType: 'INDEX_ALL', provider: 'cms', indexed: 13, errors: 0 });

  // Author: every page and asset, each in the locale of its path.
  t.deepEqual(await searchIds(vela, AUTHOR_SITE), [...EN_PAGES, ...ASSETS].sort());
  t.deepEqual(await searchIds(vela, AUTHOR_SITE, 'es_ES'), [
    '/content/wknd/es',
    '/content/wknd/es/es',
    '/content/wknd/es/es/aventuras',
  ]);
  // Publish: only what is activated (the ski-touring page is not; /us and /es carry no replication status).
  const [publish] = await waitForRuns(vela, 'wknd-publish', 1);
  t.like(publish, { status: 'COMPLETED', errors: 0 });
  t.deepEqual(
    await searchIds(vela, PUBLISH_SITE),
    [
      ...EN_PAGES.filter((p) => p !== '/content/wknd/us/en/adventures/ski-touring' && p !== '/content/wknd/us'),
      ...ASSETS,
    ].sort(),
  );

  // The field mapping: jcr:content properties and the components' text into the site's fields.
  const bali = await searchDocument(vela, PUBLISH_SITE, '/content/wknd/us/en/adventures/bali-surf-camp');
  t.like(bali, {
    title: 'Bali Surf Camp',
    url: 'https://wknd.example/content/wknd/us/en/adventures/bali-surf-camp.html',
    template: '/conf/wknd/settings/wcm/templates/article-page',
  });
  t.regex(String(bali?.text), /Surf the reef breaks of Uluwatu for a week\. Boards & wetsuits included\./);
  t.deepEqual(bali?.tags, ['wknd:activity/surfing']);
  t.regex(
    String(bali?.modification_date),
    /^2024-03-04T10:00:00(\.000)?Z$/,
    'cq:lastModified, read as Sling writes it, is the modification date',
  );
  const authorCopy = await searchDocument(vela, AUTHOR_SITE, '/content/wknd/us/en/adventures/bali-surf-camp');
  t.is(authorCopy?.url, `${server.origin}/content/wknd/us/en/adventures/bali-surf-camp.html`);
  const photo = await searchDocument(vela, AUTHOR_SITE, '/content/dam/wknd/en/activities/surfing.jpg');
  t.like(photo, {
    title: 'Surfing in Bali',
    abstract: 'A surfer on a wave at sunset',
    url: `${server.origin}/content/dam/wknd/en/activities/surfing.jpg`,
  });

  // Between runs: one page modified (and activated), one removed.
  edit(server, '/content/wknd/us/en/magazine/arctic-surfing', '2024-04-01T10:00:00Z', {
    'jcr:title': 'Arctic Surfing in Lofoten, Norway',
  });
  activate(server, '/content/wknd/us/en/magazine/arctic-surfing', '2024-04-01T10:05:00Z');
  server.remove('/content/wknd/us/en/adventures/bali-surf-camp');

  t.is((await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`)).status, 200);
  const [second] = await waitForRuns(vela, 'wknd-author', 2);
  t.like(second, { status: 'COMPLETED', indexed: 1, unchanged: 11, deindexed: 1, errors: 0 });
  const [publishSecond] = await waitForRuns(vela, 'wknd-publish', 2);
  t.like(publishSecond, { status: 'COMPLETED', indexed: 1, deindexed: 1, errors: 0 });
  t.false((await searchIds(vela, PUBLISH_SITE)).includes('/content/wknd/us/en/adventures/bali-surf-camp'));
  t.is(
    (await searchDocument(vela, PUBLISH_SITE, '/content/wknd/us/en/magazine/arctic-surfing'))?.title,
    'Arctic Surfing in Lofoten, Norway',
  );

  // The connector's monitoring shows the cms documents as it shows every other source's.
  const records = await call(vela, 'GET', '/api/v2/connector/monitoring/index/wknd-author');
  t.is(records.status, 200);
  t.true(
    (records.body as any[]).some(
      (r) => r.objectId === '/content/wknd/us/en/magazine/arctic-surfing' && r.status === 'INDEXED',
    ),
  );
});

test('a full run that cannot read the repository fails and de-indexes nothing', async (t) => {
  const { vela, source } = await setUpCms(t, { source: { publish: false } });
  await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { status: 'COMPLETED', indexed: 13 });

  // The repository now refuses the credentials: the walk fails, and the run removes nothing.
  t.is(
    (await call(vela, 'PUT', `/api/v2/cms/source/${source.id}`, { ...source, password: 'a-wrong-password' })).status,
    200,
  );
  await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  const [failed] = await waitForRuns(vela, 'wknd-author', 2);
  t.is(failed.status, 'FAILED');
  t.regex(failed.error, /answered 401/);
  t.is((await searchIds(vela, AUTHOR_SITE)).length, 10);
});

const ADVENTURES = '/content/wknd/us/en/adventures';
const FAQ = '/content/wknd/us/en/magazine/faq';

test('the publish site keeps the activated copy of content edited on author since, until it is activated again', async (t) => {
  const { server, vela, source } = await setUpCms(t, { cms: { repeatWindowMs: 0 } });
  await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  await waitForRuns(vela, 'wknd-author', 1);
  const [first] = await waitForRuns(vela, 'wknd-publish', 1);
  t.like(first, { status: 'COMPLETED', indexed: 10 });

  // Edited on author after its activation; and a new page activated, then edited again before any run saw it.
  edit(server, ADVENTURES, '2024-04-02T10:00:00Z', { 'jcr:title': 'Adventures (draft)' });
  server.node('/content/wknd/us/en/magazine')!.faq = page({
    title: 'FAQ',
    modified: '2024-04-01T10:00:00Z',
    activated: true,
  });
  edit(server, FAQ, '2024-04-03T10:00:00Z', { 'jcr:title': 'FAQ (draft)' });

  await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  t.like((await waitForRuns(vela, 'wknd-author', 2))[0], { status: 'COMPLETED', indexed: 2, unchanged: 12 });
  t.like((await waitForRuns(vela, 'wknd-publish', 2))[0], {
    status: 'COMPLETED',
    indexed: 0,
    unchanged: 10,
    deindexed: 0,
    errors: 0,
  });
  t.is((await searchDocument(vela, AUTHOR_SITE, ADVENTURES))?.title, 'Adventures (draft)');
  t.is((await searchDocument(vela, PUBLISH_SITE, ADVENTURES))?.title, 'Adventures', 'the edit is not published');
  t.false((await searchIds(vela, PUBLISH_SITE)).includes(FAQ), 'no copy of the FAQ the publish site may show is known');

  // A late PUBLISHING event of the edited page changes nothing; its next activation publishes the edit.
  await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [ADVENTURES, FAQ], event: 'PUBLISHING' });
  t.like((await waitForRuns(vela, 'wknd-publish', 3))[0], {
    operationType: 'INDEX_IDS',
    indexed: 0,
    unchanged: 1,
    deindexed: 0,
  });
  activate(server, ADVENTURES, '2024-04-04T10:00:00Z');
  activate(server, FAQ, '2024-04-04T10:00:00Z');
  await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [ADVENTURES, FAQ], event: 'PUBLISHING' });
  t.like((await waitForRuns(vela, 'wknd-publish', 4))[0], { indexed: 2 });
  t.is((await searchDocument(vela, PUBLISH_SITE, ADVENTURES))?.title, 'Adventures (draft)');
  t.is((await searchDocument(vela, PUBLISH_SITE, FAQ))?.title, 'FAQ (draft)');
});

test('indexAll while a full run goes, and DELETE of the source while one of its runs goes, answer 409', async (t) => {
  const { server, vela, source } = await setUpCms(t);
  // A slow repository keeps the first run going while the test acts.
  server.delayMs = 150;
  const sent = await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  t.is(sent.status, 200);
  const again = await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  t.is(again.status, 409);
  t.is(again.body.error, 'source_running');
  const deleted = await call(vela, 'DELETE', `/api/v2/cms/source/${source.id}`);
  t.is(deleted.status, 409);
  t.is(deleted.body.error, 'source_running');
  t.is((await call(vela, 'GET', `/api/v2/cms/source/${source.id}`)).status, 200, 'the source stays');

  server.delayMs = 0;
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { status: 'COMPLETED', indexed: 13 });
  await waitForRuns(vela, 'wknd-publish', 1);
  t.is((await runsOf(vela, 'wknd-author')).length, 1, 'the refused indexAll started nothing');
  t.like(await call(vela, 'DELETE', `/api/v2/cms/source/${source.id}`), { status: 200, body: true });
});

test('indexing rules of the connector apply to a cms source', async (t) => {
  const { vela, source } = await setUpCms(t);
  const rule = await call(vela, 'POST', '/api/v2/connector/indexing-rule', {
    name: 'no bali',
    source: 'wknd-author',
    attribute: 'tags',
    values: ['wknd:region/bali'],
  });
  t.is(rule.status, 201, JSON.stringify(rule.body));
  await call(vela, 'GET', `/api/v2/cms/source/${source.id}/indexAll`);
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { status: 'COMPLETED', indexed: 12, ignored: 1 });
  t.false((await searchIds(vela, AUTHOR_SITE)).includes(ADVENTURES));
  // The rule is the author source's: the publish site has the page.
  await waitForRuns(vela, 'wknd-publish', 1);
  t.true((await searchIds(vela, PUBLISH_SITE)).includes(ADVENTURES));
});
