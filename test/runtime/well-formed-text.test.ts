import http from 'node:http';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { manifest, startTestRuntime, type TestRuntime, writePlugins } from '../../runtime/testing/test-runtime.js';

// Strings JSON accepts but no UTF-8 can spell (lone surrogates, written `\ud800` in JSON) are refused by the
// runtime on every route of every plugin, naming the member: the real search, GraphQL and connector routes, and
// a plugin's routes without any schema.

let vela: TestRuntime;
const CONNECTOR_KEY = 'well-formed-connector-key';

test.before(async () => {
  const fixture = await writePlugins([
    {
      manifest: manifest('echo'),
      files: {
        'index.ts': `
      export default { register(ctx) {
        ctx.routes((r) => {
          r.post('/api/echo', { access: 'public' }, (req, res) => res.json({ body: req.body ?? null }));
          r.get('/api/echo/:id', { access: 'public' }, (req, res) => res.json({ id: req.params.id, query: req.query }));
        });
      } };`,
      },
    },
  ]);
  vela = await startTestRuntime({
    loaderPath: [fileURLToPath(new URL('../../plugins', import.meta.url)), fixture],
    plugins: ['search', 'graphql', 'connector', 'echo'],
    config: { plugins: { connector: { apiKeys: [CONNECTOR_KEY] } } },
  });
  const admin = { authorization: vela.adminAuth, 'content-type': 'application/json' };
  const created = await vela.fetch('search', '/api/sn', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: 'Lamp', locales: ['en_US'], fields: [{ name: 'title', type: 'TEXT' }] }),
  });
  if (created.status >= 300) throw new Error(`site: ${created.status} ${await created.text()}`);
  const imported = await vela.fetch('search', '/api/sn/import?wait=true', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({
      turingDocuments: [{ locale: 'en_US', siteNames: ['Lamp'], attributes: { id: 'l1', title: 'a desk lamp' } }],
    }),
  });
  if (imported.status >= 300) throw new Error(`import: ${imported.status} ${await imported.text()}`);
});

test.after.always(() => vela?.stop());

/** node:http, so a GET can carry a body (the connector's reindex by ids takes one). */
function send(
  service: string,
  method: string,
  url: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      vela.url(service, url),
      {
        method,
        headers:
          body === undefined
            ? headers
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: text });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// JSON.stringify writes a lone surrogate as the escape `\ud800`: the JSON is valid, the string it holds is not.
const refusal = (member: string, unit: string, position: number) => ({
  error: 'validation_failed',
  message: `${member} must be well-formed Unicode text, found a lone surrogate U+${unit} at position ${position}`,
});

test('the search answers a lone surrogate in any member of its body with a 400 naming it, not a 500', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ query: '\ud800' }, refusal('body.query', 'D800', 1).message],
    [{ query: 'a\udfff\ud800b' }, refusal('body.query', 'DFFF', 2).message],
    [{ query: 'lamp', fq: ['title:\ud800'] }, refusal('body.fq[0]', 'D800', 7).message],
    [{ query: 'x', sort: '\ud800' }, refusal('body.sort', 'D800', 1).message],
  ];
  for (const [body, message] of cases) {
    const text = JSON.stringify(body);
    t.true(text.includes('\\ud'), text);
    t.deepEqual(
      await send('search', 'POST', '/api/sn/Lamp/search', text),
      { status: 400, body: { error: 'validation_failed', message } },
      text,
    );
  }
  // A surrogate pair is one well-formed character, and searches as such.
  t.is(
    (await send('search', 'POST', '/api/sn/Lamp/search', JSON.stringify({ query: 'lamp \ud83d\udca1' }))).status,
    200,
  );
});

test('GraphQL refuses a lone surrogate in its variables and in its query text with a 400 in its error shape', async (t) => {
  const query =
    'query($q: String) { siteSearch(siteName: LAMP, locale: "en_US", searchParams: { q: $q }) { queryContext { count } } }';
  const variables = await send('search', 'POST', '/graphql', JSON.stringify({ query, variables: { q: '\ud800' } }));
  t.is(variables.status, 400);
  t.deepEqual(variables.body, {
    errors: [{ message: refusal('body.variables.q', 'D800', 1).message, extensions: { code: 'validation_failed' } }],
  });
  const literal = await send('search', 'POST', '/graphql', JSON.stringify({ query: `{ siteNames } # \udc00` }));
  t.is(literal.status, 400);
  t.is(literal.body.errors[0].message, refusal('body.query', 'DC00', 17).message);
  const fine = await send('search', 'POST', '/graphql', JSON.stringify({ query, variables: { q: 'lamp' } }));
  t.deepEqual(fine, { status: 200, body: { data: { siteSearch: { queryContext: { count: 1 } } } } });
});

test('a route that parses its own body (the connector reindex by ids, a GET with a body) is covered too', async (t) => {
  const answer = await send('connector', 'GET', '/api/v2/connector/reindex/none', JSON.stringify(['ok', 'bad\udbff']), {
    key: CONNECTOR_KEY,
  });
  t.deepEqual(answer, { status: 400, body: refusal('body[1]', 'DBFF', 4) });
});

test('a plugin route without any schema gets the same refusal, member names included', async (t) => {
  t.deepEqual(await send('search', 'POST', '/api/echo', JSON.stringify({ a: { b: ['x', '\ud800\ud800'] } })), {
    status: 400,
    body: refusal('body.a.b[1]', 'D800', 1),
  });
  t.deepEqual(await send('search', 'POST', '/api/echo', JSON.stringify({ a: { '\udc01': 1 } })), {
    status: 400,
    body: {
      error: 'validation_failed',
      message: 'body.a: a member name must be well-formed Unicode text, found a lone surrogate U+DC01 at position 1',
    },
  });
  t.deepEqual(await send('search', 'POST', '/api/echo', JSON.stringify(['\ud800'])), {
    status: 400,
    body: refusal('body[0]', 'D800', 1),
  });
  t.deepEqual(await send('search', 'POST', '/api/echo', JSON.stringify({ a: 'emoji \ud83d\ude00' })), {
    status: 200,
    body: { body: { a: 'emoji \ud83d\ude00' } },
  });
});

test('percent-encoded bytes that are not UTF-8 in a path or query are a clean 4xx or decoded as U+FFFD, never a 500', async (t) => {
  // A path segment that does not decode is the router's 400, in the JSON error shape.
  const segment = await send('search', 'GET', '/api/echo/%ED%A0%80');
  t.is(segment.status, 400);
  t.is(segment.body.error, 'bad_request');
  t.is(typeof segment.body.message, 'string');
  // A query value that does not decode becomes replacement characters: well-formed, taken as text.
  t.deepEqual(await send('search', 'GET', '/api/echo/a?q=%ED%A0%80&fq[]=%FF'), {
    status: 200,
    body: { id: 'a', query: { q: '\ufffd\ufffd\ufffd', 'fq[]': '\ufffd' } },
  });
  for (const url of [
    '/api/sn/Lamp/search?q=%ED%A0%80',
    '/api/sn/Lamp/search?q=x&fq[]=title:%ED%B0%80',
    '/api/sn/%ED%A0%80/search?q=x',
  ]) {
    const answer = await send('search', 'GET', url);
    t.true(answer.status < 500, `${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.status >= 400) t.is(typeof answer.body.error, 'string');
  }
});
