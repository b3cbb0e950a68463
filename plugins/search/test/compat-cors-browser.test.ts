import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { browserSuite, eventually, startTestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs } from './fixtures.js';

// A search page served from another origin (another loopback port) calling the public routes the original's
// JavaScript SDK calls, with fetch() in Chromium: the browser's own CORS checks decide what the page may read.

const ui = browserSuite(test, () =>
  startTestRuntime({
    plugins: ['search', 'search-metrics', 'genai'],
    config: { plugins: { 'search-metrics': { flushMs: 50 } } },
  }),
);

let elsewhere: Server | undefined;
test.after.always(() => elsewhere?.close());

/** A page on its own origin: http://127.0.0.1:<another port>/. */
async function pageElsewhere(): Promise<string> {
  elsewhere = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>A search page elsewhere</title></head><body></body></html>');
  });
  await new Promise<void>((resolve) => elsewhere!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
}

/**
 * What the page runs, as script text (code compiled for Node may carry helpers the page lacks): each call's status
 * and JSON, or the error fetch() rejected with.
 */
const pageCalls = (base: string, token: string) => `(async () => {
  const base = ${JSON.stringify(base)};
  const bearer = { authorization: ${JSON.stringify(`Bearer ${token}`)} };
  async function call(path, init) {
    try {
      const res = await fetch(base + path, init);
      return { status: res.status, body: await res.json() };
    } catch (error) {
      return { status: null, body: null, error: String(error) };
    }
  }
  function latest(headers, body) {
    return call('/api/sn/Sample/search/latest?rows=5&locale=en_US', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }
  const json = { headers: { accept: 'application/json' } };
  return {
    search: await call('/api/sn/Sample/search?q=editor&rows=50&_setlocale=en_US'),
    list: await call('/api/sn/Sample/search/list?q=editor&rows=50&_setlocale=en_US&fl=id'),
    latestBearer: await latest(bearer, {}),
    latestForAna: await latest(bearer, { userId: 'ana' }),
    latestAnonymous: await latest({}, { userId: 'ana' }),
    latestNobody: await latest({}, {}),
    locales: await call('/api/sn/Sample/search/locales'),
    unknownLocales: await call('/api/sn/Nowhere/search/locales'),
    chat: await call('/api/sn/Sample/chat?q=editor&_setlocale=en_US', json),
    unknownChat: await call('/api/sn/Nowhere/chat?q=editor', json),
    keyRoute: await call('/api/sn', { headers: bearer }),
  };
})()`;

interface Fetched {
  status: number | null;
  body: unknown;
  /** The error fetch() rejected with: a CORS refusal hides the answer from the page. */
  error?: string;
}

ui.test(
  'a page on another origin searches, lists latest searches with a Bearer token, reads locales and chats',
  async (t) => {
    const { vela, page } = ui;
    await createSite(vela, 'Sample', { defaultLocale: 'en_US' });
    await importDocs(vela, makeDocs(20));
    const token = (await json(vela, 'POST', '/api/dev/token', { title: 'page', scopes: ['search'] })).body.token;
    for (const [userId, query] of [
      ['ana', 'editor'],
      ['admin', 'browser'],
    ])
      await json(vela, 'POST', '/api/sn/Sample/search', { userId, query }, { authorization: '' });
    await eventually(
      async () =>
        (await json(vela, 'POST', '/api/sn/Sample/search/latest?locale=en_US', { userId: 'admin' })).body.length === 1,
      'the searches recorded',
    );

    const origin = await pageElsewhere();
    await page.goto(origin);
    t.not(new URL(origin).origin, new URL(vela.url('search')).origin);
    const answers = (await page.evaluate(pageCalls(vela.url('search'), token))) as Record<string, Fetched>;

    const { search, list } = answers;
    t.is(search!.status, 200);
    const ids = (search!.body as { results: { document: Array<{ fields: { id: string } }> } }).results.document.map(
      (doc) => doc.fields.id,
    );
    t.true(ids.length > 0);
    t.deepEqual(list, { status: 200, body: ids }, 'the list search: the same results, one field each');
    t.deepEqual(answers.latestBearer, { status: 200, body: ['browser'] }, "the token's user: its creator");
    t.deepEqual(answers.latestForAna, { status: 200, body: ['editor'] });
    t.is(answers.latestAnonymous!.status, 401, 'without a token, naming a user is not enough');
    t.is(answers.latestNobody!.status, 401, 'read by the page: a JSON refusal, not a CORS failure');
    t.is((answers.latestNobody!.body as { error: string }).error, 'unauthorized');
    t.deepEqual(
      (answers.locales!.body as Array<{ locale: string }>).map((l) => l.locale),
      ['en_US', 'pt_BR'],
    );
    t.deepEqual(answers.unknownLocales, { status: 200, body: [] });
    t.is(answers.chat!.status, 200);
    t.is(typeof (answers.chat!.body as { enabled: unknown }).enabled, 'boolean');
    t.is(answers.unknownChat!.status, 200);
    t.like(answers.unknownChat!.body as object, { enabled: false, text: null });
    t.is(answers.keyRoute!.status, null, 'a key route stays closed to other origins: the browser hides its answer');
    t.regex(answers.keyRoute!.error ?? '', /TypeError/);
  },
);
