import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { copyPlugin, packageRoot, packPlugin, startTestRuntime } from 'vela/testing';

const example = path.join(packageRoot, 'docs', 'examples', 'greeter');

test('the plugin guide example loads from a folder given on the loader path, and all its parts work', async (t) => {
  const loaderPath = await copyPlugin(example);
  const vela = await startTestRuntime({
    loaderPath: [loaderPath],
    config: { plugins: { greeter: { greeting: 'Hi' } } },
  });
  t.teardown(() => vela.stop());

  const hello = await vela.fetch('search', '/api/greeter/hello?name=Ada');
  t.is(hello.status, 200);
  t.deepEqual(await hello.json(), { name: 'Ada', text: 'Hi, Ada!' });

  const loud = await vela.fetch('search', '/api/greeter/hello?name=Bob&loud=true');
  t.deepEqual(await loud.json(), { name: 'Bob', text: 'HI, BOB!' }, 'the TypeScript task ran in the worker pool');

  const missing = await vela.fetch('search', '/api/greeter/hello');
  t.is(missing.status, 400);
  t.deepEqual(await missing.json(), { error: 'validation_failed', message: 'query.name is required' });

  t.is((await vela.fetch('search', '/api/greeter/stats')).status, 401, 'stats declare access: key');
  const stats = (await (
    await vela.fetch('search', '/api/greeter/stats', { headers: { authorization: vela.adminAuth } })
  ).json()) as {
    greetings: number;
    requestsSeen: number;
  };
  t.is(stats.greetings, 2, "greetings were stored in the plugin's own table");
  t.true(stats.requestsSeen >= 3, 'the runtime.httpResponse tap saw the earlier responses');

  const health = (await (await vela.fetch('search', '/health')).json()) as {
    plugins: Record<string, { checks: Array<{ name: string; status: string }> }>;
  };
  t.deepEqual(
    health.plugins.greeter!.checks.map((c) => [c.name, c.status]),
    [['greetings-table', 'UP']],
  );

  const docs = (await (await vela.fetch('search', '/v3/api-docs')).json()) as { paths: Record<string, unknown> };
  t.truthy(docs.paths['/api/greeter/hello'], 'the route is described in the OpenAPI document');
  t.true(vela.runtime.hookBus.describe().some((h) => h.name === 'greeter.beforeGreet' && h.owner === 'greeter'));
});

test('the plugin guide example also loads as a packed archive', async (t) => {
  const archives = mkdtempSync(path.join(os.tmpdir(), 'vela-archives-'));
  const archive = await packPlugin(example, archives);
  t.is(path.basename(archive), 'greeter-1.2.0.tgz');
  const vela = await startTestRuntime({ loaderPath: [archives] });
  t.teardown(() => vela.stop());
  t.deepEqual(await (await vela.fetch('search', '/api/greeter/hello?name=Tar&loud=true')).json(), {
    name: 'Tar',
    text: 'HELLO, TAR!',
  });
  t.is(vela.runtime.tree()!.services[0]!.plugins[0]!.origin, 'archive');
});
