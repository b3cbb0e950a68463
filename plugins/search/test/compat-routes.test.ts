import test, { type ExecutionContext } from 'ava';
import { eventually, onBothDatabases, startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, type Doc, importDocs, json, makeDocs } from './fixtures.js';

// The routes clients of the original call besides the search, as they call them: the list search, latest
// searches with the SDK's Bearer token, locales and chat of an unknown site, and every public route from a
// browser page on another origin. Over HTTP, on SQLite and on PostgreSQL.

const DOCS = makeDocs(30);
/** A result without a title: a list of titles skips it. */
const UNTITLED = { id: 'untitled', text: 'An editor nobody named.', section: 'editors' };
const anonymous = { authorization: '' };
const ELSEWHERE = 'http://127.0.0.1:9';

async function start(databaseUrl: string | undefined): Promise<TestRuntime> {
  const vela = await startTestRuntime({
    plugins: ['search', 'search-metrics', 'genai'],
    databaseUrl,
    config: { plugins: { 'search-metrics': { flushMs: 50 } } },
  });
  await createSite(vela, 'Sample', { defaultLocale: 'en_US' });
  await importDocs(vela, [...DOCS, UNTITLED]);
  return vela;
}

onBothDatabases(test, 'routes of the original answer its clients as it does', async (t, databaseUrl) => {
  const vela = await start(databaseUrl);
  t.teardown(() => vela.stop());
  const token = (await json(vela, 'POST', '/api/dev/token', { title: 'sdk', scopes: ['search'] })).body.token as string;
  await listSearch(t, vela);
  await latestSearches(t, vela, token);
  await bearerTokens(t, vela, token);
  await unknownSites(t, vela);
  await fromAnotherOrigin(t, vela, token);
  await versionTwoPaths(t, vela, token);
});

/** The original's /api/v2/sn/... search paths: the same answers, for callers with a token only. */
async function versionTwoPaths(t: ExecutionContext, vela: TestRuntime, token: string): Promise<void> {
  const key = { authorization: '', key: token };
  const v2 = await json(vela, 'GET', '/api/v2/sn/Sample/search?q=editor&_setlocale=en_US&fqOp=AND', undefined, key);
  const v1 = await json(vela, 'GET', '/api/sn/Sample/search?q=editor&_setlocale=en_US&fqOp=AND', undefined, anonymous);
  t.is(v2.status, 200);
  t.is(v2.body.queryContext.count, v1.body.queryContext.count);
  t.regex(v2.body.pagination[0].href, /^\/api\/v2\/sn\/Sample\/search\?/, 'its links stay on the v2 path');
  const posted = await json(vela, 'POST', '/api/v2/sn/Sample/search', { query: 'editor', locale: 'en_US' }, key);
  t.is(posted.body.queryContext.count, v1.body.queryContext.count);
  const list = await json(vela, 'GET', '/api/v2/sn/Sample/search/list?q=editor&fl=id', undefined, key);
  t.is(list.body.length, Math.min(v1.body.queryContext.count, v1.body.queryContext.limit));
  const locales = await json(vela, 'GET', '/api/v2/sn/Sample/search/locales', undefined, key);
  t.regex(locales.body[0].link, /^\/api\/v2\/sn\/Sample\/search\?q=\*/);
  const latest = await json(vela, 'POST', '/api/v2/sn/Sample/search/latest?locale=en_US', { userId: 'ana' }, key);
  t.deepEqual(latest.body, ['audio', 'editor']);
  for (const [method, path] of [
    ['GET', '/api/v2/sn/Sample/search?q=editor'],
    ['GET', '/api/v2/sn/Sample/search/list?q=editor'],
    ['GET', '/api/v2/sn/Sample/search/locales'],
  ] as const) {
    const refused = await json(vela, method, path, undefined, anonymous);
    t.is(refused.status, 401, `${path}: a token is needed, as in the original`);
  }
}

