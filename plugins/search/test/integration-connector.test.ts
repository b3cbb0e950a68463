import test from 'ava';
import { startTestRuntime } from 'vela/testing';

// The default configuration allows the local connector (runtime.network.allowHosts ["self:connector"]), at
// whatever port it listens on: here an ephemeral one. A CONNECTOR instance takes its endpoint from the
// running connector and adds the connector's Key, stored encrypted.

const KEY = 'integration-test-connector-key-42';

test('a CONNECTOR instance reaches the local connector through the proxy with its stored Key, with no allowlist configured', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search', 'connector'], config: { plugins: { connector: { apiKeys: [KEY], seedSample: false } } } });
  t.teardown(() => vela.stop());
  const admin = { authorization: vela.adminAuth, 'content-type': 'application/json' };
  const vendors = await (await vela.fetch('search', '/api/integration/vendor', { headers: admin })).json();
  const connectorUrl = new URL(vela.url('connector', '/')).origin;
  t.is(vendors[0].defaultEndpoint, `${connectorUrl}/api/v2`);

  const created = await vela.fetch('search', '/api/integration', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ title: 'Local connector', vendor: 'CONNECTOR', headers: [{ name: 'Key', value: KEY }], allowedPaths: ['/connector'] }),
  });
  const instance = await created.json();
  t.is(created.status, 201, JSON.stringify(instance));
  t.is(instance.endpoint, `${connectorUrl}/api/v2`);

  const sources = await vela.fetch('search', `/api/v2/integration/${instance.id}/connector/source`);
  t.is(sources.status, 200, await sources.clone().text());
  t.true(Array.isArray(await sources.json()), 'the connector answered its key-protected source list');
  const outside = await vela.fetch('search', `/api/v2/integration/${instance.id}/other`);
  t.is(outside.status, 403, 'only the allowed path prefixes');

  // Another port on loopback (the search service's own) is not the connector: still refused when saved.
  const other = await vela.fetch('search', '/api/integration', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ title: 'Search itself', vendor: 'HTTP', endpoint: new URL(vela.url('search', '/')).origin }),
  });
  t.is(other.status, 400);
  t.regex((await other.json()).message, /loopback/);
});
