import test from 'ava';
import { consoleSession, startTestRuntime } from 'vela/testing';

// The Integrations page is this plugin's, added to the search service's console (a runtime without the plugin has
// none: plugins/search/test/console-access.test.ts).

test('with the integration plugin, the search console has its page, its navigation entry and its files', async (t) => {
  const vela = await startTestRuntime({ plugins: ['integration'] });
  t.teardown(() => vela.stop());
  const cookie = await consoleSession(vela, 'search');
  const res = await vela.fetch('search', '/console/integrations', { headers: { cookie } });
  t.is(res.status, 200);
  t.notRegex(res.headers.get('content-security-policy')!, /unsafe-inline/);
  const html = await res.text();
  t.regex(html, /<title>Integrations · Vela Search<\/title>/);
  t.regex(html, /<a href="\/console\/integrations" aria-current="page" data-requires="\/api\/integration" hidden>/);
  t.regex(html, /<script type="module" src="\/console\/assets\/integrations.js"><\/script>/);
  const sites = await (await vela.fetch('search', '/console/sites', { headers: { cookie } })).text();
  t.regex(
    sites,
    /<a href="\/console\/integrations" data-requires="\/api\/integration" hidden>Integrations<\/a>/,
    'the entry waits for the API',
  );
  t.false(sites.includes('href="/console/llm"'), 'no page of a plugin that is not loaded');
  for (const name of ['integrations.js', 'vendor-instances.js'])
    t.is((await vela.fetch('search', `/console/assets/${name}`)).status, 200, name);
});
