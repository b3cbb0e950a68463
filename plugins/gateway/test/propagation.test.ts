import test from 'ava';
import { type ChildRuntime, childCaller, measureRounds, sharedDatabaseTest, timeUntil } from 'vela/testing';
import { startServer } from './fixtures.js';

// The delays are measured here and judged by scripts/bench/propagation.ts (the goal: a revocation
// refused on every process within 100 ms, on the median of seven rounds). This test asserts what holds on any
// machine: with the polls off, the notices alone bring every change to B.
// Any single wait (timeUntil) gives up after 10 s: far beyond the goal on a loaded machine, far below the poll (off
// here).
const call = childCaller('gateway');

async function form(vela: ChildRuntime, path: string, fields: Record<string, string>) {
  const res = await fetch(`${vela.urls.gateway}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

sharedDatabaseTest(
  test,
  'two gateway processes on one PostgreSQL: new apps and fresh tokens work on the other at once; with the polls off, revocations reach it through the notices',
  // The poll is set far out, so only the change feed (LISTEN/NOTIFY) and the store lookups can explain what B sees.
  { config: { plugins: { gateway: { syncMs: 600_000 } } }, args: ['--plugins', 'gateway'] },
  async (t, a, b) => {
    const upstream = await startServer((_req, res) => res.end('{"ok":true}'));
    t.teardown(() => upstream.close());
    const viaB = async (token: string) => {
      const res = await fetch(`${b.urls.gateway}/live/v1/x`, { headers: { authorization: `Bearer ${token}` } });
      await res.text();
      return res.status;
    };

    // A mapping created on A is served by B as soon as the notice arrives.
    t.is((await call(a, 'POST', '/api/v2/mapping', { context: '/proxy/live/v1', url: upstream.url })).status, 201);
    const app = (await call(a, 'POST', '/api/v2/app', { name: 'live' })).body;
    const mappingMs = await timeUntil(
      async () => (await viaB(app.accessToken)) === 200,
      'B serving the mapping made on A',
    );

    // An app created on A is usable on B at once: B reloads its apps when it meets credentials it does not know
    // (AppStore.catchUp), and looks an unknown app token up before refusing it.
    const fresh = (await call(a, 'POST', '/api/v2/app', { name: 'fresh' })).body;
    const credentials = { grant_type: 'client_credentials', client_id: fresh.apiKey, client_secret: fresh.apiSecret };
    const onB = await form(b, '/api/token', credentials);
    t.is(onB.status, 200, JSON.stringify(onB.body));
    t.is(await viaB(onB.body.access_token), 200);
    t.is(await viaB(fresh.accessToken), 200);

    // Tokens issued on A are accepted by B on the first try: B looks an unknown token up before refusing it.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await viaB((await form(a, '/api/token', credentials)).body.access_token));
    t.deepEqual(statuses, [200, 200, 200, 200, 200]);
    // A random token is still refused.
    t.is(await viaB('0123456789abcdef0123456789abcdef'), 401);

    // Each round: a token B has accepted, revoked on A (RFC 7009), then asked of B until refused.
    await measureRounds(t, 'revocation refused on the other process', async (round) => {
      const token = (await form(a, '/api/token', credentials)).body.access_token as string;
      t.is(await viaB(token), 200);
      const revoked = await form(a, '/api/revoke', { token, client_id: fresh.apiKey, client_secret: fresh.apiSecret });
      t.is(revoked.status, 200);
      return timeUntil(async () => (await viaB(token)) === 401, `B refusing the token revoked on A (round ${round})`);
    });

    // Every token of the app revoked on A: B refuses them all, the app's own token with them.
    const many = (await form(a, '/api/token', credentials)).body.access_token as string;
    t.is(await viaB(many), 200);
    t.is((await call(a, 'DELETE', `/api/v2/app/${fresh.id}/accessTokens`)).status, 200);
    const revokeAllMs = await timeUntil(
      async () => (await viaB(many)) === 401 && (await viaB(fresh.accessToken)) === 401,
      'B refusing every token of the app',
    );
    t.log(`measured on B: mapping ${mappingMs.toFixed(1)} ms, revoke-all ${revokeAllMs.toFixed(1)} ms`);
  },
);
