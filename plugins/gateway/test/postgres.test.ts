import test from 'ava';
import { postgresReachable, testDatabase } from 'vela/testing';
import {
  admin,
  clientCredentials,
  createApp,
  createMapping,
  eventually,
  postForm,
  startGateway,
  startServer,
} from './fixtures.js';

const pgTest = postgresReachable() ? test : test.skip;

pgTest('on PostgreSQL two gateway processes share mappings, apps, issued tokens and revocations', async (t) => {
  const pg = await testDatabase(t);
  let upstreamHits = 0;
  const upstream = await startServer((req, res) => {
    // Only proxied requests (the scheduled health checks reach this upstream too).
    if (req.headers['x-forwarded-for']) upstreamHits += 1;
    res.end(JSON.stringify({ url: req.url }));
  });
  t.teardown(() => upstream.close());
  const a = await startGateway({ syncMs: 100 }, { databaseUrl: pg.url });
  const b = await startGateway({ syncMs: 100 }, { databaseUrl: pg.url });
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });

  await createMapping(a, { context: '/proxy/shared/v1', url: upstream.url });
  const app = await createApp(a, { name: 'shared', callbackUrls: ['https://example.com/cb'] });
  const viaB = async (token: string) =>
    (await b.fetch('gateway', '/shared/v1/x?q=1', { headers: { authorization: `Bearer ${token}` } })).status;
  await eventually(async () => (await viaB(app.accessToken!)) === 200, 'B proxying with the app token created on A');

  // A code issued by A is redeemed on B, once.
  const redirect = await a.fetch(
    'gateway',
    `/api/authorize?response_type=code&client_id=${app.apiKey}&redirect_uri=https://example.com/cb`,
    {
      redirect: 'manual',
    },
  );
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
  const issued = await postForm(b, '/api/token', {
    grant_type: 'authorization_code',
    code,
    client_id: app.apiKey,
    client_secret: app.apiSecret,
  });
  t.is(issued.status, 200);
  t.is((await postForm(a, '/api/token', { grant_type: 'authorization_code', code })).body.error, 'invalid_grant');
  await eventually(
    async () =>
      (await a.fetch('gateway', '/shared/v1/x', { headers: { authorization: `Bearer ${issued.body.access_token}` } }))
        .status === 401,
    'A knowing the replay revoked the token',
  );

  const cc = await clientCredentials(a, app);
  await eventually(async () => (await viaB(cc.body.access_token)) === 200, 'B accepting a token issued on A');
  t.is((await admin(a, 'DELETE', `/api/v2/app/${app.id}/accessTokens`)).status, 200);
  await eventually(
    async () => (await viaB(cc.body.access_token)) === 401 && (await viaB(app.accessToken!)) === 401,
    'B refusing the revoked tokens',
  );

  // Response times written by both processes add up in either one's report.
  const fresh = (await admin(a, 'PUT', `/api/v2/app/${app.id}/gen_token`)).body.accessToken as string;
  await eventually(async () => (await viaB(fresh)) === 200, 'B accepting the new app token');
  for (let i = 0; i < 3; i++)
    await a.fetch('gateway', '/shared/v1/y', { headers: { authorization: `Bearer ${fresh}` } });
  await b.stop();
  const report = (await admin(a, 'GET', '/api/v2/access/response_time')).body as { mappings: Array<{ count: number }> };
  t.is(report.mappings[0]!.count, upstreamHits, 'every request either process forwarded is counted once');
});