async function listSearch(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  const list = (query: string, site = 'Sample') =>
    json(vela, 'GET', `/api/sn/${site}/search/list?${query}`, undefined, anonymous);
  const titleOf = new Map<string, string>(DOCS.map((doc: Doc) => [doc.id, doc.title]));
  const searched = await json(
    vela,
    'GET',
    '/api/sn/Sample/search?q=editor&rows=50&_setlocale=en_US',
    undefined,
    anonymous,
  );
  const ids: string[] = searched.body.results.document.map((doc: { fields: { id: string } }) => doc.fields.id);
  t.true(ids.includes('untitled'));
  t.true(
    searched.body.results.document.some((doc: { fields: { title?: string } }) => doc.fields.title?.includes('<mark>')),
    'the search highlights titles',
  );

  const titles = await list('q=editor&rows=50&_setlocale=en_US');
  t.is(titles.status, 200);
  t.deepEqual(
    titles.body,
    ids.filter((id) => id !== 'untitled').map((id) => titleOf.get(id)),
    "each result's title, in result order, not highlighted; the untitled one skipped",
  );

  const pairs = await list('q=editor&rows=50&_setlocale=en_US&fl=id,title,nosuch');
  t.deepEqual(
    pairs.body,
    ids.map((id) => (id === 'untitled' ? { id } : { id, title: titleOf.get(id) })),
    'objects of the fields fl names that a result has',
  );
  const sizes = await list('q=*&rows=3&fl=size&sort=size:asc');
  t.deepEqual(
    sizes.body,
    DOCS.map((doc) => doc.size)
      .sort((a, b) => a - b)
      .slice(0, 3),
    'one field: its values, of the type they have',
  );
  t.deepEqual((await list('q=editor&rows=2&p=2&fl=id')).body, ids.slice(2, 4), 'pages as the search');
  t.deepEqual(
    (await list('q=editor&fq[]=section:web&fl=section')).body.every((s: string) => s === 'web'),
    true,
  );

  const unknown = await list('q=editor', 'Nowhere');
  t.is(unknown.status, 404);
  t.is(unknown.body.error, 'site_not_found');
  const badRows = await list('q=editor&rows=ten');
  t.is(badRows.status, 400);
  t.is(badRows.body.error, 'invalid_parameter');
  t.is((await list('rows=5')).body.error, 'missing_parameter', 'q is required, as for the search');
}

async function latestSearches(t: ExecutionContext, vela: TestRuntime, token: string): Promise<void> {
  for (const [userId, query] of [
    ['ana', 'editor'],
    ['ana', 'audio'],
    ['admin', 'python'],
  ] as const)
    t.is(
      (await json(vela, 'POST', '/api/sn/Sample/search?_setlocale=en_US', { userId, query }, anonymous)).status,
      200,
    );
  // As the original's SDK asks: locale (not _setlocale), rows, a userId.
  const latest = (body: unknown, headers: Record<string, string>, query = 'rows=5&locale=en_US', site = 'Sample') =>
    json(vela, 'POST', `/api/sn/${site}/search/latest?${query}`, body, headers);
  const bearer = { authorization: `Bearer ${token}` };
  await eventually(async () => (await latest({ userId: 'ana' }, bearer)).body.length === 2, "ana's searches recorded");

  t.deepEqual((await latest({ userId: 'ana' }, bearer)).body, ['audio', 'editor'], 'the user the body names');
  t.deepEqual((await latest({}, { ...anonymous, key: token })).body, ['python'], "the Key's user: its creator");
  t.deepEqual((await latest({}, bearer)).body, ['python'], 'the same with Bearer');
  t.deepEqual((await latest(undefined, bearer, '_setlocale=en_US')).body, ['python']);

  // As the original: a caller it does not know is refused, whatever user the body names.
  for (const headers of [anonymous, { authorization: 'Bearer not-a-token' }, { key: 'not-a-token' }]) {
    for (const body of [{}, { userId: 'ana' }]) {
      const refused = await latest(body, headers);
      t.is(refused.status, 401);
      t.is(refused.body.error, 'unauthorized');
      t.false(JSON.stringify(refused.body).includes('not-a-token'));
    }
  }
  t.is((await latest({ userId: 'ana' }, bearer, 'rows=5')).status, 400, 'the locale is required');
  t.deepEqual((await latest({ userId: 'ana' }, bearer, 'locale=en_US', 'Nowhere')).body, []);
}

async function bearerTokens(t: ExecutionContext, vela: TestRuntime, token: string): Promise<void> {
  const sites = (headers: Record<string, string>) => json(vela, 'GET', '/api/sn', undefined, headers);
  const viaBearer = await sites({ authorization: `Bearer ${token}` });
  t.is(viaBearer.status, 200, 'a key route takes the token as Bearer');
  t.deepEqual(
    viaBearer.body.map((site: { name: string }) => site.name),
    (await sites({ ...anonymous, key: token })).body.map((site: { name: string }) => site.name),
  );
  const unknown = await sites({ authorization: 'Bearer vela-not-a-token' });
  t.is(unknown.status, 401);
  t.deepEqual(Object.keys(unknown.body).sort(), ['error', 'message']);
  t.is(unknown.body.error, 'unauthorized');
  t.false(JSON.stringify(unknown.body).includes('vela-not-a-token'), 'the token is not echoed');
  const scoped = await json(
    vela,
    'POST',
    '/api/sn/import',
    { turingDocuments: [] },
    { authorization: `Bearer ${token}` },
  );
  t.is(scoped.status, 403, 'scopes hold as for the Key header');
  t.is(scoped.body.error, 'insufficient_scope');
  const logged = JSON.stringify(vela.logs);
  t.false(logged.includes(token), 'the token is never logged');
  t.false(logged.includes('vela-not-a-token'));
}

