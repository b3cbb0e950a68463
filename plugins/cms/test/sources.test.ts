import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { Database } from 'vela/plugin';
import { testFolder } from 'vela/testing';
import { PASSWORD } from './fixtures/content-server.js';
import {
  AUTHOR_SITE,
  call,
  contentServer,
  createSource,
  PUBLISH_SITE,
  runsOf,
  setUpCms,
  sourceBody,
  startCms,
  waitForRuns,
} from './helpers.js';

test('sources: create, list, get, replace and delete, with their connector sources; the password is sealed and never answered', async (t) => {
  const { server, vela } = await setUpCms(t, { source: false });
  const structure = await call(vela, 'GET', '/api/v2/cms/source/structure');
  t.is(structure.status, 200);
  t.like(structure.body, {
    id: '',
    name: '',
    rootPath: '/content',
    contentTypes: ['cq:Page'],
    author: true,
    publish: true,
    authorSite: null,
  });

  const created = await call(vela, 'POST', '/api/v2/cms/source', sourceBody(server));
  t.is(created.status, 201);
  t.like(created.body, {
    name: 'wknd',
    endpoint: server.origin,
    passwordSet: true,
    fields: { title: 'title', text: 'text', description: 'abstract' },
  });
  t.false(JSON.stringify(created.body).includes(PASSWORD));
  t.false('password' in created.body);
  const id = created.body.id as string;

  t.deepEqual(
    (await call(vela, 'GET', '/api/v2/cms/source')).body.map((s: any) => s.id),
    [id],
  );
  const one = await call(vela, 'GET', `/api/v2/cms/source/${id}`);
  t.is(one.status, 200);
  t.false(JSON.stringify(one.body).includes(PASSWORD));

  // The password is stored sealed: the database row holds no trace of it.
  const row = await (vela.runtime.resolve('db') as Database)('cms_sources').where({ id }).first();
  t.false(JSON.stringify(row).includes(PASSWORD));
  t.regex(row.password, /^v1:/);

  // Its connector sources: one per environment, visible in the connector, changed only through the cms plugin.
  const connectorSources = (await call(vela, 'GET', '/api/v2/connector/source')).body as any[];
  t.deepEqual(
    connectorSources.map((s) => [s.name, s.kind, s.sites, s.origin, s.settings]),
    [
      ['wknd-author', 'cms', [AUTHOR_SITE], 'plugin', { cmsSource: id, environment: 'author' }],
      ['wknd-publish', 'cms', ['wknd-publish'], 'plugin', { cmsSource: id, environment: 'publish' }],
    ],
  );
  t.is((await call(vela, 'DELETE', '/api/v2/connector/source/wknd-author')).status, 409);
  t.is(
    (
      await call(vela, 'PUT', '/api/v2/connector/source/wknd-author', {
        kind: 'cms',
        sites: [AUTHOR_SITE],
        settings: {},
      })
    ).status,
    409,
  );

  // PUT of what GET answered (no password: the stored one stays), with publishing turned off.
  const replaced = await call(vela, 'PUT', `/api/v2/cms/source/${id}`, {
    ...one.body,
    publish: false,
    description: 'author only',
  });
  t.is(replaced.status, 200, JSON.stringify(replaced.body));
  t.like(replaced.body, { id, publish: false, description: 'author only', passwordSet: true });
  t.deepEqual(
    (await call(vela, 'GET', '/api/v2/connector/source')).body.map((s: any) => s.name),
    ['wknd-author'],
  );
  // The stored password still opens the repository.
  t.is((await call(vela, 'POST', '/api/v2/cms/index/wknd', { paths: ['/content/wknd'] })).status, 200);
  t.like((await waitForRuns(vela, 'wknd-author', 1))[0], { status: 'COMPLETED', indexed: 1 });

  t.like(await call(vela, 'DELETE', `/api/v2/cms/source/${id}`), { status: 200, body: true });
  t.is((await call(vela, 'GET', `/api/v2/cms/source/${id}`)).status, 404);
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/source')).body, []);
});

