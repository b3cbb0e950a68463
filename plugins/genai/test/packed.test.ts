import test from 'ava';
import { CHILD_ADMIN_AUTH, packedProblems, startPacked } from 'vela/testing';
import { HANDBOOK, HANDBOOK_FIELDS } from './fixtures.js';
import { readSse } from './sse-client.js';

// The genai plugin as a user deploys it: packed with `vela pack` (its npm packages, eventsource-parser and
// gpt-tokenizer, inside the archive) and loaded from the archive in another process, beside the search
// plugin's folder (test/runtime/packed-plugins.test.ts packs that one).

test('the packed genai plugin loads from its archive and answers a site chat', async (t) => {
  t.timeout(180_000);
  const packed = await startPacked(t, 'genai', ['search']);
  const { vela } = packed;
  t.deepEqual(packedProblems(packed, ['genai', 'search']), []);
  const base = vela.urls.search!;
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { authorization: CHILD_ADMIN_AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  t.is(
    (
      await post('/api/sn', {
        name: 'Handbook',
        locales: ['en_US'],
        fields: HANDBOOK_FIELDS,
        defaultTitleField: 'title',
        defaultTextField: 'text',
        defaultURLField: 'url',
      })
    ).status,
    201,
  );
  t.is(
    (
      await post('/api/sn/import?wait=true', {
        turingDocuments: HANDBOOK.map((attributes) => ({ locale: 'en_US', siteNames: ['Handbook'], attributes })),
      })
    ).status,
    200,
  );

  const run = await readSse(
    `${base}/api/sn/Handbook/chat?q=${encodeURIComponent('Which port does the connector listen on?')}`,
  );
  const done = run.events.at(-1)!;
  t.is(done.type, 'done', JSON.stringify(run));
  t.regex(done.data.text, /The connector listens on port 30130\. \[1\]/);
  t.true(done.data.usage.outputTokens > 0, 'the tokenizer from the archive counted the answer');
});
