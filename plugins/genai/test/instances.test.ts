import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parseSecretKey, SecretBox } from 'vela/plugin';
import { startTestRuntime, type TestRuntime, testFolder } from 'vela/testing';
import { startFakeLlm } from './fake-llm.js';
import { json, startGenai, token } from './fixtures.js';
import { readSse } from './sse-client.js';

const KEY = 'sk-live-abcdefghijklmnop1234';

/**
 * A runtime that may reach a local Ollama, stopped when the test ends, with an OLLAMA instance keyed with KEY made
 * of `fields`: the runtime and the creation's answer.
 */
async function withKeyedOllama(
  t: ExecutionContext,
  fields: Record<string, unknown>,
): Promise<{ vela: TestRuntime; created: Awaited<ReturnType<typeof json>> }> {
  const vela = await startGenai({ allowHosts: ['127.0.0.1:11434'] });
  t.teardown(() => vela.stop());
  const created = await json(vela, 'POST', '/api/llm', { vendor: 'OLLAMA', apiKey: KEY, ...fields });
  t.is(created.status, 201, JSON.stringify(created.body));
  return { vela, created };
}

async function instanceRow(
  vela: TestRuntime,
  id: string,
): Promise<{ api_key_encrypted: string | null; api_key_hint: string | null }> {
  return vela.runtime.db('genai_llm_instances').where({ id }).first();
}

test('vendors and the empty structure', async (t) => {
  const vela = await startGenai();
  t.teardown(() => vela.stop());
  const vendors = (await json(vela, 'GET', '/api/llm/vendor')).body as Array<{
    id: string;
    kind: string;
    defaultUrl: string | null;
  }>;
  t.deepEqual(
    vendors.map((v) => v.id),
    [
      'BUILTIN',
      'OPENAI',
      'OLLAMA',
      'VLLM',
      'LLAMA_CPP',
      'GEMINI_OPENAI',
      'OPENAI_COMPATIBLE',
      'AZURE_OPENAI',
      'GEMINI',
    ],
  );
  t.like(
    vendors.find((v) => v.id === 'OLLAMA'),
    { kind: 'openai-compatible', defaultUrl: 'http://127.0.0.1:11434/v1' },
  );
  t.like((await json(vela, 'GET', '/api/llm/structure')).body, {
    id: null,
    vendor: 'OPENAI_COMPATIBLE',
    hasApiKey: false,
    timeoutMs: 120000,
    maxConcurrent: 4,
  });
  const list = (await json(vela, 'GET', '/api/llm')).body;
  t.deepEqual(
    list.map((i: { id: string }) => i.id),
    ['builtin'],
    'a fresh install has the built-in instance only',
  );
});

test('an API key is stored encrypted, never answered, shown as a hint; PUT keeps, replaces or removes it', async (t) => {
  const { vela, created } = await withKeyedOllama(t, { title: 'Local Ollama', modelName: 'llama3.2' });
  const id = created.body.id as string;
  t.like(created.body, {
    url: 'http://127.0.0.1:11434/v1',
    hasApiKey: true,
    apiKeyHint: '…1234',
    enabled: true,
    publicChat: false,
  });
  t.false('apiKey' in created.body);
  for (const read of [await json(vela, 'GET', `/api/llm/${id}`), await json(vela, 'GET', '/api/llm')]) {
    t.false(JSON.stringify(read.body).includes(KEY));
    t.false(JSON.stringify(read.body).includes('apiKeyEncrypted'));
  }

  const row = await instanceRow(vela, id);
  t.regex(row.api_key_encrypted!, /^v1:[A-Za-z0-9+/]+=*$/);
  t.false(row.api_key_encrypted!.includes(KEY));
  const keyFile = path.join(vela.dataDir, 'genai', 'secret.key');
  t.true(existsSync(keyFile), 'the key was made in the data folder');
  t.is((await import('node:fs')).statSync(keyFile).mode & 0o777, 0o600);
  const box = SecretBox.withKey(parseSecretKey(readFileSync(keyFile, 'utf8'))!);
  t.is(box.decrypt(row.api_key_encrypted!, id), KEY, 'AES-256-GCM with the data folder key, bound to the instance id');
  t.is(box.decrypt(row.api_key_encrypted!, 'another-id'), null);

  t.like((await json(vela, 'PUT', `/api/llm/${id}`, { title: 'Renamed' })).body, {
    title: 'Renamed',
    hasApiKey: true,
    apiKeyHint: '…1234',
  });
  t.is((await instanceRow(vela, id)).api_key_encrypted, row.api_key_encrypted, 'a PUT without apiKey keeps the key');
  t.like((await json(vela, 'PUT', `/api/llm/${id}`, { apiKey: 'sk-other-0000000000009876' })).body, {
    hasApiKey: true,
    apiKeyHint: '…9876',
  });
  t.like((await json(vela, 'PUT', `/api/llm/${id}`, { apiKey: null })).body, { hasApiKey: false, apiKeyHint: null });
  t.like(await instanceRow(vela, id), { api_key_encrypted: null, api_key_hint: null });
});