test('source errors: 400 naming the member, 404 for an unknown id, 400 for an id that differs from the body, 409 for a taken name', async (t) => {
  const { server, vela } = await setUpCms(t, { source: false });
  const invalid: Array<[Record<string, unknown>, RegExp]> = [
    [{ password: undefined }, /body\.password is required/],
    [{ endpoint: 'ftp://x' }, /body\.endpoint/],
    [{ rootPath: 'content' }, /body\.rootPath/],
    [{ contentTypes: ['nt:file'] }, /body\.contentTypes/],
    [{ defaultLocale: 'english' }, /body\.defaultLocale/],
    [{ authorSite: null }, /body\.authorSite is required when body\.author is true/],
    [{ author: false, publish: false }, /body\.author or body\.publish must be true/],
    [
      { localePaths: [{ path: '/etc', locale: 'en_US' }] },
      /body\.localePaths\[0\]\.path must be within body\.rootPath/,
    ],
    [{ authorSite: 'NoSuchSite' }, /body\.authorSite must name a site of the search service/],
    [{ name: 'has space' }, /body\.name/],
    [{ fields: { title: 'bad field!' } }, /body\.fields\.title/],
    [{ endpoint: 'http://10.1.2.3:4502' }, /body\.endpoint is .*runtime\.network\.allowHosts/],
    // Credentials in a URL would be stored in the clear and answered with the source.
    [{ endpoint: server.origin.replace('://', `://admin:${PASSWORD}@`) }, /^body\.endpoint must not hold credentials/],
    [
      { deliveryUrlPrefix: `https://admin:${PASSWORD}@wknd.example` },
      /^body\.deliveryUrlPrefix must not hold credentials/,
    ],
    // The sites have en_US and es_ES: every locale the documents may carry is checked, named as sent.
    [
      { defaultLocale: 'fr_FR' },
      /^body\.defaultLocale is fr_FR, which body\.authorSite \("wknd-author"\) does not have/,
    ],
    [
      {
        localePaths: [
          { path: '/content/wknd/us/en', locale: 'en_US' },
          { path: '/content/wknd/fr', locale: 'fr_FR' },
        ],
      },
      /^body\.localePaths\[1\]\.locale is fr_FR, which body\.authorSite \("wknd-author"\) does not have/,
    ],
  ];
  for (const [change, message] of invalid) {
    const refused = await call(vela, 'POST', '/api/v2/cms/source', { ...sourceBody(server), ...change });
    t.is(refused.status, 400, JSON.stringify(change));
    t.regex(refused.body.message, message);
    t.false(JSON.stringify(refused.body).includes(PASSWORD), 'a refusal does not echo the password');
  }
  t.deepEqual((await call(vela, 'GET', '/api/v2/cms/source')).body, [], 'nothing refused was kept');
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/source')).body, []);

  const source = await createSource(vela, server);
  t.is((await call(vela, 'POST', '/api/v2/cms/source', sourceBody(server))).status, 409);

  const mismatch = await call(vela, 'PUT', `/api/v2/cms/source/${source.id}`, { ...source, id: 'another-id' });
  t.is(mismatch.status, 400);
  t.regex(mismatch.body.message, /body\.id/);
  const unknown = await call(vela, 'PUT', '/api/v2/cms/source/0000-unknown', { ...source, id: undefined });
  t.is(unknown.status, 404);
  const renamed = await call(vela, 'PUT', `/api/v2/cms/source/${source.id}`, { ...source, name: 'other' });
  t.is(renamed.status, 400);
  t.regex(renamed.body.message, /body\.name cannot change/);
  t.is((await call(vela, 'GET', '/api/v2/cms/source/0000-unknown')).status, 404);
  t.is((await call(vela, 'DELETE', '/api/v2/cms/source/0000-unknown')).status, 404);
  t.is((await call(vela, 'GET', '/api/v2/cms/source/0000-unknown/indexAll')).status, 404);
  t.is((await call(vela, 'GET', '/api/v2/cms/source/not%20an%20id')).status, 400);
  t.is((await call(vela, 'GET', '/api/v2/cms/source', undefined, {})).status, 401);
});

