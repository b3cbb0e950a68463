import test from 'ava';
import type { TestRuntime } from 'vela/testing';
import { NOTHING_FOUND } from '../providers/extractive.js';
import { createHandbook, json, recordSearches, startGenai, token } from './fixtures.js';
import { readSse, shapeOf, textOf } from './sse-client.js';

// Site chat with the built-in extractive provider, which is what a fresh install has: no model configured.

let vela: TestRuntime;
let searches: URLSearchParams[];
const chat = (q: string, extra = '') => vela.url('search', `/api/sn/Handbook/chat?q=${encodeURIComponent(q)}${extra}`);

test.before(async () => {
  vela = await startGenai();
  await createHandbook(vela);
  searches = recordSearches(vela);
});
test.after.always(() => vela?.stop());

test('a question streams start, deltas and done, and the answer cites the document that holds it', async (t) => {
  const run = await readSse(chat('Which port does the connector listen on?'));
  t.is(run.error, undefined);
  t.deepEqual(shapeOf(run), ['start', 'delta', 'done']);
  t.true(run.events.filter((e) => e.type === 'delta').length > 1, 'the answer arrives in several pieces');
  const [start] = run.events;
  t.like(start!.data, {
    site: 'Handbook',
    locale: 'en_US',
    question: 'Which port does the connector listen on?',
    instance: { id: 'builtin', vendor: 'BUILTIN' },
  });

  const done = run.events.at(-1)!.data;
  t.is(done.text, textOf(run), 'done repeats the text the deltas carried');
  t.regex(done.text, /The connector listens on port 30130\. \[1\]/);
  t.deepEqual(done.sources[0], { n: 1, id: 'ports', title: 'Ports and services', url: 'https://docs.example/ports' });
  t.true(
    done.sources.every((s: { n: number }) => done.text.includes(`[${s.n}]`)),
    'every listed source is cited',
  );
  t.like(done.usage, { reported: false });
  t.true(done.usage.inputTokens > 0 && done.usage.outputTokens > 0);
  t.is(done.usage.totalTokens, done.usage.inputTokens + done.usage.outputTokens);
});

test('retrieval asks for hybrid search first; the keyword-by-keyword searches after it are keyword searches', async (t) => {
  const run = await readSse(chat('Which disk holds the copies of the data folder?'));
  t.is(run.events.at(-1)!.data.sources[0].id, 'backup');
  const mine = searches.filter((q) => /disk|copies|holds/.test(q.get('q') ?? ''));
  t.like(Object.fromEntries(mine[0]!), { q: 'disk holds copies data folder', semantic: 'hybrid', _setlocale: 'en_US' });
  t.true(mine.length > 1, 'the keywords together found too few documents on a site without vectors');
  t.true(
    mine.slice(1).every((q) => !q.has('semantic')),
    'each keyword alone is a keyword search',
  );
});

test('another question finds another document, and the answer quotes its sentence', async (t) => {
  const run = await readSse(chat('How do I back up the data folder?'));
  const done = run.events.at(-1)!.data;
  t.is(run.events.at(-1)!.type, 'done');
  t.is(done.sources[0].id, 'backup');
  t.true(done.text.includes('Copy the data folder to another disk.'), done.text);
});

test('Accept: application/json gets one answer {enabled, text, sources} as the original clients expect', async (t) => {
  const res = await json(
    vela,
    'GET',
    `/api/sn/Handbook/chat?q=${encodeURIComponent('what do migrations do at start?')}`,
    undefined,
    { authorization: '' },
  );
  t.is(res.status, 200);
  t.true(res.headers.get('content-type')!.startsWith('application/json'));
  t.is(res.body.enabled, true);
  t.regex(res.body.text, /Migrations run at start\. \[1\]/);
  t.is(res.body.sources[0].id, 'upgrade');
  t.truthy(res.body.usage);
});

test('without a question the endpoint says whether the site chats; an unknown site or locale does not chat', async (t) => {
  const status = await json(vela, 'GET', '/api/sn/Handbook/chat');
  t.is(status.status, 200);
  t.like(status.body, {
    enabled: true,
    text: null,
    sources: [],
    site: 'Handbook',
    locale: 'en_US',
    instance: { id: 'builtin' },
  });
  t.like((await json(vela, 'GET', '/api/sn/Handbook/chat?q=*')).body, { enabled: true, text: null });
  t.like((await json(vela, 'GET', '/api/sn/Handbook/chat?_setlocale=pt-BR')).body, { locale: 'pt_BR' });

  // As the original answers them: 200, not enabled, no text.
  const unknown = await json(vela, 'GET', '/api/sn/Nowhere/chat?q=hello');
  t.is(unknown.status, 200);
  t.like(unknown.body, { enabled: false, text: null, sources: [], message: 'no site named or with id "Nowhere"' });
  const locale = await json(vela, 'GET', '/api/sn/Handbook/chat?q=hello&_setlocale=fr_FR');
  t.is(locale.status, 200);
  t.like(locale.body, { enabled: false, text: null });
  t.regex(locale.body.message, /has no locale "fr_FR"/);
  const long = await json(vela, 'GET', `/api/sn/Handbook/chat?q=${'x'.repeat(2001)}`);
  t.is(long.status, 400);
  t.is(long.body.error, 'validation_failed');
});

test('a locale without documents answers that nothing was found, citing nothing', async (t) => {
  const run = await readSse(chat('Which port does the connector listen on?', '&_setlocale=pt_BR'));
  const done = run.events.at(-1)!.data;
  t.is(done.text, "I could not find anything about that in this site's documents.");
  t.deepEqual(done.sources, []);
});

