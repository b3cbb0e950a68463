import test from 'ava';
import { consoleSession, startTestRuntime } from 'vela/testing';

// The LLM page is this plugin's, added to the search service's console (a runtime without the plugin has none:
// plugins/search/test/console-access.test.ts).

test('with the genai plugin, the search console has the LLM page and entry, after the other plugins by label', async (t) => {
  const vela = await startTestRuntime({ plugins: ['genai', 'integration'] });
  t.teardown(() => vela.stop());
  const cookie = await consoleSession(vela, 'search');
  const res = await vela.fetch('search', '/console/llm', { headers: { cookie } });
  t.is(res.status, 200);
  const html = await res.text();
  t.regex(html, /<title>LLM instances · Vela Search<\/title>/);
  t.regex(html, /<script type="module" src="\/console\/assets\/llm.js"><\/script>/);
  const entries = [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)]
    .filter(([, href]) =>
      ['/console/sites', '/console/tokens', '/console/integrations', '/console/llm'].includes(href!),
    )
    .map(([, , label]) => label);
  t.deepEqual(entries, ['Sites', 'API tokens', 'Integrations', 'LLM']);
  t.regex(html, /<a href="\/console\/llm" aria-current="page" data-requires="\/api\/llm" hidden>LLM<\/a>/);
  t.is((await vela.fetch('search', '/console/assets/llm.js')).status, 200);
});