test('the OpenAPI description of the connector service lists the nine cms endpoints', async (t) => {
  const { vela } = await setUpCms(t, { source: false });
  const docs = await (await vela.fetch('connector', '/v3/api-docs')).json();
  const cms = Object.entries(docs.paths as Record<string, Record<string, unknown>>)
    .filter(([p]) => p.startsWith('/api/v2/cms'))
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();
  t.deepEqual(cms, [
    'DELETE /api/v2/cms/source/{id}',
    'GET /api/v2/cms/source',
    'GET /api/v2/cms/source/structure',
    'GET /api/v2/cms/source/{id}',
    'GET /api/v2/cms/source/{id}/indexAll',
    'GET /api/v2/cms/status',
    'POST /api/v2/cms/index/{source}',
    'POST /api/v2/cms/source',
    'PUT /api/v2/cms/source/{id}',
  ]);
});

/** A jsonl source of the connector's API, with one document for `site`. */
async function userSource(t: any, vela: any, name: string, site: string): Promise<void> {
  const dir = testFolder(t, 'cms-user');
  const file = path.join(dir, 'docs.jsonl');
  writeFileSync(file, `${JSON.stringify({ id: `${name}-doc`, title: 'a document of the user' })}\n`);
  const created = await call(vela, 'POST', '/api/v2/connector/source', {
    name,
    kind: 'jsonl',
    sites: [site],
    settings: { path: file },
  });
  if (created.status !== 201) throw new Error(`jsonl source creation failed: ${JSON.stringify(created.body)}`);
}

test('a cms source never replaces or deletes a connector source it did not make, nor its records', async (t) => {
  const { server, vela } = await setUpCms(t, { source: false });
  await userSource(t, vela, 'bar-publish', PUBLISH_SITE);
  await userSource(t, vela, 'foo-author', AUTHOR_SITE);
  t.is((await call(vela, 'GET', '/api/v2/connector/index/foo-author/all')).status, 200);
  t.like((await waitForRuns(vela, 'foo-author', 1))[0], { status: 'COMPLETED', indexed: 1 });

  // Publishing off: bar-publish is not the cms source's, so it is left alone.
  const bar = await call(vela, 'POST', '/api/v2/cms/source', sourceBody(server, { name: 'bar', publish: false }));
  t.is(bar.status, 201, JSON.stringify(bar.body));
  t.like((await call(vela, 'GET', '/api/v2/connector/source/bar-publish')).body, { kind: 'jsonl', origin: 'api' });

  // A name whose connector source is taken: 409 naming body.name, and nothing of the user's is touched.
  const foo = await call(vela, 'POST', '/api/v2/cms/source', sourceBody(server, { name: 'foo' }));
  t.is(foo.status, 409);
  t.is(foo.body.error, 'source_exists');
  t.regex(foo.body.message, /^body\.name \("foo"\) makes connector source "foo-author", which/);
  t.like((await call(vela, 'GET', '/api/v2/connector/source/foo-author')).body, { kind: 'jsonl', origin: 'api' });
  t.is((await runsOf(vela, 'foo-author')).length, 1, 'its statistics stay');
  t.is((await call(vela, 'GET', '/api/v2/connector/monitoring/index/foo-author')).status, 200, 'its records stay');
  t.is(
    (await call(vela, 'GET', '/api/v2/connector/source/foo-publish')).status,
    404,
    'what the refused source made is gone',
  );
  t.deepEqual(
    (await call(vela, 'GET', '/api/v2/cms/source')).body.map((s: any) => s.name),
    ['bar'],
  );

  // Turning publishing on where the name is taken is refused the same way; deleting bar leaves bar-publish.
  const on = await call(vela, 'PUT', `/api/v2/cms/source/${bar.body.id}`, { ...bar.body, publish: true });
  t.is(on.status, 409);
  t.regex(on.body.message, /connector source "bar-publish"/);
  t.like(await call(vela, 'DELETE', `/api/v2/cms/source/${bar.body.id}`), { status: 200, body: true });
  t.deepEqual(
    (await call(vela, 'GET', '/api/v2/connector/source')).body.map((s: any) => s.name),
    ['bar-publish', 'foo-author'],
  );
});