test('the key survives a restart; a ciphertext moved to another instance does not decrypt there', async (t) => {
  const fake = await startFakeLlm();
  const dataDir = testFolder(t, 'genai-keys');
  t.teardown(() => fake.stop());
  const config = { runtime: { network: { allowHosts: [fake.host] } } };
  const first = await startTestRuntime({ plugins: ['search', 'genai'], dataDir, config });
  await json(first, 'POST', '/api/llm', {
    id: 'keyed',
    vendor: 'OPENAI_COMPATIBLE',
    url: fake.url,
    modelName: 'echo',
    apiKey: KEY,
  });
  await json(first, 'POST', '/api/llm', { id: 'other', vendor: 'OPENAI_COMPATIBLE', url: fake.url, modelName: 'echo' });
  const sealed = (await instanceRow(first, 'keyed')).api_key_encrypted;
  await first.runtime
    .db('genai_llm_instances')
    .where({ id: 'other' })
    .update({ api_key_encrypted: sealed, api_key_hint: '…1234' });
  await first.stop();

  const second = await startTestRuntime({ plugins: ['search', 'genai'], dataDir, config });
  t.teardown(() => second.stop());
  const keyed = await json(second, 'POST', '/api/v2/llm/keyed/chat', {
    stream: false,
    messages: [{ role: 'user', content: 'after restart' }],
  });
  t.is(keyed.status, 200);
  t.is(fake.requests.find((r) => r.body.messages[0].content === 'after restart')?.authorization, `Bearer ${KEY}`);
  const moved = await readSse(second.url('search', '/api/v2/llm/other/chat'), {
    method: 'POST',
    headers: { authorization: second.adminAuth },
    body: { messages: [{ role: 'user', content: 'moved' }] },
  });
  t.like(moved.events.at(-1)?.data, { error: 'api_key_unreadable' });
  t.false(fake.requests.some((r) => r.body.messages[0].content === 'moved'));
});

test.serial('VELA_GENAI_KEY, when set, is the key: no key file is written', async (t) => {
  const key = Buffer.alloc(32, 7);
  process.env.VELA_GENAI_KEY = key.toString('base64');
  t.teardown(() => {
    delete process.env.VELA_GENAI_KEY;
  });
  const { vela } = await withKeyedOllama(t, { id: 'env-keyed', modelName: 'qwen2.5' });
  t.false(existsSync(path.join(vela.dataDir, 'genai', 'secret.key')));
  t.is(SecretBox.withKey(key).decrypt((await instanceRow(vela, 'env-keyed')).api_key_encrypted!, 'env-keyed'), KEY);
});

