import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { startTestRuntime, type TestRuntime, testFolder } from 'vela/testing';
import { json } from '../../search/test/fixtures.js';

// The default configuration allows the local connector (plugins.integration.allowHosts ["self:connector"]), at
// whatever port it listens on: here an ephemeral one. A CONNECTOR instance takes its endpoint from the
// running connector and adds the connector's Key, stored encrypted. The proxy is public: these tests also
// make sure the instance docs/search-guide.md shows cannot be used to take over the connector.

const KEY = 'integration-test-connector-key-42';

let vela: TestRuntime;

test.before(async () => {
  vela = await startTestRuntime({
    plugins: ['integration', 'connector'],
    config: { plugins: { connector: { apiKeys: [KEY], seedSample: false } } },
  });
});
test.after.always(() => vela?.stop());

const admin = () => ({ authorization: vela.adminAuth, 'content-type': 'application/json' });

const createInstance = (body: Record<string, unknown>) => json(vela, 'POST', '/api/integration', body);

/** A token with the connector scope, made as docs/search-guide.md makes it. */
async function connectorToken(): Promise<string> {
  const res = await vela.fetch('search', '/api/dev/token', {
    method: 'POST',
    headers: admin(),
    body: JSON.stringify({ title: 'connector', scopes: ['connector'] }),
  });
  if (res.status !== 201) throw new Error(await res.text());
  return (await res.json()).token as string;
}

/** The connector's own list of sources, asked with its Key directly (not through the proxy). */
async function sourceNames(): Promise<string[]> {
  const res = await vela.fetch('connector', '/api/v2/connector/source', { headers: { key: KEY } });
  return ((await res.json()) as Array<{ name: string }>).map((s) => s.name);
}

test.serial(
  'a CONNECTOR instance reaches the local connector through the proxy with its stored Key, with no allowlist configured',
  async (t) => {
    t.timeout(60_000);
    const admin = { authorization: vela.adminAuth, 'content-type': 'application/json' };
    const vendors = await (await vela.fetch('search', '/api/integration/vendor', { headers: admin })).json();
    const connectorUrl = new URL(vela.url('connector', '/')).origin;
    t.is(vendors[0].defaultEndpoint, `${connectorUrl}/api/v2`);

    const created = await createInstance({
      title: 'Local connector',
      vendor: 'CONNECTOR',
      headers: [{ name: 'Key', value: KEY }],
      allowedPaths: ['/connector'],
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const instance = created.body;
    t.is(instance.endpoint, `${connectorUrl}/api/v2`);

    const sources = await vela.fetch('search', `/api/v2/integration/${instance.id}/connector/source`);
    t.is(sources.status, 200, await sources.clone().text());
    t.true(Array.isArray(await sources.json()), 'the connector answered its key-protected source list');
    const outside = await vela.fetch('search', `/api/v2/integration/${instance.id}/other`);
    t.is(outside.status, 403, 'only the allowed path prefixes');

    // Another port on loopback (the search service's own) is not the connector: still refused when saved.
    const other = await createInstance({
      title: 'Search itself',
      vendor: 'HTTP',
      endpoint: new URL(vela.url('search', '/')).origin,
    });
    t.is(other.status, 400);
    t.regex(other.body.message, /loopback/);
  },
);

test.serial(
  'the connector cannot be taken over through an instance with its Key: an anonymous source rooted at a secret folder is refused',
  async (t) => {
    t.timeout(60_000);
    const secret = testFolder(t, 'secret');
    mkdirSync(path.join(secret, 'private'));
    writeFileSync(path.join(secret, 'private', 'passwords.txt'), 'the vault combination is 31-41-59');
    const token = await connectorToken();
    const attack = {
      name: 'stolen',
      kind: 'filesystem',
      sites: ['Sample'],
      settings: { root: secret },
    };
    const post = (id: string, body: unknown) =>
      vela.fetch('search', `/api/v2/integration/${id}/connector/source`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // The instance as the audit found it documented: the connector's whole API under /connector, methods not given.
    const broad = await createInstance({
      id: 'broad-connector',
      title: 'Local connector',
      vendor: 'CONNECTOR',
      allowedPaths: ['/connector'],
      headers: [{ name: 'Key', value: token }],
    });
    t.is(broad.status, 201, JSON.stringify(broad.body));
    t.deepEqual(broad.body.allowedMethods, ['GET', 'HEAD']);
    const refused = await post('broad-connector', attack);
    t.is(refused.status, 405, 'writes are not forwarded unless the instance lists them');
    t.is((await refused.json()).error, 'method_not_allowed');

    // The instance as docs/search-guide.md shows it now: GET only, the status and monitoring paths only.
    const documented = await createInstance({
      id: 'local-connector',
      title: 'Local connector',
      vendor: 'CONNECTOR',
      allowedPaths: ['/connector/status', '/connector/monitoring'],
      allowedMethods: ['GET'],
      headers: [{ name: 'Key', value: token }],
    });
    t.is(documented.status, 201, JSON.stringify(documented.body));
    t.is((await post('local-connector', attack)).status, 405);
    t.is(
      (await vela.fetch('search', '/api/v2/integration/local-connector/connector/source')).status,
      403,
      'the source list is not under its paths',
    );
    t.is(
      (await vela.fetch('search', '/api/v2/integration/local-connector/connector/index/stolen/all')).status,
      403,
      'nor is starting a run',
    );
    const status = await vela.fetch('search', '/api/v2/integration/local-connector/connector/status');
    t.is(status.status, 200);
    const monitoring = await vela.fetch('search', '/api/v2/integration/local-connector/connector/monitoring/indexing');
    t.is(monitoring.status, 200, 'the Key-protected monitoring is read through it');
    t.deepEqual(Object.keys(await monitoring.json()).sort(), ['indexing', 'sources']);

    t.false((await sourceNames()).includes('stolen'), 'no source was created');
  },
);
