import test from 'ava';
import { AUTHOR_SITE, call, contentServer, searchDocument, setUpCms, waitForRuns } from './helpers.js';

const BALI = '/content/wknd/us/en/adventures/bali-surf-camp';

test('a rendering Sling finds too large (300 with shallower ones) is read through the first it lists', async (t) => {
  const { server, vela } = await setUpCms(t);
  server.tooLarge.add(`${BALI}/jcr:content`);

  await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [BALI] });
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { status: 'COMPLETED', indexed: 1, errors: 0 });
  t.deepEqual(server.requestsFor(`${BALI}/jcr:content`), [
    `${BALI}/jcr:content.infinity.json`,
    `${BALI}/jcr:content.2.json`,
  ]);
  // Two levels hold the page's own properties; the components deeper down are what the smaller rendering leaves out.
  const bali = await searchDocument(vela, AUTHOR_SITE, BALI);
  t.like(bali, { title: 'Bali Surf Camp', tags: ['wknd:activity/surfing'] });
  t.is(bali?.text, undefined);
});

test('a 300 that lists a rendering on another origin is not followed: the credentials stay with the repository', async (t) => {
  // Another host the operator allows, that accepts the same credentials: what it would receive is recorded.
  const elsewhere = await contentServer(t);
  const { server, vela } = await setUpCms(t, { alsoAllow: [elsewhere.host], source: { publish: false } });
  server.tooLarge.add(`${BALI}/jcr:content`);
  server.renderingOrigin = elsewhere.origin;

  await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: [BALI] });
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { status: 'COMPLETED', indexed: 0, errors: 1 });
  t.deepEqual(elsewhere.requests, [], 'nothing was sent to the other origin');
  const records = await call(vela, 'GET', '/api/v2/connector/monitoring/index/wknd-author');
  t.regex((records.body as any[]).find((r) => r.objectId === BALI)?.error ?? '', /another origin/);
});
