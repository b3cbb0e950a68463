import { writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import {
  CHILD_ADMIN_AUTH,
  type ChildRuntime,
  childEnv,
  eventually,
  packageRoot,
  packedHome,
  startChildRuntime,
  startTestRuntime,
  type TestTeardown,
} from 'vela/testing';
import { contentServer, sourceBody } from './helpers.js';

const plugins = path.join(packageRoot, 'plugins');

/**
 * `vela start` in `home` with `config`, the search and connector plugins' folders and `cms` (the archive or the
 * folder holding it) on the loader path, as an operator installs the plugin; it stops when the test ends.
 */
async function startPackedCms(
  t: TestTeardown,
  home: string,
  cms: string,
  config: Record<string, unknown>,
): Promise<ChildRuntime> {
  const file = path.join(home, 'vela.json');
  writeFileSync(file, JSON.stringify(config));
  const loaderPath = [path.join(plugins, 'search'), path.join(plugins, 'connector'), cms].join(',');
  const vela = await startChildRuntime(
    ['--loader-path', loaderPath, '--config', file],
    childEnv({ VELA_DATA_DIR: path.join(home, 'data') }),
    home,
  );
  t.teardown(async () => {
    await vela.stop();
  });
  return vela;
}

test('without the cms plugin on the loader path, /api/v2/cms answers 404 and is not described', async (t) => {
  const vela = await startTestRuntime({ loaderPath: [path.join(plugins, 'search'), path.join(plugins, 'connector')] });
  t.teardown(() => vela.stop());
  for (const [method, pathname] of [
    ['GET', '/api/v2/cms/status'],
    ['GET', '/api/v2/cms/source'],
    ['POST', '/api/v2/cms/index/wknd'],
  ]) {
    const res = await vela.fetch('connector', pathname!, {
      method,
      headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
      body: method === 'POST' ? '{"paths":[]}' : undefined,
    });
    t.is(res.status, 404, `${method} ${pathname}`);
    t.is((await res.json()).error, 'not_found');
  }
  const docs = await (await vela.fetch('connector', '/v3/api-docs')).json();
  t.false(Object.keys(docs.paths).some((p) => p.startsWith('/api/v2/cms')));
  t.is((await vela.fetch('connector', '/api/v2/connector/status')).status, 200);
});

test('vela pack cms makes an archive that loads alone from a loader-path folder beside the connector and indexes a content repository', async (t) => {
  t.timeout(180_000);
  const server = await contentServer(t);
  const { home, archives } = await packedHome(t, 'cms');

  // The folder that holds the archive, as an operator installs it.
  const vela = await startPackedCms(t, home, archives, {
    runtime: { network: { allowHosts: [server.host] } },
    plugins: { connector: { seedSample: false } },
  });
  t.deepEqual(vela.plugins.sort(), ['cms', 'connector', 'search']);
  t.true(
    vela
      .output()
      .split('\n')
      .some((line) => line.includes('"bootTree"') && (line.match(/"origin":"archive"/g) ?? []).length === 1),
    'cms, the one archive, loads from it',
  );

  const json = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      headers: { authorization: CHILD_ADMIN_AUTH, 'content-type': 'application/json' },
    });
    return { status: res.status, body: await res.json() };
  };
  for (const name of ['wknd-author', 'wknd-publish'])
    t.is(
      (
        await json(`${vela.urls.search}/api/sn`, {
          method: 'POST',
          body: JSON.stringify({ name, locales: ['en_US', 'es_ES'] }),
        })
      ).status,
      201,
    );
  const cms = `${vela.urls.connector}/api/v2/cms`;
  t.deepEqual((await json(`${cms}/status`)).body, { status: 'ok' });
  const created = await json(`${cms}/source`, {
    method: 'POST',
    body: JSON.stringify(sourceBody(server, { contentTypes: ['cq:Page'] })),
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const sent = await json(`${cms}/index/wknd`, {
    method: 'POST',
    body: JSON.stringify({ paths: ['/content/wknd/us/en'], recursive: true, event: 'PUBLISHING' }),
  });
  t.deepEqual(sent.body, { status: 'sent' });
  const stats = `${vela.urls.connector}/api/v2/connector/monitoring/indexing/stats/wknd-publish`;
  await eventually(async () => (await json(stats)).body?.[0]?.status === 'COMPLETED', 'the publish run to end');
  t.like((await json(stats)).body[0], { provider: 'cms', operationType: 'INDEX_IDS', indexed: 6, errors: 0 });
  const found = await json(`${vela.urls.search}/api/sn/wknd-publish/search?q=Uluwatu&_setlocale=en_US`);
  t.is(found.body.queryContext.count, 1, 'the text of the components is searchable');
});

test('the packed archive also loads when the loader path names the .tgz itself', async (t) => {
  t.timeout(120_000);
  const { home, archive } = await packedHome(t, 'cms');
  const vela = await startPackedCms(t, home, archive, { plugins: { connector: { seedSample: false } } });
  t.deepEqual(vela.plugins.sort(), ['cms', 'connector', 'search']);
  const status = await fetch(`${vela.urls.connector}/api/v2/cms/status`);
  t.deepEqual(await status.json(), { status: 'ok' });
});
