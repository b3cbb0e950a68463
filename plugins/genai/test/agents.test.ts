import test from 'ava';
import { eventually, type TestRuntime } from 'vela/testing';
import { NOTHING_FOUND } from '../providers/extractive.js';
import { type FakeLlm, startFakeLlm } from './fake-llm.js';
import {
  createAgent,
  createFakeInstance,
  createHandbook,
  HANDBOOK,
  json,
  recordSearches,
  startGenai,
  token,
} from './fixtures.js';
import { readSse, shapeOf, textOf } from './sse-client.js';

let fake: FakeLlm;
let vela: TestRuntime;
let toolsInstance: string;
let searches: URLSearchParams[];

/** An agent on the Handbook whose instance is the fake model of that name (docs in fake-llm.ts). */
async function agentOn(model: string, agent: Record<string, unknown> = {}): Promise<{ id: string }> {
  await createFakeInstance(vela, fake.url, model, { id: `fake-${model}` });
  return createAgent(vela, model, `fake-${model}`, agent);
}

const agentChat = (
  agentId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = { authorization: vela.adminAuth },
) => readSse(vela.url('search', `/api/v2/llm/agent/${agentId}/chat`), { method: 'POST', headers, body });

test.before(async () => {
  fake = await startFakeLlm();
  vela = await startGenai({ allowHosts: [fake.host] });
  await createHandbook(vela);
  searches = recordSearches(vela);
  toolsInstance = (await createFakeInstance(vela, fake.url, 'tools', { id: 'fake-tools', title: 'Fake tools' })).id;
});
test.after.always(async () => {
  await vela?.stop();
  await fake?.stop();
});

test('agents: create, read, change, delete; what they name must exist; the admin scope manages them', async (t) => {
  const created = await json(vela, 'POST', '/api/v2/llm/agent', {
    name: 'Helper',
    instructions: 'Help.',
    llmInstanceId: toolsInstance,
    sites: ['handbook'],
  });
  t.is(created.status, 201);
  t.like(created.body, {
    name: 'Helper',
    instructions: 'Help.',
    llmInstanceId: toolsInstance,
    sites: ['Handbook'],
    tools: ['search_site', 'get_document'],
    maxSteps: 4,
    enabled: true,
  });
  const id = created.body.id as string;
  t.like((await json(vela, 'GET', `/api/v2/llm/agent/${id}`)).body, { id, name: 'Helper' });
  t.true((await json(vela, 'GET', '/api/v2/llm/agent')).body.some((a: { id: string }) => a.id === id));
  t.like((await json(vela, 'PUT', `/api/v2/llm/agent/${id}`, { maxSteps: 2, description: 'changed' })).body, {
    maxSteps: 2,
    description: 'changed',
    name: 'Helper',
  });

  const refusals = [
    [{ name: 'x', llmInstanceId: 'nope', sites: ['Handbook'] }, /llmInstanceId names no LLM instance/],
    [{ name: 'x', sites: ['Nowhere'] }, /sites names a site that does not exist/],
    [{ name: 'x', sites: [] }, /sites must name at least one site/],
    [{ name: 'x', tools: ['rm_rf'] }, /body\.tools\[0\] must be one of/],
    [{ name: '' }, /body\.name/],
  ] as const;
  for (const [body, message] of refusals) {
    const refused = await json(vela, 'POST', '/api/v2/llm/agent', body);
    t.is(refused.status, 400, JSON.stringify(body));
    t.regex(refused.body.message, message);
  }
  const inUse = await json(vela, 'DELETE', `/api/llm/${toolsInstance}`);
  t.is(inUse.status, 409);
  t.regex(inUse.body.message, /used by agent "Helper"/);

  const searchKey = await token(vela, ['search']);
  t.is(
    (
      await json(
        vela,
        'POST',
        '/api/v2/llm/agent',
        { name: 'y', sites: ['Handbook'] },
        { authorization: '', key: searchKey },
      )
    ).status,
    403,
  );
  const adminKey = await token(vela, ['admin']);
  t.is((await json(vela, 'GET', '/api/v2/llm/agent', undefined, { authorization: '', key: adminKey })).status, 200);

  await json(vela, 'PUT', `/api/v2/llm/agent/${id}`, { enabled: false });
  const disabled = await json(vela, 'POST', `/api/v2/llm/agent/${id}/chat`, { message: 'hello' });
  t.is(disabled.status, 409);
  t.is(disabled.body.error, 'agent_disabled');

  t.like((await json(vela, 'DELETE', `/api/v2/llm/agent/${id}`)).body, { deleted: true, id });
  const gone = await json(vela, 'GET', `/api/v2/llm/agent/${id}`);
  t.is(gone.status, 404);
  t.is(gone.body.error, 'agent_not_found');
});

