import test from 'ava';
import {
  call,
  createSite,
  MAPPING,
  makePackages,
  runAndWait,
  searchIds,
  startConnector,
  tempJsonl,
} from './helpers.js';

test('sources from the configuration file run like the others and are read-only through the API', async (t) => {
  const file = tempJsonl(makePackages(30));
  const vela = await startConnector({
    connector: {
      sources: [{ name: 'configured', kind: 'jsonl', sites: ['Docs'], settings: { path: file, ...MAPPING } }],
    },
  });
  t.teardown(() => vela.stop());
  await createSite(vela, 'Docs');
  const source = await call(vela, 'GET', '/api/v2/connector/source/configured');
  t.like(source.body, { name: 'configured', origin: 'config', locale: 'en_US', schedule: null });
  const put = await call(vela, 'PUT', '/api/v2/connector/source/configured', {
    ...source.body,
    description: 'changed',
  });
  t.is(put.status, 409);
  t.is(put.body.error, 'source_read_only');
  t.is((await call(vela, 'DELETE', '/api/v2/connector/source/configured')).status, 409);
  t.like(await runAndWait(vela, '/api/v2/connector/index/configured/all', 'configured'), {
    status: 'COMPLETED',
    indexed: 30,
  });
  t.is((await searchIds(vela, 'Docs')).length, 30);
});

test('a configured source with bad settings stops the start with one line naming it', async (t) => {
  const error = await t.throwsAsync(
    startConnector({
      connector: { sources: [{ name: 'broken', kind: 'jsonl', sites: ['Docs'], settings: { idField: 'id' } }] },
    }),
  );
  t.is(
    error?.message,
    'invalid configuration (plugins.connector): sources[0] ("broken"): settings of a jsonl source are invalid: settings.path is required',
  );
  const unknown = await t.throwsAsync(
    startConnector({ connector: { sources: [{ name: 'odd', kind: 'ftp', sites: ['Docs'] }] } }),
  );
  t.regex(unknown!.message, /sources\[0\] \("odd"\): kind must be one of filesystem, jsonl, web, got "ftp"/);
});
