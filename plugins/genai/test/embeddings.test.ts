import anyTest, { type TestFn } from 'ava';
import type { VelaError } from 'vela/plugin';
import type { TestRuntime } from 'vela/testing';
import type { GenaiEmbeddings } from '../api.js';
import { batchesOf } from '../providers/embedder.js';
import { AZURE_API_VERSION } from '../providers/embedding-protocols.js';
import { UpstreamError } from '../providers/provider.js';
import { retryAfterMs, withRetries } from '../providers/retry.js';
import { type FakeEmbeddings, startFakeEmbeddings, vectorOf } from './fake-embeddings.js';
import { json, startGenai } from './fixtures.js';

const test = anyTest as TestFn<{ vela: TestRuntime; fake: FakeEmbeddings }>;
const KEY = 'sk-embed-abcdefghijklmnop9876';

test.before(async (t) => {
  const fake = await startFakeEmbeddings();
  const vela = await startGenai({ allowHosts: [fake.host] });
  t.context = { vela, fake };
});

test.after.always(async (t) => {
  await t.context.vela?.stop();
  await t.context.fake?.stop();
});

/** An instance made of `fields`, with the API key; 201 checked. */
async function instance(t: Context, fields: Record<string, unknown>) {
  const created = await json(t.context.vela, 'POST', '/api/llm', { apiKey: KEY, ...fields });
  if (created.status !== 201) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

type Context = { context: { vela: TestRuntime; fake: FakeEmbeddings } };

/** An OPENAI_COMPATIBLE instance `id` on the fake's /v1, its embeddings by `embeddingModel`. */
const openAi = (t: Context, id: string, embeddingModel: string, extra: Record<string, unknown> = {}) =>
  instance(t, {
    id,
    vendor: 'OPENAI_COMPATIBLE',
    url: `${t.context.fake.origin}/v1`,
    modelName: 'chat',
    embeddingModel,
    ...extra,
  });

const embed = (vela: TestRuntime, id: string, input: unknown) =>
  json(vela, 'POST', `/api/v2/llm/instance/${id}/embeddings`, { input });

const texts = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}${'x'.repeat(i % 7)}`);
const requestsOf = (fake: FakeEmbeddings, model: string) => fake.requests.filter((r) => r.model === model);

test.serial('OpenAI-compatible: 150 texts in 3 requests of at most 64, the order kept, usage recorded', async (t) => {
  const { vela, fake } = t.context;
  await openAi(t, 'oa', 'oa-embed');
  const input = texts(150);
  const answer = await embed(vela, 'oa', input);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.deepEqual(
    answer.body.vectors,
    input.map((text) => vectorOf(text)),
  );
  t.like(answer.body, { model: 'oa-embed', dimensions: 3, usage: { inputTokens: 150, reported: true } });
  const sent = requestsOf(fake, 'oa-embed');
  t.deepEqual(
    sent.map((r) => r.texts.length),
    [64, 64, 22],
  );
  t.is(sent[0]!.headers.authorization, `Bearer ${KEY}`);
  const usage = await vela.runtime.db('genai_token_usage').where({ instance_id: 'oa', endpoint: 'embeddings' });
  t.is(usage.length, 1);
  t.like(usage[0], { model_name: 'oa-embed', vendor_id: 'OPENAI_COMPATIBLE' });
  t.is(Number(usage[0].input_tokens), 150);
  t.false(JSON.stringify(answer.body).includes(KEY));
});

test.serial('a batch size and a character bound of the instance cut the requests', async (t) => {
  const { vela, fake } = t.context;
  await openAi(t, 'small', 'small-embed', { embeddingBatchSize: 4, embeddingMaxChars: 1000 });
  const input = ['a'.repeat(600), 'b'.repeat(600), 'c', 'd', 'e', 'f', 'g'];
  const answer = await embed(vela, 'small', input);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.deepEqual(
    answer.body.vectors,
    input.map((text) => vectorOf(text)),
  );
  t.deepEqual(
    requestsOf(fake, 'small-embed').map((r) => r.texts.length),
    [1, 4, 2],
  );
  t.deepEqual(batchesOf(['aa', 'bb', 'cc'], 2, 3), [['aa'], ['bb'], ['cc']]);
});

test.serial('Ollama: the native /api/embed beside the /v1 URL; prompt_eval_count is the usage', async (t) => {
  const { vela, fake } = t.context;
  await instance(t, {
    id: 'ol',
    vendor: 'OLLAMA',
    url: `${fake.origin}/v1`,
    modelName: 'llama',
    embeddingModel: 'ol-e',
  });
  const answer = await embed(vela, 'ol', ['one', 'two']);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.deepEqual(answer.body.vectors, [vectorOf('one'), vectorOf('two')]);
  t.like(answer.body.usage, { inputTokens: 2, reported: true });
  t.is(requestsOf(fake, 'ol-e')[0]!.path, '/api/embed');
});

test.serial('Azure OpenAI: the deployment in the path, api-version, the api-key header; chat refused', async (t) => {
  const { vela, fake } = t.context;
  const made = await instance(t, { id: 'az', vendor: 'AZURE_OPENAI', url: fake.origin, embeddingModel: 'my deploy' });
  t.is(made.modelName, null);
  const answer = await embed(vela, 'az', ['hello']);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.deepEqual(answer.body.vectors, [vectorOf('hello')]);
  const [sent] = requestsOf(fake, 'my deploy');
  t.is(sent!.path, `/openai/deployments/my%20deploy/embeddings?api-version=${AZURE_API_VERSION}`);
  t.is(sent!.headers['api-key'], KEY);
  t.is(sent!.headers.authorization, undefined);
  const chat = await json(vela, 'POST', '/api/v2/llm/az/chat', {
    messages: [{ role: 'user', content: 'hi' }],
    stream: false,
  });
  t.is(chat.status, 400);
  t.like(chat.body, { error: 'chat_not_supported' });
  const incomplete = await json(vela, 'POST', '/api/llm', { vendor: 'AZURE_OPENAI', url: fake.origin });
  t.is(incomplete.status, 400);
  t.regex(incomplete.body.message, /embeddingModel/);
});

test.serial('Gemini: batchEmbedContents with models/<model> and x-goog-api-key; usage counted here', async (t) => {
  const { vela, fake } = t.context;
  await instance(t, { id: 'gm', vendor: 'GEMINI', url: `${fake.origin}/v1beta`, embeddingModel: 'gem-embed' });
  const answer = await embed(vela, 'gm', ['first text', 'second text']);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.deepEqual(answer.body.vectors, [vectorOf('first text'), vectorOf('second text')]);
  t.like(answer.body.usage, { reported: false, outputTokens: 0 });
  t.true(answer.body.usage.inputTokens > 0);
  const [sent] = requestsOf(fake, 'gem-embed');
  t.is(sent!.path, '/v1beta/models/gem-embed:batchEmbedContents');
  t.is(sent!.headers['x-goog-api-key'], KEY);
  const row = await vela.runtime.db('genai_token_usage').where({ instance_id: 'gm' }).first();
  t.false(Boolean(row.reported));
});

test.serial('a 429 with Retry-After is waited out and retried', async (t) => {
  const { vela, fake } = t.context;
  await openAi(t, 'rl', 'rate-limited', { vendor: 'OPENAI' });
  const answer = await embed(vela, 'rl', ['again']);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.is(requestsOf(fake, 'rate-limited').length, 2);
});

test.serial('5xx until the attempts run out: 502 with the server message, no secret', async (t) => {
  const { vela, fake } = t.context;
  await openAi(t, 'br', 'broken', { vendor: 'OPENAI' });
  const answer = await embed(vela, 'br', ['x']);
  t.is(answer.status, 502);
  t.like(answer.body, { error: 'upstream_error' });
  t.regex(answer.body.message, /503: overloaded/);
  t.false(JSON.stringify(answer.body).includes(KEY));
  t.is(requestsOf(fake, 'broken').length, 4);
});

test.serial('a server that changes the dimension is an error naming the instance', async (t) => {
  const { vela } = t.context;
  await openAi(t, 'sh', 'shifty', { vendor: 'OPENAI', title: 'Shifty', embeddingBatchSize: 2 });
  const answer = await embed(vela, 'sh', ['a', 'b', 'c']);
  t.is(answer.status, 502);
  t.regex(answer.body.message, /LLM instance "Shifty" \(sh\) changed the embedding dimension from 3 to 4/);
});

test.serial('the dimension is remembered from one call to the next, until the instance changes', async (t) => {
  const { vela } = t.context;
  await openAi(t, 'sh2', 'shifty-calls');
  t.like((await embed(vela, 'sh2', ['a'])).body, { dimensions: 3 });
  const changed = await embed(vela, 'sh2', ['b']);
  t.is(changed.status, 502);
  t.regex(changed.body.message, /\(sh2\) changed the embedding dimension from 3 to 4/);
  t.is((await json(vela, 'PUT', '/api/llm/sh2', { embeddingModel: 'shifty-calls' })).status, 200);
  t.like((await embed(vela, 'sh2', ['c'])).body, { dimensions: 4 });
});

test.serial('the route validates its body and the instance', async (t) => {
  const { vela } = t.context;
  for (const body of [{}, { input: [] }, { input: [''] }, { input: [1] }, { input: 'text' }]) {
    const answer = await json(vela, 'POST', '/api/v2/llm/instance/oa/embeddings', body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(typeof answer.body.message, 'string');
  }
  t.is((await embed(vela, 'oa', texts(513))).status, 400);
  t.is((await embed(vela, 'oa', ['y'.repeat(32_001)])).status, 400);
  t.is((await embed(vela, 'nobody', ['a'])).status, 404);
  const builtin = await embed(vela, 'builtin', ['a']);
  t.is(builtin.status, 409);
  t.like(builtin.body, { error: 'embeddings_not_offered' });
  const bounds = await json(vela, 'PUT', '/api/llm/oa', { embeddingBatchSize: 0 });
  t.is(bounds.status, 400);
  const anonymous = await vela.fetch('search', '/api/v2/llm/instance/oa/embeddings', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: ['a'] }),
  });
  t.is(anonymous.status, 401);
});

test.serial('the genai.embeddings service: the instances that offer embeddings, and their vectors', async (t) => {
  const { vela, fake } = t.context;
  const service = vela.runtime.container.resolve<GenaiEmbeddings>('genai.embeddings');
  await openAi(t, 'svc', 'svc-embed', { title: 'Service model', embeddingBatchSize: 2 });
  await openAi(t, 'svc-off', 'svc-off-embed', { enabled: false });
  await openAi(t, 'svc-none', 'unused', { embeddingModel: null });
  const offered = service.instances();
  t.deepEqual(
    offered.find((i) => i.id === 'svc'),
    { id: 'svc', title: 'Service model', vendor: 'OPENAI_COMPATIBLE', model: 'svc-embed', enabled: true },
  );
  t.like(
    offered.find((i) => i.id === 'svc-off'),
    { enabled: false },
  );
  t.false(
    offered.some((i) => i.id === 'svc-none' || i.id === 'builtin'),
    'an instance without embeddingModel offers none',
  );

  const input = ['alpha', 'beta', 'gamma'];
  const embedded = await service.embed('svc', input, { username: 'semantic' });
  t.deepEqual(embedded, { model: 'svc-embed', dimensions: 3, vectors: input.map((text) => vectorOf(text)) });
  t.deepEqual(
    requestsOf(fake, 'svc-embed').map((r) => r.texts.length),
    [2, 1],
    'batched by the instance',
  );
  const usage = await vela.runtime.db('genai_token_usage').where({ instance_id: 'svc', endpoint: 'embeddings' });
  t.is(usage.length, 1);
  t.like(usage[0], { username: 'semantic' });
  t.deepEqual(await service.embed('svc', [], { username: 'semantic' }), {
    model: 'svc-embed',
    dimensions: 3,
    vectors: [],
  });
  t.is(requestsOf(fake, 'svc-embed').length, 2, 'an empty list asks the server nothing');

  const refused = async (id: string) =>
    (await t.throwsAsync<VelaError>(service.embed(id, ['x'], { username: 'semantic' })))!;
  t.like(await refused('nobody'), { code: 'llm_instance_not_found', status: 404 });
  t.like(await refused('svc-none'), { code: 'embeddings_not_offered', status: 409 });
  t.like(await refused('svc-off'), { code: 'llm_instance_disabled', status: 409 });
  t.like(await refused('builtin'), { code: 'embeddings_not_offered', status: 409 });
  await openAi(t, 'svc-broken', 'broken', { vendor: 'OPENAI' });
  t.like(await refused('svc-broken'), { code: 'upstream_error', status: 502 });
});

test.serial('the genai.embeddings service: an aborted signal ends the call with its reason', async (t) => {
  const { vela } = t.context;
  const service = vela.runtime.container.resolve<GenaiEmbeddings>('genai.embeddings');
  const signal = AbortSignal.abort(new Error('the job stopped'));
  await t.throwsAsync(service.embed('svc', ['late'], { username: 'semantic', signal }), { message: 'the job stopped' });
});

test('Retry-After as seconds or an HTTP date', (t) => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  t.is(retryAfterMs('3', now), 3000);
  t.is(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
  t.is(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
  t.is(retryAfterMs('soon', now), null);
  t.is(retryAfterMs(null, now), null);
});

test('an abort ends the wait for a retry with its reason; a 4xx is not retried', async (t) => {
  const controller = new AbortController();
  let calls = 0;
  const limited = withRetries(
    async () => {
      calls++;
      if (calls === 1) setImmediate(() => controller.abort(new Error('caller left')));
      throw new UpstreamError('slow down', 429, '60');
    },
    { attempts: 3, baseDelayMs: 10, maxDelayMs: 120_000 },
    controller.signal,
  );
  await t.throwsAsync(limited, { message: 'caller left' });
  t.is(calls, 1);
  let refused = 0;
  const run = async () => {
    refused++;
    throw new UpstreamError('bad key', 401);
  };
  await t.throwsAsync(withRetries(run, { attempts: 3, baseDelayMs: 1, maxDelayMs: 10 }, new AbortController().signal));
  t.is(refused, 1);
});