test('instances are checked when saved; deletion keeps the built-in one and those in use; the admin scope manages them', async (t) => {
  const vela = await startGenai();
  t.teardown(() => vela.stop());
  const refusals = [
    [{ vendor: 'SKYNET' }, /body\.vendor must be one of/],
    [{ vendor: 'OPENAI' }, /modelName is required for vendor OPENAI/],
    [{ vendor: 'OPENAI_COMPATIBLE', modelName: 'x' }, /url is required for vendor OPENAI_COMPATIBLE/],
    [{ vendor: 'OPENAI', modelName: 'x', url: 'ftp://files.example/v1' }, /body\.url must match/],
    [{ vendor: 'OPENAI', modelName: 'x', temperature: 3 }, /body\.temperature must be at most 2/],
    [{ vendor: 'OPENAI', modelName: 'x', apiKey: 42 }, /body\.apiKey/],
    // Credentials in the URL would be stored in the clear and answered: the key goes in apiKey.
    [
      { vendor: 'OPENAI_COMPATIBLE', modelName: 'x', url: `https://user:${KEY}@llm.example/v1` },
      /^url must not hold credentials/,
    ],
    [
      { vendor: 'OPENAI_COMPATIBLE', modelName: 'x', url: `https://llm.example/v1?api_key=${KEY}` },
      /^url must not hold credentials/,
    ],
  ] as const;
  for (const [body, message] of refusals) {
    const res = await json(vela, 'POST', '/api/llm', body);
    t.is(res.status, 400, JSON.stringify(body));
    t.regex(res.body.message, message);
    t.false(JSON.stringify(res.body).includes(KEY), 'a refusal does not echo the key');
  }
  // A public host that does not resolve here (no network) is kept: the server may be reachable later.
  const openai = await json(vela, 'POST', '/api/llm', {
    id: 'gpt',
    vendor: 'OPENAI',
    modelName: 'gpt-4o-mini',
    apiKey: KEY,
  });
  t.is(openai.status, 201);
  t.is(openai.body.url, 'https://api.openai.com/v1');
  t.is((await json(vela, 'POST', '/api/llm', { id: 'gpt', vendor: 'OPENAI', modelName: 'x' })).status, 409);

  t.like((await json(vela, 'DELETE', '/api/llm/builtin')).body, { error: 'builtin_instance' });
  t.is((await json(vela, 'PUT', '/api/llm/builtin', { vendor: 'OPENAI' })).status, 400);
  t.like((await json(vela, 'PUT', '/api/llm/builtin', { title: 'Extractive' })).body, {
    title: 'Extractive',
    vendor: 'BUILTIN',
    url: null,
  });

  const site = await json(vela, 'POST', '/api/sn', {
    name: 'Uses',
    locales: ['en_US'],
    fields: [{ name: 'title', type: 'TEXT' }],
  });
  t.is(site.status, 201);
  await json(vela, 'PUT', '/api/sn/Uses/genai', { llmInstanceId: 'gpt' });
  const inUse = await json(vela, 'DELETE', '/api/llm/gpt');
  t.is(inUse.status, 409);
  t.is(inUse.body.message, 'LLM instance "gpt" is used by site "Uses"');
  await json(vela, 'DELETE', '/api/sn/Uses/genai');
  t.like((await json(vela, 'DELETE', '/api/llm/gpt')).body, { deleted: true, id: 'gpt' });
  t.is((await json(vela, 'GET', '/api/llm/gpt')).status, 404);

  const searchKey = await token(vela, ['search']);
  const refused = await json(vela, 'GET', '/api/llm', undefined, { authorization: '', key: searchKey });
  t.is(refused.status, 403);
  t.is(refused.body.error, 'insufficient_scope');
  t.is((await json(vela, 'GET', '/api/llm', undefined, { authorization: '' })).status, 401);
  const adminKey = await token(vela, ['admin']);
  t.is((await json(vela, 'GET', '/api/llm', undefined, { authorization: '', key: adminKey })).status, 200);
});

test('a deleted site does not hold on to its LLM instance: its settings are pruned, then and at the next start', async (t) => {
  const dataDir = testFolder(t, 'genai-prune');
  const config = { runtime: { network: { allowHosts: ['127.0.0.1:11434'] } } };
  const first = await startTestRuntime({ plugins: ['search', 'genai'], dataDir, config });
  let firstStopped = false;
  t.teardown(() => (firstStopped ? undefined : first.stop()));
  t.is((await json(first, 'POST', '/api/llm', { id: 'del-me', vendor: 'OLLAMA', modelName: 'llama3.2' })).status, 201);
  t.is(
    (
      await json(first, 'POST', '/api/sn', {
        name: 'Tmp',
        locales: ['en_US'],
        fields: [{ name: 'title', type: 'TEXT' }],
      })
    ).status,
    201,
  );
  const siteId = (await json(first, 'PUT', '/api/sn/Tmp/genai', { llmInstanceId: 'del-me' })).body.siteId as string;
  t.is((await json(first, 'DELETE', '/api/sn/Tmp')).status, 200);
  t.is((await json(first, 'DELETE', '/api/sn/Tmp/genai')).status, 404, 'the site is gone, and its settings with it');

  t.like((await json(first, 'DELETE', '/api/llm/del-me')).body, { deleted: true, id: 'del-me' });
  t.is(await first.runtime.db('genai_site_settings').where({ site_id: siteId }).first(), undefined);

  // Settings of a site deleted while the process was down (or by another process) go at the next start.
  await first.runtime.db('genai_site_settings').insert({
    site_id: 'gone-site',
    enabled: true,
    llm_instance_id: 'builtin',
    system_prompt: '',
    updated_at: new Date().toISOString(),
  });
  await first.stop();
  firstStopped = true;
  const second = await startTestRuntime({ plugins: ['search', 'genai'], dataDir, config });
  t.teardown(() => second.stop());
  t.deepEqual(await second.runtime.db('genai_site_settings').select('site_id'), []);
});

