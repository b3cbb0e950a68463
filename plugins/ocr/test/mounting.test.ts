import test from 'ava';
import { apiDocument, pluginTraces, startConfiguredChild, startTestRuntimeFor } from 'vela/testing';

// OCR is a plugin of its own on the search service: a runtime without it has neither its routes nor their
// description, one with it serves them to anyone (a search API key in the Key header included), and a config
// file written when OCR was part of the search plugin (plugins.search.ocr) still starts and still applies.

const upload = (text: string) => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), 'note.txt');
  return form;
};

test('without the ocr plugin, /api/ocr/file and /api/ocr/url answer 404 and are not described', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search'] });
  t.deepEqual(vela.runtime.pluginNames, ['search']);
  const file = await vela.fetch('search', '/api/ocr/file', { method: 'POST', body: upload('a note') });
  t.is(file.status, 404);
  t.is((await file.json()).error, 'not_found');
  const url = await vela.fetch('search', '/api/ocr/url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://docs.example/a.pdf' }),
  });
  t.is(url.status, 404);
  t.is((await url.json()).error, 'not_found');
  const docs = await apiDocument(vela, 'search');
  t.deepEqual(
    pluginTraces(docs, (p) => p.startsWith('/api/ocr'), 'ocr'),
    [],
  );
  t.truthy(docs.paths['/api/sn/{siteName}/search'], 'the search routes are described');
});

test('with it, the OCR routes are described on the search service and take a search API key in the Key header', async (t) => {
  const vela = await startTestRuntimeFor(t, { plugins: ['search', 'ocr'] });
  const docs = await apiDocument(vela, 'search');
  for (const path of ['/api/ocr/file', '/api/ocr/url']) t.deepEqual(docs.paths[path]?.post?.tags, ['ocr'], path);
  const made = await vela.fetch('search', '/api/dev/token', {
    method: 'POST',
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'ocr-client' }),
  });
  t.is(made.status, 201);
  const { token } = (await made.json()) as { token: string };
  const read = await vela.fetch('search', '/api/ocr/file', {
    method: 'POST',
    headers: { key: token },
    body: upload('Read with a search key.'),
  });
  const body = (await read.json()) as { text: string };
  t.is(read.status, 200, JSON.stringify(body));
  t.is(body.text.trim(), 'Read with a search key.');
});

test('a config file with plugins.search.ocr starts, applies those settings to the ocr plugin and says where they belong now', async (t) => {
  t.timeout(120_000);
  const vela = await startConfiguredChild({ plugins: { search: { ocr: { maxBytes: 2048 } } } }, [
    '--plugins',
    'search,ocr',
  ]);
  t.teardown(() => vela.stop());
  t.deepEqual(vela.plugins.sort(), ['ocr', 'search']);
  t.true(
    vela
      .output()
      .split('\n')
      .some(
        (line) =>
          line.includes('plugins.search.ocr is read as plugins.ocr, where these settings belong now; move it there') &&
          line.includes('"level":40'),
      ),
    vela.output(),
  );
  const refused = await fetch(`${vela.urls.search}/api/ocr/file`, { method: 'POST', body: upload('x'.repeat(4096)) });
  t.is(refused.status, 413);
  t.deepEqual(await refused.json(), {
    error: 'payload_too_large',
    message: 'the document is larger than the OCR limit of 2048 bytes (plugins.ocr.maxBytes)',
  });
  const read = await fetch(`${vela.urls.search}/api/ocr/file`, { method: 'POST', body: upload('Small enough.') });
  t.is(read.status, 200);
});