test('the connector API refuses to create a source of the cms kind, which only the cms plugin makes', async (t) => {
  const { vela } = await setUpCms(t, { source: false });
  const refused = await call(vela, 'POST', '/api/v2/connector/source', {
    name: 'sneaky',
    kind: 'cms',
    sites: [AUTHOR_SITE],
    settings: { cmsSource: '00000000-0000-0000-0000-000000000000', environment: 'author' },
  });
  t.is(refused.status, 400);
  t.is(refused.body.error, 'invalid_parameter');
  t.regex(refused.body.message, /^kind "cms" is made only by its plugin/);
  t.deepEqual((await call(vela, 'GET', '/api/v2/connector/source')).body, []);
  const kinds = (await call(vela, 'GET', '/api/v2/connector/source/kinds')).body as any[];
  t.true(kinds.find((k) => k.name === 'cms').pluginOnly);
  t.falsy(kinds.find((k) => k.name === 'jsonl').pluginOnly);
});

test('a cms source in the connector configuration file stops the start with one line naming it', async (t) => {
  t.timeout(60_000);
  const server = await contentServer(t);
  const error = await t.throwsAsync(
    startCms(server, {
      connector: {
        sources: [
          { name: 'docs', kind: 'filesystem', sites: [AUTHOR_SITE], settings: { root: os.tmpdir() } },
          {
            name: 'wknd-author',
            kind: 'cms',
            sites: [AUTHOR_SITE],
            settings: { cmsSource: '00000000-0000-0000-0000-000000000000', environment: 'author' },
          },
        ],
      },
    }),
  );
  t.false(error!.message.includes('\n'));
  t.regex(
    error!.message,
    /^invalid configuration \(plugins\.connector\): sources\[1\] \("wknd-author"\): kind "cms" cannot be configured here: its sources are made only by its plugin \(.*\/api\/v2\/cms\/source\)\); remove it from plugins\.connector\.sources$/,
  );
});

test('a PUT that moves the endpoint to another origin needs the password again; the stored one never goes there', async (t) => {
  const elsewhere = await contentServer(t);
  const { server, vela, source } = await setUpCms(t, { alsoAllow: [elsewhere.host] });

  const moved = await call(vela, 'PUT', `/api/v2/cms/source/${source.id}`, { ...source, endpoint: elsewhere.origin });
  t.is(moved.status, 400);
  t.regex(moved.body.message, /^body\.password is required when body\.endpoint moves to another origin/);
  t.is(
    (await call(vela, 'GET', `/api/v2/cms/source/${source.id}`)).body.endpoint,
    server.origin,
    'the source is unchanged',
  );

  // The same origin under another path keeps the stored password.
  const samePlace = await call(vela, 'PUT', `/api/v2/cms/source/${source.id}`, {
    ...source,
    endpoint: `${server.origin}/`,
  });
  t.is(samePlace.status, 200, JSON.stringify(samePlace.body));
  t.deepEqual(elsewhere.requests, [], 'nothing was sent to the other origin');
  // With the password sent again, the source moves.
  const withPassword = await call(vela, 'PUT', `/api/v2/cms/source/${source.id}`, {
    ...source,
    endpoint: elsewhere.origin,
    password: PASSWORD,
  });
  t.is(withPassword.status, 200, JSON.stringify(withPassword.body));
  t.is(withPassword.body.endpoint, elsewhere.origin);
});