test('chat with an unknown agent is 404 before any stream opens', async (t) => {
  const run = await agentChat('no-such-agent', { message: 'hello' });
  t.is(run.error?.code, 404);
  const res = await json(vela, 'POST', '/api/v2/llm/agent/no-such-agent/chat', { message: 'hello' });
  t.is(res.status, 404);
  t.is(res.body.error, 'agent_not_found');
  t.is(
    (await json(vela, 'POST', '/api/v2/llm/agent/no-such-agent/chat', { message: 'hello' }, { authorization: '' }))
      .status,
    401,
    'agent chat needs a Key',
  );
});

test('an agent with a model: tool_call and tool_result events, then the answer from what the tool found; usage summed over its calls', async (t) => {
  const agent = (
    await json(vela, 'POST', '/api/v2/llm/agent', {
      name: 'Ops',
      instructions: 'You answer operators.',
      llmInstanceId: toolsInstance,
      sites: ['Handbook'],
    })
  ).body;
  const run = await agentChat(agent.id, { message: 'How do I back up my data?' });
  t.is(run.error, undefined);
  t.deepEqual(shapeOf(run), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
  const [start, call, result] = run.events;
  t.like(start!.data, { agent: { id: agent.id, name: 'Ops' }, instance: { id: toolsInstance } });
  t.deepEqual(call!.data, { id: 'call_abc', name: 'search_site', arguments: { query: 'back up the data folder' } });
  t.is(result!.data.id, 'call_abc');
  t.is(result!.data.result.site, 'Handbook');
  t.like(result!.data.result.documents[0], {
    n: 1,
    id: 'backup',
    title: 'Back up the server',
    url: 'https://docs.example/backup',
  });

  const done = run.events.at(-1)!.data;
  t.is(done.text, 'Found it in Back up the server [1].');
  t.is(done.text, textOf(run));
  t.is(done.conversationId, start!.data.conversationId);
  t.deepEqual(done.sources, [{ n: 1, id: 'backup', title: 'Back up the server', url: 'https://docs.example/backup' }]);
  t.is(done.steps, 2);
  t.deepEqual(done.usage, { inputTokens: 60, outputTokens: 13, totalTokens: 73, reported: true });

  // The second call carried the tool call and its result back to the model.
  const calls = fake.requests.filter((r) =>
    r.body.messages.some((m: any) => m.content === 'How do I back up my data?'),
  );
  t.is(calls.length, 2);
  t.deepEqual(
    calls[0]!.body.tools.map((tool: any) => tool.function.name),
    ['search_site', 'get_document'],
  );
  t.is(calls[0]!.body.messages[0].role, 'system');
  t.regex(calls[0]!.body.messages[0].content, /^You answer operators\./);
  const [, , asked, answered] = calls[1]!.body.messages;
  t.like(asked, {
    role: 'assistant',
    tool_calls: [
      {
        id: 'call_abc',
        type: 'function',
        function: { name: 'search_site', arguments: '{"query":"back up the data folder"}' },
      },
    ],
  });
  t.like(answered, { role: 'tool', tool_call_id: 'call_abc' });
  t.is(JSON.parse(answered.content).documents[0].id, 'backup');
});

test('a conversation id keeps the history: the next message is sent with the earlier question and answer; it is the caller’s own', async (t) => {
  const agent = (
    await json(vela, 'POST', '/api/v2/llm/agent', { name: 'Memory', llmInstanceId: toolsInstance, sites: ['Handbook'] })
  ).body;
  const first = await agentChat(agent.id, { message: 'First question?' });
  const conversationId = first.events.at(-1)!.data.conversationId as string;
  const second = await agentChat(agent.id, { message: 'Second question?', conversationId });
  t.is(second.events[0]!.data.conversationId, conversationId);
  t.is(second.events.at(-1)!.type, 'done');

  const sent = fake.requests.find((r) => r.body.messages.at(-1)?.content === 'Second question?')!;
  t.deepEqual(
    sent.body.messages.map((m: any) => [m.role, m.content]),
    [
      ['system', sent.body.messages[0].content],
      ['user', 'First question?'],
      ['assistant', 'Found it in Back up the server [1].'],
      ['user', 'Second question?'],
    ],
  );

  const stored = await json(vela, 'GET', `/api/v2/llm/agent/${agent.id}/conversation/${conversationId}`);
  t.is(stored.status, 200);
  t.deepEqual(
    stored.body.messages.map((m: any) => m.role),
    ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant'],
  );
  t.is(stored.body.messages[1].toolCalls[0].name, 'search_site');

  // A token stands for the user who made it: one made by another user (alice) opens none of admin's conversations.
  const stranger = await token(vela, ['search']);
  await vela.runtime
    .db('search_api_tokens')
    .where({ token_hint: stranger.slice(0, 6) })
    .update({ created_by: 'alice' });
  await eventually(
    async () =>
      (await agentChat(agent.id, { message: 'Let me in', conversationId }, { key: stranger })).error?.code === 404,
    "the token to be read back as alice's",
    8000,
  );
  t.is(
    (
      await json(vela, 'GET', `/api/v2/llm/agent/${agent.id}/conversation/${conversationId}`, undefined, {
        authorization: '',
        key: stranger,
      })
    ).status,
    404,
  );
  const own = await agentChat(agent.id, { message: 'My own question' }, { key: stranger });
  t.is(own.events.at(-1)!.type, 'done', 'a search-scope key may chat with agents');
  const owner = await vela.runtime.db('genai_conversations').where({ id: own.events[0]!.data.conversationId }).first();
  t.is(owner.username, 'alice');
  t.is(
    (await json(vela, 'POST', `/api/v2/llm/agent/${agent.id}/chat`, { message: 'x', conversationId: 'nope' })).status,
    404,
  );
});

test('an agent on the built-in provider searches first, then answers from what it found', async (t) => {
  const agent = (
    await json(vela, 'POST', '/api/v2/llm/agent', { name: 'Offline', llmInstanceId: 'builtin', sites: ['Handbook'] })
  ).body;
  const run = await agentChat(agent.id, { message: 'Which port does the connector listen on?' });
  t.deepEqual(shapeOf(run), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
  t.deepEqual(run.events[1]!.data, {
    id: 'call_1',
    name: 'search_site',
    arguments: { query: 'Which port does the connector listen on?', site: 'Handbook' },
  });
  t.is(run.events[2]!.data.result.documents[0].id, 'ports');
  const done = run.events.at(-1)!.data;
  t.regex(done.text, /The connector listens on port 30130\. \[1\]/);
  t.deepEqual(done.sources[0], { n: 1, id: 'ports', title: 'Ports and services', url: 'https://docs.example/ports' });
  t.is(done.steps, 1);
  t.false(done.usage.reported);
});

test('get_document reads a stored document by id: every field, its number and link; the answer cites it', async (t) => {
  const agent = await agentOn('get-doc');
  const run = await agentChat(agent.id, { message: 'What does the backup page say?' });
  t.deepEqual(shapeOf(run), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
  t.deepEqual(run.events[1]!.data, { id: 'call_abc', name: 'get_document', arguments: { id: 'backup' } });
  const { result } = run.events[2]!.data;
  t.like(result, {
    site: 'Handbook',
    n: 1,
    id: 'backup',
    title: 'Back up the server',
    url: 'https://docs.example/backup',
  });
  t.like(result.fields, { id: 'backup', section: 'Operations', text: HANDBOOK.find((d) => d.id === 'backup')!.text });
  const done = run.events.at(-1)!.data;
  t.is(done.text, 'Read Back up the server [1].');
  t.deepEqual(done.sources, [{ n: 1, id: 'backup', title: 'Back up the server', url: 'https://docs.example/backup' }]);
});

test('search_site filters: field:value narrows the search; a filter the search refuses is the tool result {error}, and the chat goes on', async (t) => {
  const filtered = await agentChat((await agentOn('filter')).id, {
    message: 'Which setup page mentions the data folder?',
  });
  t.deepEqual(shapeOf(filtered), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
  t.deepEqual(filtered.events[1]!.data.arguments, { query: 'data folder', filters: ['section:Setup'] });
  const ids = filtered.events[2]!.data.result.documents.map((d: { id: string }) => d.id);
  t.deepEqual(ids, ['install-docker'], 'backup mentions the data folder too, but is in Operations');
  t.is(filtered.events.at(-1)!.data.text, 'Setup: install-docker.');

  const refused = await agentChat((await agentOn('bad-filter')).id, { message: 'Ports?' });
  t.deepEqual(shapeOf(refused), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
  const { result } = refused.events[2]!.data;
  t.deepEqual(Object.keys(result), ['error']);
  t.regex(result.error, /fq\[\] must be field:value, got "Setup"/);
  const done = refused.events.at(-1)!.data;
  t.is(done.text, `The search said: ${result.error}`, 'the model read the error and answered');
  t.is(done.steps, 2);
  t.deepEqual(done.sources, []);
});

test('search_site takes semantic (keyword, hybrid, vector; default hybrid) and passes it to the search; another value is the tool result {error}', async (t) => {
  const keyword = await agentChat((await agentOn('keyword')).id, { message: 'How do I restore?' });
  t.deepEqual(shapeOf(keyword), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
  const spec = fake.requests.find((r) => r.model === 'keyword')!.body.tools;
  t.deepEqual(spec.find((s: any) => s.function.name === 'search_site').function.parameters.properties.semantic.enum, [
    'keyword',
    'hybrid',
    'vector',
  ]);
  t.like(keyword.events[1]!.data.arguments, { semantic: 'keyword' });
  const asked = searches.filter((q) => q.get('q') === 'restore backup');
  t.true(asked.length > 0);
  t.false(asked[0]!.has('semantic'), 'keyword is the search without the parameter');

  const refused = await agentChat((await agentOn('bad-semantic')).id, { message: 'Ports?' });
  const { result } = refused.events[2]!.data;
  t.deepEqual(Object.keys(result), ['error']);
  t.regex(result.error, /semantic must be one of keyword, hybrid, vector, got "sideways"/);
  t.is(refused.events.at(-1)!.data.text, `The search said: ${result.error}`);

  const offline = (
    await json(vela, 'POST', '/api/v2/llm/agent', {
      name: 'Offline too',
      llmInstanceId: 'builtin',
      sites: ['Handbook'],
    })
  ).body;
  await agentChat(offline.id, { message: 'Where do PostgreSQL databases go?' });
  t.like(Object.fromEntries(searches.find((q) => q.get('q') === 'postgresql databases go') ?? []), {
    semantic: 'hybrid',
  });
});

test('the texts of two model calls are joined with a blank line, in the deltas as in done.text; the history keeps the final one', async (t) => {
  const agent = await agentOn('chatty');
  const run = await agentChat(agent.id, { message: 'Where is the backup guide?' });
  t.deepEqual(shapeOf(run), ['start', 'delta', 'tool_call', 'tool_result', 'delta', 'done']);
  const done = run.events.at(-1)!.data;
  t.is(done.text, 'Let me search.\n\nFound it in Back up the server [1].');
  t.is(textOf(run), done.text);
  const stored = await json(vela, 'GET', `/api/v2/llm/agent/${agent.id}/conversation/${done.conversationId}`);
  t.deepEqual(
    stored.body.messages.map((m: { role: string; content: string | null }) => [
      m.role,
      m.role === 'tool' ? '(result)' : m.content,
    ]),
    [
      ['user', 'Where is the backup guide?'],
      ['assistant', 'Let me search.'],
      ['tool', '(result)'],
      ['assistant', 'Found it in Back up the server [1].'],
    ],
  );
});

test('when maxSteps runs out while the model still calls tools, one last call without tools makes it answer', async (t) => {
  const agent = await agentOn('loop', { maxSteps: 2 });
  const run = await agentChat(agent.id, { message: 'Loop until you must stop' });
  t.deepEqual(shapeOf(run), ['start', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'delta', 'done']);
  const done = run.events.at(-1)!.data;
  t.is(done.text, 'Out of steps: Back up the server [1].');
  t.like(done, { steps: 3, finishReason: 'stop' });
  t.deepEqual(done.usage, { inputTokens: 80, outputTokens: 18, totalTokens: 98, reported: true });
  const calls = fake.requests.filter(
    (r) => r.model === 'loop' && r.body.messages.some((m: any) => m.content === 'Loop until you must stop'),
  );
  t.deepEqual(
    calls.map((r) => (r.body.tools ?? []).length),
    [2, 2, 0],
    'the last call offers no tools',
  );
});

test('a model that calls tools even when none are offered still ends with text: the built-in answer from what its tools found', async (t) => {
  const agent = await agentOn('stubborn', { maxSteps: 1 });
  const run = await agentChat(agent.id, { message: 'How do I back up the data folder?' });
  t.deepEqual(
    shapeOf(run),
    ['start', 'tool_call', 'tool_result', 'delta', 'done'],
    'the tool call of the last call is not run',
  );
  const done = run.events.at(-1)!.data;
  t.is(done.text, textOf(run));
  t.regex(done.text, /^Copy the data folder to another disk\. .*\[1\]$/);
  t.like(done, { steps: 2, finishReason: 'max_steps' });
  t.is(done.sources[0].id, 'backup');
});

test('an agent on the built-in provider asked something without a content word searches nothing and says it found nothing', async (t) => {
  const agent = (
    await json(vela, 'POST', '/api/v2/llm/agent', { name: 'Blank', llmInstanceId: 'builtin', sites: ['Handbook'] })
  ).body;
  for (const message of ['the the the', '???']) {
    const run = await agentChat(agent.id, { message });
    t.deepEqual(shapeOf(run), ['start', 'delta', 'done'], message);
    t.like(run.events.at(-1)!.data, { text: NOTHING_FOUND, sources: [] });
  }
});
