import test from 'ava';
import { currentMonth, monthRange } from '../usage/token-usage.js';
import { startFakeLlm } from './fake-llm.js';
import { createAgent, createFakeInstance, createHandbook, json, startGenai, token } from './fixtures.js';
import { readSse } from './sse-client.js';

test('months: [first day, first day of the next month); anything but YYYY-MM is refused', (t) => {
  t.deepEqual(monthRange('2026-03'), { start: '2026-03-01', end: '2026-04-01' });
  t.deepEqual(monthRange('2026-12'), { start: '2026-12-01', end: '2027-01-01' });
  for (const bad of ['2026-3', '2026-13', '2026-00', 'March', '2026-03-01', ''])
    t.throws(() => monthRange(bad), { message: /month must be YYYY-MM/ }, bad);
  t.is(currentMonth(new Date('2026-03-31T23:59:59Z')), '2026-03');
});

test('every provider call is recorded: the monthly report sums exactly the usage of the calls made, by instance and model, and by day', async (t) => {
  const fake = await startFakeLlm();
  const vela = await startGenai({ allowHosts: [fake.host] });
  t.teardown(async () => {
    await vela.stop();
    await fake.stop();
  });
  await createHandbook(vela);
  await createFakeInstance(vela, fake.url, 'echo', { title: 'Echo' });
  await createFakeInstance(vela, fake.url, 'tools', { title: 'Tools', vendor: 'VLLM' });
  const agent = await createAgent(vela, 'Ops', 'tools');
  const key = await token(vela, ['search']);

  // Three direct chats (17 tokens each, reported), one agent turn (two calls: 25 + 48), two built-in site chats
  // (counted).
  for (let i = 0; i < 3; i++) {
    const res = await json(
      vela,
      'POST',
      '/api/v2/llm/echo/chat',
      { stream: false, messages: [{ role: 'user', content: `hello ${i}` }] },
      { authorization: '', key },
    );
    t.is(res.status, 200);
  }
  const turn = await readSse(vela.url('search', `/api/v2/llm/agent/${agent.id}/chat`), {
    method: 'POST',
    headers: { authorization: vela.adminAuth },
    body: { message: 'backup?' },
  });
  t.is(turn.events.at(-1)!.data.usage.totalTokens, 73);
  const builtin = { input: 0, output: 0 };
  for (const q of ['Which port does the connector listen on?', 'How do I back up the data folder?']) {
    const done = (await readSse(vela.url('search', `/api/sn/Handbook/chat?q=${encodeURIComponent(q)}`))).events.at(
      -1,
    )!.data;
    builtin.input += done.usage.inputTokens;
    builtin.output += done.usage.outputTokens;
  }

  const report = await json(vela, 'GET', `/api/v2/llm/token-usage?month=${currentMonth()}`);
  t.is(report.status, 200);
  const { start, end } = monthRange(currentMonth());
  t.like(report.body, { periodStart: start, periodEnd: end });
  t.deepEqual(
    report.body.summary,
    [
      {
        instanceId: 'tools',
        instanceTitle: 'Tools',
        vendorId: 'VLLM',
        modelName: 'tools',
        inputTokens: 60,
        outputTokens: 13,
        totalTokens: 73,
        requestCount: 2,
      },
      {
        instanceId: 'echo',
        instanceTitle: 'Echo',
        vendorId: 'OPENAI_COMPATIBLE',
        modelName: 'echo',
        inputTokens: 33,
        outputTokens: 18,
        totalTokens: 51,
        requestCount: 3,
      },
      {
        instanceId: 'builtin',
        instanceTitle: 'Built-in (extractive)',
        vendorId: 'BUILTIN',
        modelName: 'extractive',
        inputTokens: builtin.input,
        outputTokens: builtin.output,
        totalTokens: builtin.input + builtin.output,
        requestCount: 2,
      },
    ].sort((a, b) => b.totalTokens - a.totalTokens),
  );
  t.is(report.body.totalRequests, 7);
  t.is(report.body.totalInputTokens, 93 + builtin.input);
  t.is(report.body.totalOutputTokens, 31 + builtin.output);
  t.is(report.body.totalTokens, 124 + builtin.input + builtin.output);
  const today = new Date().toISOString().slice(0, 10);
  t.deepEqual(
    report.body.daily.map((d: { date: string; instanceId: string; totalTokens: number }) => [
      d.date,
      d.instanceId,
      d.totalTokens,
    ]),
    report.body.summary.map((s: { instanceId: string; totalTokens: number }) => [today, s.instanceId, s.totalTokens]),
  );

  // Who: the token's owner, the administrator, anonymous on the public site chat.
  const users = await vela.runtime
    .db('genai_token_usage')
    .select('instance_id', 'username', 'endpoint', 'reported')
    .orderBy('id');
  t.deepEqual(
    users.map(
      (u: { instance_id: string; username: string; endpoint: string }) =>
        `${u.instance_id} ${u.username} ${u.endpoint}`,
    ),
    [
      'echo admin chat',
      'echo admin chat',
      'echo admin chat',
      'tools admin agent',
      'tools admin agent',
      'builtin anonymous site-chat',
      'builtin anonymous site-chat',
    ],
  );

  const empty = await json(vela, 'GET', '/api/v2/llm/token-usage?month=2001-01');
  t.deepEqual(empty.body, {
    periodStart: '2001-01-01',
    periodEnd: '2001-02-01',
    daily: [],
    summary: [],
    totalInputTokens: 0,
    totalOutputTokens: 0,
    totalTokens: 0,
    totalRequests: 0,
  });
  const bad = await json(vela, 'GET', '/api/v2/llm/token-usage?month=2026-13');
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { error: 'invalid_parameter', message: 'month must be YYYY-MM (e.g. 2026-03), got "2026-13"' });
  t.is(
    (await json(vela, 'GET', '/api/v2/llm/token-usage', undefined, { authorization: '', key })).status,
    403,
    'token usage needs the admin scope',
  );
  t.like((await json(vela, 'GET', '/api/v2/llm/token-usage')).body, { periodStart: start, totalRequests: 7 });
});