test('what GET answers can be sent back: the structure POSTed, an instance and an agent PUT as read; unknown members stay refused', async (t) => {
  const vela = await startGenai({ allowHosts: ['127.0.0.1:11434'] });
  t.teardown(() => vela.stop());
  const structure = (await json(vela, 'GET', '/api/llm/structure')).body;
  const created = await json(vela, 'POST', '/api/llm', {
    ...structure,
    vendor: 'OLLAMA',
    url: 'http://127.0.0.1:11434/v1',
    modelName: 'llama3.2',
    apiKey: KEY,
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.regex(created.body.id, /^[0-9a-f-]{36}$/, 'id null: a UUID');
  t.like(created.body, { title: 'Ollama', hasApiKey: true, apiKeyHint: '…1234' });

  const read = (await json(vela, 'GET', `/api/llm/${created.body.id}`)).body;
  const putBack = await json(vela, 'PUT', `/api/llm/${read.id}`, {
    ...read,
    hasApiKey: false,
    apiKeyHint: null,
    createdAt: '2000-01-01T00:00:00.000Z',
  });
  t.is(putBack.status, 200, JSON.stringify(putBack.body));
  t.like(
    putBack.body,
    { hasApiKey: true, apiKeyHint: '…1234', createdAt: read.createdAt },
    'the read-only members are ignored',
  );
  const unknown = await json(vela, 'PUT', `/api/llm/${read.id}`, { ...read, colour: 'blue' });
  t.is(unknown.status, 400);
  t.regex(unknown.body.message, /colour/);

  await json(vela, 'POST', '/api/sn', { name: 'Docs', locales: ['en_US'], fields: [{ name: 'title', type: 'TEXT' }] });
  const agent = (await json(vela, 'POST', '/api/v2/llm/agent', { name: 'Reader', sites: ['Docs'] })).body;
  const agentBack = await json(vela, 'PUT', `/api/v2/llm/agent/${agent.id}`, {
    ...agent,
    maxSteps: 3,
    createdAt: '2000-01-01T00:00:00.000Z',
  });
  t.is(agentBack.status, 200, JSON.stringify(agentBack.body));
  t.like(agentBack.body, { maxSteps: 3, createdAt: agent.createdAt });
  t.is(
    (await json(vela, 'POST', '/api/v2/llm/agent', { ...agent, id: 'reader-copy', name: 'Copy' })).status,
    201,
    'an agent read back is a template',
  );
  t.is((await json(vela, 'PUT', `/api/v2/llm/agent/${agent.id}`, { ...agent, colour: 'blue' })).status, 400);
});

test('instance ids vendor and structure are reserved: GET /api/llm/<id> could not reach them', async (t) => {
  const vela = await startGenai();
  t.teardown(() => vela.stop());
  for (const id of ['vendor', 'structure']) {
    const refused = await json(vela, 'POST', '/api/llm', { id, vendor: 'BUILTIN' });
    t.is(refused.status, 400);
    t.is(refused.body.error, 'invalid_parameter');
    t.regex(refused.body.message, /^body\.id must not be "vendor" or "structure"/);
  }
  t.is((await json(vela, 'POST', '/api/llm', { id: 'vendors', vendor: 'BUILTIN' })).status, 201);
  t.like((await json(vela, 'GET', '/api/llm/vendors')).body, { id: 'vendors' });
});

test('two creates of one id at once: one 201, one 409 conflict; a corrupt row is left out at the next load while the others serve', async (t) => {
  const dataDir = testFolder(t, 'genai-rows');
  const first = await startGenai({ dataDir, allowHosts: ['127.0.0.1:11434'] });
  const create = () => json(first, 'POST', '/api/llm', { id: 'twice', vendor: 'OLLAMA', modelName: 'qwen2.5' });
  const answers = await Promise.all([create(), create()]);
  t.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
  t.like(answers.find((a) => a.status === 409)?.body, {
    error: 'conflict',
    message: 'an LLM instance with id "twice" already exists',
  });
  t.is((await json(first, 'POST', '/api/llm', { id: 'sound', vendor: 'OLLAMA', modelName: 'qwen2.5' })).status, 201);
  await first.runtime.db('genai_llm_instances').where({ id: 'twice' }).update({ options: '{"timeoutMs": 1' });
  await first.stop();

  const second = await startGenai({ dataDir, allowHosts: ['127.0.0.1:11434'] });
  t.teardown(() => second.stop());
  const ids = ((await json(second, 'GET', '/api/llm')).body as Array<{ id: string }>).map((i) => i.id);
  t.deepEqual(ids.sort(), ['builtin', 'sound']);
});