test('a question without a content word finds nothing, instead of citing the first documents of a search for *', async (t) => {
  for (const q of ['the the the', '???', '(((']) {
    const run = await readSse(chat(q));
    t.deepEqual(shapeOf(run), ['start', 'delta', 'done'], q);
    t.like(run.events.at(-1)!.data, { text: NOTHING_FOUND, sources: [] }, q);
  }
});

test("a site whose GenAI is off answers one disabled event, or {enabled: false}; its settings are the genai plugin's", async (t) => {
  await createHandbook(vela, 'Quiet');
  const defaults = await json(vela, 'GET', '/api/sn/Quiet/genai');
  t.like(defaults.body, { site: 'Quiet', enabled: true, llmInstanceId: 'builtin', systemPrompt: '', custom: false });

  const searchOnly = await token(vela, ['search']);
  const refused = await json(
    vela,
    'PUT',
    '/api/sn/Quiet/genai',
    { enabled: false },
    { authorization: '', key: searchOnly },
  );
  t.is(refused.status, 403, 'changing settings needs the admin scope');
  t.like((await json(vela, 'GET', '/api/sn/Quiet/genai', undefined, { authorization: '', key: searchOnly })).body, {
    enabled: true,
  });

  const off = await json(vela, 'PUT', '/api/sn/Quiet/genai', { enabled: false, systemPrompt: 'Be brief.' });
  t.is(off.status, 200);
  t.like(off.body, { enabled: false, systemPrompt: 'Be brief.', custom: true, llmInstanceId: 'builtin' });

  const run = await readSse(vela.url('search', '/api/sn/Quiet/chat?q=ports'));
  t.deepEqual(shapeOf(run), ['disabled']);
  t.like(run.events[0]!.data, { enabled: false, site: 'Quiet' });
  const asJson = await json(vela, 'GET', '/api/sn/Quiet/chat?q=ports');
  t.like(asJson.body, { enabled: false, text: null, sources: [] });

  const badInstance = await json(vela, 'PUT', '/api/sn/Quiet/genai', { llmInstanceId: 'nope' });
  t.is(badInstance.status, 400);
  t.regex(badInstance.body.message, /llmInstanceId names no LLM instance/);
  t.like((await json(vela, 'DELETE', '/api/sn/Quiet/genai')).body, { enabled: true, custom: false });
  t.is((await json(vela, 'GET', '/api/sn/Nowhere/genai')).status, 404);
});

test('direct chat on the built-in instance answers from the conversation it is sent', async (t) => {
  const res = await json(
    vela,
    'POST',
    '/api/genai/chat',
    {
      stream: false,
      messages: [
        {
          role: 'system',
          content: 'Vela hosts plugins. The gateway listens on port 2702. Sites are searched over REST and GraphQL.',
        },
        { role: 'user', content: 'Which port does the gateway use?' },
      ],
    },
    { authorization: '' },
  );
  t.is(res.status, 200);
  t.like(res.body, { role: 'assistant', content: 'The gateway listens on port 2702.', instance: { id: 'builtin' } });

  const streamed = await readSse(vela.url('search', '/api/genai/chat'), {
    method: 'POST',
    body: { messages: [{ role: 'user', content: 'What is Vela?' }] },
  });
  t.deepEqual(shapeOf(streamed), ['start', 'delta', 'done']);
  t.regex(streamed.events.at(-1)!.data.text, /answers from documents/);

  // An anonymous chat is bounded in characters over all its messages; a Key or the administrator by a larger bound.
  const long = {
    stream: false,
    messages: [
      { role: 'system', content: 'The gateway listens on port 2702. '.repeat(500) },
      { role: 'user', content: 'Gateway port?' },
    ],
  };
  const tooLong = await json(vela, 'POST', '/api/genai/chat', long, { authorization: '' });
  t.is(tooLong.status, 413);
  t.is(tooLong.body.error, 'payload_too_large');
  t.regex(tooLong.body.message, /^the messages hold 17013 characters; an anonymous chat may send at most 16000 in all/);
  t.like((await json(vela, 'POST', '/api/genai/chat', long)).body, { content: 'The gateway listens on port 2702.' });
  const longer = {
    messages: [
      ...Array(7).fill({ role: 'system', content: 'p'.repeat(30_000) }),
      { role: 'user', content: 'Gateway port?' },
    ],
  };
  const adminTooLong = await json(vela, 'POST', '/api/genai/chat', longer);
  t.is(adminTooLong.status, 413);
  t.deepEqual(adminTooLong.body, {
    error: 'payload_too_large',
    message:
      'the messages hold 210013 characters; a chat may send at most 200000 in all (plugins.genai.directChat.maxChars)',
  });
  const keyTooLong = await json(vela, 'POST', '/api/v2/llm/builtin/chat', longer, {
    authorization: '',
    key: await token(vela, ['search']),
  });
  t.is(keyTooLong.status, 413);
  t.regex(keyTooLong.body.message, /plugins\.genai\.directChat\.maxChars/);

  const notLast = await json(vela, 'POST', '/api/genai/chat', { messages: [{ role: 'assistant', content: 'hi' }] });
  t.is(notLast.status, 400);
  const unknown = await json(vela, 'POST', '/api/genai/chat', {
    llmInstanceId: 'nope',
    messages: [{ role: 'user', content: 'hi' }],
  });
  t.is(unknown.status, 404);
  t.is(unknown.body.error, 'llm_instance_not_found');
});