async function unknownSites(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  const get = (path: string, headers: Record<string, string> = {}) =>
    json(vela, 'GET', path, undefined, { ...anonymous, ...headers });
  t.deepEqual(
    (await get('/api/sn/Sample/search/locales')).body.map((l: { locale: string }) => l.locale),
    ['en_US', 'pt_BR'],
  );
  for (const [path, expected] of [
    ['/api/sn/Nowhere/search/locales', []],
    ['/api/sn/Nowhere/ac?q=edi', []],
    ['/api/sn/Sample/ac?q=edi&_setlocale=fr_FR', []],
    ['/api/sn/Nowhere/en_US/spell-check?q=edtor', {}],
  ] as const) {
    const answer = await get(path);
    t.deepEqual([answer.status, answer.body], [200, expected], path);
  }
  // The original's SDK (axios) asks for JSON first and anything after.
  const chat = await get('/api/sn/Nowhere/chat?q=hello&_setlocale=en_US', {
    accept: 'application/json, text/plain, */*',
  });
  t.is(chat.status, 200);
  t.like(chat.body, { enabled: false, text: null });
  const stream = await vela.fetch('search', '/api/sn/Nowhere/chat?q=hello', {
    headers: { accept: 'text/event-stream' },
  });
  t.is(stream.status, 200);
  t.regex(await stream.text(), /^event: disabled\ndata: \{"enabled":false,"text":null/);
  t.is((await get('/api/sn/Nowhere/search?q=x')).status, 404, 'the search itself is a 404, as in the original');
}

/** Every public route of the original, as a browser on another origin asks for it: a preflight, then the request. */
async function fromAnotherOrigin(t: ExecutionContext, vela: TestRuntime, token: string): Promise<void> {
  const routes: Array<[string, string, string, Record<string, string>?]> = [
    ['GET', '/api/sn/Sample/search?q=editor', ''],
    ['POST', '/api/sn/Sample/search?_setlocale=en_US', '{"query":"editor"}'],
    ['GET', '/api/sn/Sample/search/list?q=editor', ''],
    ['GET', '/api/sn/Sample/search/locales', ''],
    // A key route that pages may call with a token in a header, as the public ones.
    ['POST', '/api/sn/Sample/search/latest?locale=en_US', '{"userId":"ana"}', { authorization: `Bearer ${token}` }],
    ['GET', '/api/sn/Sample/ac?q=edi', ''],
    ['GET', '/api/sn/Sample/en_US/spell-check?q=edtor', ''],
    ['GET', '/api/sn/Sample/chat?q=editor', ''],
    ['GET', '/api/v2/guest/sn', ''],
    ['GET', '/api/v2/guest/sn/Sample', ''],
    ['GET', '/api/v2/guest/sn/Sample/search?q=editor', ''],
  ];
  for (const [method, path, body, credentials] of routes) {
    const preflight = await vela.fetch('search', path, {
      method: 'OPTIONS',
      headers: {
        origin: ELSEWHERE,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    t.is(preflight.status, 204, `${method} ${path}: preflight`);
    t.is(preflight.headers.get('access-control-allow-origin'), '*', path);
    t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/, path);
    const answer = await vela.fetch('search', path, {
      method,
      headers: { origin: ELSEWHERE, accept: 'application/json', 'content-type': 'application/json', ...credentials },
      body: body || undefined,
    });
    t.is(answer.status, 200, `${method} ${path}`);
    t.is(answer.headers.get('access-control-allow-origin'), '*', `${method} ${path}: readable there`);
    await answer.arrayBuffer();
  }
  const keyRoute = await vela.fetch('search', '/api/sn', {
    method: 'OPTIONS',
    headers: { origin: ELSEWHERE, 'access-control-request-method': 'GET' },
  });
  t.is(keyRoute.status, 403, 'a key route stays closed to other origins');
  t.is(keyRoute.headers.get('access-control-allow-origin'), null);
}
