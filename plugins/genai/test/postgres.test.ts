import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { postgresReachable, type TestRuntime, testDatabase } from 'vela/testing';
import { currentMonth } from '../usage/token-usage.js';
import { startFakeLlm } from './fake-llm.js';
import { createAgent, createFakeInstance, createHandbook, json, startGenai } from './fixtures.js';
import { readSse, shapeOf } from './sse-client.js';

const pgTest = postgresReachable() ? test : test.skip;
const KEY = 'sk-pg-abcdefghijklmnop5678';

const agentChat = (vela: TestRuntime, agentId: string, body: Record<string, unknown>) =>
  readSse(vela.url('search', `/api/v2/llm/agent/${agentId}/chat`), {
    method: 'POST',
    headers: { authorization: vela.adminAuth },
    body,
  });

pgTest(
  'on PostgreSQL: site chat, instances with an encrypted key, settings, a two-turn agent conversation, token usage, agent delete, a restart',
  async (t) => {
    const pg = await testDatabase(t);
    const fake = await startFakeLlm();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-genai-pg-'));
    t.teardown(async () => {
      await fake.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const options = { databaseUrl: pg.url, dataDir, allowHosts: [fake.host] };
    const first = await startGenai(options);
    let firstStopped = false;
    t.teardown(() => (firstStopped ? undefined : first.stop()));
    await createHandbook(first);

    const siteChat = await readSse(
      first.url('search', `/api/sn/Handbook/chat?q=${encodeURIComponent('Which port does the connector listen on?')}`),
    );
    t.deepEqual(shapeOf(siteChat), ['start', 'delta', 'done']);
    const siteDone = siteChat.events.at(-1)!.data;
    t.regex(siteDone.text, /The connector listens on port 30130\. \[1\]/);
    t.is(siteDone.sources[0].id, 'ports');

    const keyed = await createFakeInstance(first, fake.url, 'echo', { title: 'Echo', apiKey: KEY });
    t.like(keyed, { hasApiKey: true, apiKeyHint: '…5678', enabled: true, publicChat: false });
    const row = await first.runtime.db('genai_llm_instances').where({ id: 'echo' }).first();
    t.regex(row.api_key_encrypted, /^v1:/);
    t.false(row.api_key_encrypted.includes(KEY));
    const direct = await json(first, 'POST', '/api/v2/llm/echo/chat', {
      stream: false,
      messages: [{ role: 'user', content: 'pg hello' }],
    });
    t.like(direct.body, { content: 'Hello from the fake model.', usage: { totalTokens: 17, reported: true } });
    t.is(fake.requests.find((r) => r.body.messages[0].content === 'pg hello')?.authorization, `Bearer ${KEY}`);

    // The settings row is written once and then updated in place (insert ... on conflict merge).
    t.like(
      (await json(first, 'PUT', '/api/sn/Handbook/genai', { llmInstanceId: 'echo', systemPrompt: 'First.' })).body,
      { custom: true, enabled: true },
    );
    t.like((await json(first, 'PUT', '/api/sn/Handbook/genai', { enabled: false, systemPrompt: 'Second.' })).body, {
      enabled: false,
      llmInstanceId: 'echo',
      systemPrompt: 'Second.',
    });
    const settingsRows = await first.runtime.db('genai_site_settings').select();
    t.is(settingsRows.length, 1);
    t.like(settingsRows[0], { enabled: false, llm_instance_id: 'echo', system_prompt: 'Second.' });

    await createFakeInstance(first, fake.url, 'tools', { title: 'Tools', vendor: 'VLLM' });
    const agent = await createAgent(first, 'Ops', 'tools');
    const turn1 = await agentChat(first, agent.id, { message: 'How do I back up my data?' });
    t.deepEqual(shapeOf(turn1), ['start', 'tool_call', 'tool_result', 'delta', 'done']);
    const conversationId = turn1.events.at(-1)!.data.conversationId as string;
    const turn2 = await agentChat(first, agent.id, { message: 'And after that?', conversationId });
    t.is(turn2.events.at(-1)!.type, 'done');
    const second = fake.requests.find((r) => r.body.messages.at(-1)?.content === 'And after that?')!;
    t.deepEqual(
      second.body.messages.slice(1).map((m: { role: string; content: string }) => [m.role, m.content]),
      [
        ['user', 'How do I back up my data?'],
        ['assistant', 'Found it in Back up the server [1].'],
        ['user', 'And after that?'],
      ],
    );
    const stored = await json(first, 'GET', `/api/v2/llm/agent/${agent.id}/conversation/${conversationId}`);
    t.is(stored.body.messages.length, 8);

    // Every call made: 1 built-in site chat (counted), 1 echo (17), 2 agent turns of 2 calls each (25 + 48).
    const report = (await json(first, 'GET', `/api/v2/llm/token-usage?month=${currentMonth()}`)).body;
    t.is(report.totalRequests, 6);
    t.deepEqual(
      report.summary.map((l: { instanceId: string; totalTokens: number; requestCount: number }) => [
        l.instanceId,
        l.totalTokens,
        l.requestCount,
      ]),
      [
        ['builtin', siteDone.usage.totalTokens, 1],
        ['tools', 146, 4],
        ['echo', 17, 1],
      ].sort((a, b) => (b[1] as number) - (a[1] as number)),
    );
    t.is(report.totalTokens, siteDone.usage.totalTokens + 146 + 17);
    t.is(
      report.daily.reduce((sum: number, d: { totalTokens: number }) => sum + d.totalTokens, 0),
      report.totalTokens,
    );

    t.like((await json(first, 'DELETE', `/api/v2/llm/agent/${agent.id}`)).body, { deleted: true });
    t.is((await first.runtime.db('genai_conversations').where({ agent_id: agent.id })).length, 0);
    t.is((await first.runtime.db('genai_messages').where({ conversation_id: conversationId })).length, 0);
    t.is((await json(first, 'GET', `/api/v2/llm/agent/${agent.id}`)).status, 404);
    await first.stop();
    firstStopped = true;

    // What was written is read back by the next process: instances, their key, the site's settings.
    const restarted = await startGenai(options);
    t.teardown(() => restarted.stop());
    t.like((await json(restarted, 'GET', '/api/llm/echo')).body, {
      hasApiKey: true,
      apiKeyHint: '…5678',
      enabled: true,
      publicChat: false,
    });
    t.like((await json(restarted, 'GET', '/api/sn/Handbook/genai')).body, {
      enabled: false,
      llmInstanceId: 'echo',
      systemPrompt: 'Second.',
      custom: true,
    });
    await json(restarted, 'POST', '/api/v2/llm/echo/chat', {
      stream: false,
      messages: [{ role: 'user', content: 'pg again' }],
    });
    t.is(fake.requests.find((r) => r.body.messages[0].content === 'pg again')?.authorization, `Bearer ${KEY}`);
  },
);
