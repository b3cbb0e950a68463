import test from 'ava';
import { createParser } from 'eventsource-parser';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { eventually, type TestRuntime } from 'vela/testing';
import { type FakeLlm, startFakeLlm } from './fake-llm.js';
import { createHandbook, json, startGenai } from './fixtures.js';
import { readSse, type SseRequest, shapeOf, textOf } from './sse-client.js';

// The OpenAI-compatible provider against a local server that speaks the protocol (fake-llm.ts).

let fake: FakeLlm;
let vela: TestRuntime;

/** An instance of the fake server whose model picks the behaviour. */
async function instance(model: string, extra: Record<string, unknown> = {}): Promise<string> {
  const id = `fake-${model}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await json(vela, 'POST', '/api/llm', {
    id,
    title: `Fake ${model}`,
    vendor: 'OPENAI_COMPATIBLE',
    url: fake.url,
    modelName: model,
    ...extra,
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return id;
}

const requestsOf = (model: string) => fake.requests.filter((r) => r.model === model);
const chatUrl = (id: string) => vela.url('search', `/api/v2/llm/${id}/chat`);
const ask = (id: string, content = 'Say hello.', onEvent?: SseRequest['onEvent']) =>
  readSse(chatUrl(id), {
    method: 'POST',
    headers: { authorization: vela.adminAuth },
    body: { messages: [{ role: 'user', content }] },
    onEvent,
  });

test.before(async () => {
  fake = await startFakeLlm();
  vela = await startGenai({ allowHosts: [fake.host, '127.0.0.1:1'] });
  await createHandbook(vela);
});
test.after.always(async () => {
  await vela?.stop();
  await fake?.stop();
});

test("the server's chunks arrive as deltas, in order, and done carries the usage it reported", async (t) => {
  const id = await instance('echo', { apiKey: 'sk-test-0123456789abcd', temperature: 0.2, maxTokens: 64 });
  const run = await ask(id, 'Say hello with a key.');
  t.is(run.error, undefined);
  t.deepEqual(shapeOf(run), ['start', 'delta', 'done']);
  t.deepEqual(
    run.events.filter((e) => e.type === 'delta').map((e) => e.data.text),
    ['Hello', ' from', ' the', ' fake', ' model', '.'],
  );
  const done = run.events.at(-1)!.data;
  t.is(done.text, 'Hello from the fake model.');
  t.deepEqual(done.usage, { inputTokens: 11, outputTokens: 6, totalTokens: 17, reported: true });
  t.like(done.instance, { id, vendor: 'OPENAI_COMPATIBLE', model: 'echo' });

  const sent = requestsOf('echo').find((r) => r.body.messages[0].content === 'Say hello with a key.')!;
  t.is(sent.authorization, 'Bearer sk-test-0123456789abcd', 'the stored key is decrypted and sent');
  t.like(sent.body, {
    model: 'echo',
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0.2,
    max_tokens: 64,
  });
  t.deepEqual(sent.body.messages, [{ role: 'user', content: 'Say hello with a key.' }]);
});

test('stream: false answers one JSON message; a server that ignores stream: true is read as one completion', async (t) => {
  const echo = await instance('echo');
  const res = await json(vela, 'POST', `/api/v2/llm/${echo}/chat`, {
    stream: false,
    messages: [{ role: 'user', content: 'hi' }],
  });
  t.is(res.status, 200);
  t.like(res.body, {
    role: 'assistant',
    content: 'Hello from the fake model.',
    finishReason: 'stop',
    usage: { totalTokens: 17, reported: true },
  });

  const single = await instance('json');
  const run = await ask(single);
  t.deepEqual(shapeOf(run), ['start', 'delta', 'done']);
  t.like(run.events.at(-1)!.data, {
    text: 'One piece only.',
    usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
  });
});

test('anonymous direct chat may use only instances open to it; a Key or the administrator may use any', async (t) => {
  const id = await instance('echo');
  // Saying "hi" to the instance, as the administrator or (authorization '') anonymously.
  const hi = (headers: Record<string, string> = {}) =>
    json(
      vela,
      'POST',
      '/api/genai/chat',
      { llmInstanceId: id, stream: false, messages: [{ role: 'user', content: 'hi' }] },
      headers,
    );
  const anonymous = await hi({ authorization: '' });
  t.is(anonymous.status, 403);
  t.is(anonymous.body.error, 'llm_instance_not_public');
  const admin = await hi();
  t.is(admin.status, 200);
  await json(vela, 'PUT', `/api/llm/${id}`, { publicChat: true });
  const opened = await hi({ authorization: '' });
  t.is(opened.status, 200);
  t.is(opened.body.content, 'Hello from the fake model.');
  await json(vela, 'PUT', `/api/llm/${id}`, { enabled: false });
  const disabled = await hi();
  t.is(disabled.status, 409);
  t.is(disabled.body.error, 'llm_instance_disabled');
});

test('an error mid-stream becomes a failed event after the text so far, and the stream ends cleanly', async (t) => {
  for (const [model, message] of [
    ['error-mid', /failed mid-stream|closed the stream/],
    ['error-event', /reported an error mid-stream: model overloaded/],
  ] as const) {
    const id = await instance(model);
    const run = await ask(id);
    t.deepEqual(shapeOf(run), ['start', 'delta', 'failed'], model);
    t.is(textOf(run), 'Half an answer');
    t.is(run.events.at(-1)!.data.error, 'upstream_error');
    t.regex(run.events.at(-1)!.data.message, message);

    // Read raw: the answer is a complete HTTP response whose last event is `failed`.
    const raw = await fetch(chatUrl(id), {
      method: 'POST',
      headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }),
    });
    const names: string[] = [];
    const parser = createParser({ onEvent: (e) => names.push(e.event ?? 'message') });
    parser.feed(await raw.text());
    t.is(names.at(-1), 'failed', `${model}: ${names.join(',')}`);
  }
  const json502 = await json(vela, 'POST', `/api/v2/llm/${await instance('error-event')}/chat`, {
    stream: false,
    messages: [{ role: 'user', content: 'x' }],
  });
  t.is(json502.status, 502);
  t.is(json502.body.error, 'upstream_error');
});

test("an error answer from the server is a failed event with the server's message (502 as JSON)", async (t) => {
  const id = await instance('http-401', { apiKey: 'sk-wrong-000000000000' });
  const run = await ask(id);
  t.deepEqual(shapeOf(run), ['start', 'failed']);
  t.like(run.events[1]!.data, { error: 'upstream_error', message: 'the LLM server answered 401: invalid api key' });
  const res = await json(vela, 'POST', `/api/v2/llm/${id}/chat`, {
    stream: false,
    messages: [{ role: 'user', content: 'x' }],
  });
  t.is(res.status, 502);
  t.is(res.body.message, 'the LLM server answered 401: invalid api key');
});

test('the outbound guard: internal servers need the allowlist; a server that cannot be reached is a failed event naming it', async (t) => {
  for (const url of ['http://127.0.0.1:2/v1', 'http://localhost:3/v1', 'http://169.254.169.254/v1']) {
    const refused = await json(vela, 'POST', '/api/llm', { vendor: 'OLLAMA', url, modelName: 'llama3.2' });
    t.is(refused.status, 400, url);
    t.regex(
      refused.body.message,
      /^url is refused by the outbound address guard \((loopback|link-local|cloud metadata)[^)]*\).*runtime\.network\.allowHosts/,
      url,
    );
  }
  // 127.0.0.1:1 is on this runtime's allowlist, and nothing listens there.
  const closed = await json(vela, 'POST', '/api/llm', {
    vendor: 'OLLAMA',
    url: 'http://127.0.0.1:1/v1',
    modelName: 'llama3.2',
  });
  t.is(closed.status, 201);
  const run = await ask(closed.body.id);
  t.deepEqual(shapeOf(run), ['start', 'failed']);
  t.like(run.events[1]!.data, { error: 'upstream_error' });
  t.regex(run.events[1]!.data.message, /^cannot reach the LLM server at http:\/\/127\.0\.0\.1:1: /);

  const invalid = await readSse(chatUrl(closed.body.id), {
    method: 'POST',
    headers: { authorization: vela.adminAuth },
    body: { messages: [] },
  });
  t.is(invalid.error?.code, 400, 'a request that fails validation is refused before the stream opens');
  t.deepEqual(invalid.events, []);
});

test.serial('a client that disconnects cancels the generation upstream, and its slot comes free', async (t) => {
  const id = await instance('slow', { timeoutMs: 60_000, idleTimeoutMs: 10_000 });
  let deltas = 0;
  let closedAt = 0;
  const run = await ask(id, 'Count slowly.', (event, close) => {
    if (event.type === 'delta' && ++deltas === 3) {
      closedAt = Date.now();
      close();
    }
  });
  t.is(run.events.filter((e) => e.type === 'delta').length, 3);
  const upstream = requestsOf('slow').find((r) => r.body.messages[0].content === 'Count slowly.')!;
  await eventually(() => upstream.closedAt !== undefined, 'the fake server to see its client go', 5000);
  t.true(
    upstream.closedAt! - closedAt < 1000,
    `the upstream request ended ${upstream.closedAt! - closedAt} ms after the client left`,
  );
  const activeChats = async () =>
    (await json(vela, 'GET', '/health')).body.plugins.genai.checks.find(
      (c: { name: string }) => c.name === 'llm-instances',
    ).details.activeChats;
  await eventually(async () => (await activeChats()) === 0, 'the chat to end', 5000);
  t.is(await activeChats(), 0);
  // What was generated before the client left is recorded, counted (the server never sent its usage).
  await eventually(
    async () => (await vela.runtime.db('genai_token_usage').where({ instance_id: id })).length === 1,
    'the usage row',
  );
  const [row] = await vela.runtime.db('genai_token_usage').where({ instance_id: id });
  t.falsy(row.reported);
  t.true(Number(row.output_tokens) >= 3, `output tokens: ${row.output_tokens}`);
});

test('time limits: a silent server and a slow one end in failed upstream_timeout, and the request to them ends', async (t) => {
  const stall = await instance('stall', { idleTimeoutMs: 300 });
  const silent = await ask(stall, 'Are you there?');
  t.deepEqual(shapeOf(silent), ['start', 'delta', 'failed']);
  t.like(silent.events.at(-1)!.data, { error: 'upstream_timeout', message: 'the LLM server sent nothing for 300 ms' });
  const stalled = requestsOf('stall').find((r) => r.body.messages[0].content === 'Are you there?')!;
  await eventually(() => stalled.closedAt !== undefined, 'the stalled request to be cut', 3000);

  const slow = await instance('slow', { timeoutMs: 450, idleTimeoutMs: 5000 });
  const limited = await ask(slow, 'Take your time.');
  t.is(limited.events.at(-1)!.type, 'failed');
  t.like(limited.events.at(-1)!.data, {
    error: 'upstream_timeout',
    message: 'the answer took longer than the time limit of 450 ms',
  });
  t.true(limited.events.filter((e) => e.type === 'delta').length >= 3, 'the text before the limit was streamed');
});

test('past maxConcurrent an instance answers 503 with Retry-After; a freed slot takes the next chat', async (t) => {
  const id = await instance('slow', { maxConcurrent: 1, timeoutMs: 60_000 });
  let closeFirst: (() => void) | undefined;
  const first = ask(id, 'first', (event, close) => {
    if (event.type === 'delta') closeFirst = close;
  });
  await eventually(() => closeFirst !== undefined, 'the first chat to stream');
  const refused = await fetch(chatUrl(id), {
    method: 'POST',
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'second' }] }),
  });
  t.is(refused.status, 503);
  t.is(refused.headers.get('retry-after'), '5');
  t.like(await refused.json(), { error: 'service_unavailable' });
  t.false(
    requestsOf('slow').some((r) => r.body.messages[0].content === 'second'),
    'the refused chat never reached the server',
  );
  // A refusal any client can cause, as often as it likes: an info line, at most ten a minute, never an error.
  for (let i = 0; i < 14; i++)
    t.is(
      (
        await json(vela, 'POST', chatUrl(id).replace(vela.url('search'), ''), {
          messages: [{ role: 'user', content: 'more' }],
        })
      ).status,
      503,
    );
  const logged = vela.logs.filter((l) => String(l.path).includes(id));
  t.true(logged.length >= 1 && logged.length <= 10, `${logged.length} lines`);
  t.true(
    logged.every((l) => l.level === 30 && l.msg === 'request refused under load' && l.error === 'service_unavailable'),
    JSON.stringify(logged[0]),
  );
  closeFirst!();
  await first;
  t.is((await json(vela, 'PUT', `/api/llm/${id}`, { modelName: 'echo' })).status, 200);
  await eventually(
    async () =>
      (
        await json(vela, 'POST', `/api/v2/llm/${id}/chat`, {
          stream: false,
          messages: [{ role: 'user', content: 'third' }],
        })
      ).status === 200,
    'the slot to be free',
    5000,
  );
});

test('heartbeat comments keep an idle stream open', async (t) => {
  const id = await instance('stall', { idleTimeoutMs: 5000 });
  const controller = new AbortController();
  const res = await fetch(chatUrl(id), {
    method: 'POST',
    signal: controller.signal,
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'wait' }] }),
  });
  t.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  t.is(res.headers.get('cache-control'), 'no-cache, no-transform');
  const comments: string[] = [];
  const events: string[] = [];
  const parser = createParser({
    onEvent: (e) => events.push(e.event ?? 'message'),
    onComment: (c) => comments.push(c),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const until = Date.now() + 700;
  while (Date.now() < until) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  controller.abort();
  t.deepEqual(events, ['start', 'delta']);
  t.true(comments.filter((c) => c.trim() === 'ping').length >= 4, `pings in 700 ms at 100 ms: ${comments.length}`);
});

test("site chat with a model: the prompt holds the site's system prompt, the numbered sources and the question", async (t) => {
  const id = await instance('cite');
  const saved = await json(vela, 'PUT', '/api/sn/Handbook/genai', {
    llmInstanceId: id,
    systemPrompt: 'You are the {site} bot. Cite [n].',
  });
  t.is(saved.status, 200);
  t.teardown(() => json(vela, 'DELETE', '/api/sn/Handbook/genai').then(() => undefined));

  const run = await readSse(
    vela.url('search', `/api/sn/Handbook/chat?q=${encodeURIComponent('Which port does the connector listen on?')}`),
  );
  t.deepEqual(shapeOf(run), ['start', 'delta', 'done']);
  const done = run.events.at(-1)!.data;
  t.is(done.text, 'The answer is in Ports and services [1].');
  t.deepEqual(done.sources, [{ n: 1, id: 'ports', title: 'Ports and services', url: 'https://docs.example/ports' }]);
  t.deepEqual(done.usage, { inputTokens: 50, outputTokens: 9, totalTokens: 59, reported: true });

  const [system, user] = requestsOf('cite').at(-1)!.body.messages;
  t.deepEqual(system, { role: 'system', content: 'You are the Handbook bot. Cite [n].' });
  t.is(user.role, 'user');
  t.regex(
    user.content,
    /^Sources:\n\n\[1\] Ports and services \(https:\/\/docs\.example\/ports\)\nThe gateway listens on port 2702\./,
  );
  t.regex(user.content, /\n\nQuestion: Which port does the connector listen on\?$/);

  // The original's template: {question} and {information} make the whole prompt.
  await json(vela, 'PUT', '/api/sn/Handbook/genai', {
    systemPrompt: 'Question: {question}\nInformation:\n{information}',
  });
  await readSse(vela.url('search', '/api/sn/Handbook/chat?q=backup'));
  const [only, ...rest] = requestsOf('cite').at(-1)!.body.messages;
  t.deepEqual(rest, []);
  t.regex(only.content, /^Question: What is backup\?\nInformation:\n\[1\] Back up the server/);
});

test('usage the server does not report is counted with the tokenizer', async (t) => {
  const id = await instance('no-usage');
  const run = await ask(id, 'Count the tokens.');
  const done = run.events.at(-1)!.data;
  t.is(done.text, 'Counted by Vela.');
  t.false(done.usage.reported);
  t.is(done.usage.outputTokens, countTokens('Counted by Vela.'));
  t.is(done.usage.inputTokens, countTokens('user: Count the tokens.\n\n'));
  t.is(done.usage.totalTokens, done.usage.inputTokens + done.usage.outputTokens);
});

test('a stop ends the chats in flight with a failed event instead of waiting for them', async (t) => {
  const own = await startGenai({ allowHosts: [fake.host] });
  const created = await json(own, 'POST', '/api/llm', {
    id: 'slow-stop',
    vendor: 'OPENAI_COMPATIBLE',
    url: fake.url,
    modelName: 'slow',
    timeoutMs: 60_000,
  });
  t.is(created.status, 201);
  let stopping: Promise<void> | undefined;
  const run = await readSse(own.url('search', '/api/v2/llm/slow-stop/chat'), {
    method: 'POST',
    headers: { authorization: own.adminAuth },
    body: { messages: [{ role: 'user', content: 'until the stop' }] },
    onEvent: (event) => {
      if (event.type === 'delta' && !stopping) stopping = own.stop();
    },
  });
  await stopping;
  // The plugin's stop ended the chat with this event; a stop that waited for the chat would have had its
  // connection cut at the shutdown timeout, with no event.
  t.like(run.events.at(-1), {
    type: 'failed',
    data: { error: 'service_unavailable', message: 'the server is stopping' },
  });
  await eventually(
    () => requestsOf('slow').find((r) => r.body.messages[0].content === 'until the stop')?.closedAt !== undefined,
    'the upstream request to end',
  );
});
