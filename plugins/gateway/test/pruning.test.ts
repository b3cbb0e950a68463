import test from 'ava';
import type { Scheduler } from 'vela/plugin';
import { createMapping, startGateway } from './fixtures.js';

test('the nightly job deletes response times past retention and tokens expired over a day ago, and keeps the rest', async (t) => {
  const vela = await startGateway({ responseTimes: { retentionDays: 2 } });
  t.teardown(() => vela.stop());
  const db = vela.runtime.db;
  const mapping = await createMapping(vela, { context: '/proxy/p/a', url: 'http://127.0.0.1:9/' });
  const day = 86_400_000;
  const now = Date.now();
  const token = (hash: string, expiresAt: number) => ({
    token_hash: hash,
    kind: 'access',
    app_id: 'x',
    grant_type: 'client_credentials',
    expires_at: expiresAt,
    revoked: false,
    created_at: now,
    changed_at: now,
  });
  await db('gateway_tokens').insert([
    token('old', now - 2 * day),
    token('recent', now - 1000),
    token('live', now + day),
  ]);
  const minute = (at: number) => ({
    mapping_id: mapping.id,
    minute: Math.floor(at / 60_000) * 60_000,
    process_id: 'p',
    count: 1,
    errors: 0,
    histogram: '{"300":1}',
  });
  await db('gateway_response_times').insert([minute(now - 3 * day), minute(now - day)]);

  t.true(await vela.runtime.resolve<Scheduler>('scheduler').runNow('gateway.prune-store'));

  t.deepEqual(
    (await db('gateway_tokens').select('token_hash').orderBy('token_hash')).map(
      (r: { token_hash: string }) => r.token_hash,
    ),
    ['live', 'recent'],
  );
  t.is((await db('gateway_response_times').count({ n: '*' }).first())!.n as number, 1);
});
