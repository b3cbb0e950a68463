import test from 'ava';
import { consoleSession, startTestRuntime } from 'vela/testing';
import { createSite, json } from '../../search/test/fixtures.js';

// A site's Semantic tab is this plugin's, added to the search service's console: a runtime without the plugin has
// neither the page nor the tab nor its files.

const TAB_API = '/api/sn/{siteName}/semantic';

test("with the semantic plugin, a site's pages have the Semantic tab, which waits for its API", async (t) => {
  const vela = await startTestRuntime({ plugins: ['search', 'semantic'] });
  t.teardown(() => vela.stop());
  const site = await createSite(vela, 'Sample');
  const cookie = await consoleSession(vela, 'search');
  const tab = (current: string) =>
    `<a href="/console/sites/${site.id}/semantic"${current} data-requires="${TAB_API}" hidden>Semantic</a>`;
  const fields = await (await vela.fetch('search', `/console/sites/${site.id}/fields`, { headers: { cookie } })).text();
  t.true(fields.includes(`Spotlights</a>\n  ${tab('')}\n</nav>`), 'the last tab');
  const res = await vela.fetch('search', `/console/sites/${site.id}/semantic`, { headers: { cookie } });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const page = await res.text();
  t.true(page.includes(tab(' aria-current="page"')), 'its own tab marked');
  t.regex(page, new RegExp(`data-site-id="${site.id}"`), "the search console's site head");
  t.regex(page, /<script type="module" src="\/console\/assets\/site-semantic.js"><\/script>/);
  t.notRegex(page, /<script>|style="/, 'no inline script or style');
  for (const name of ['site-semantic.js', 'site-semantic.css'])
    t.is((await vela.fetch('search', `/console/assets/${name}`)).status, 200, name);

  const described = (await json(vela, 'GET', '/v3/api-docs')).body as { paths: Record<string, unknown> };
  t.truthy(described.paths[TAB_API], 'the API the tab requires is described, so the tab is shown');
});

test('without the semantic plugin, no Semantic page, tab or files', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const site = await createSite(vela, 'Sample');
  const cookie = await consoleSession(vela, 'search');
  t.is((await vela.fetch('search', `/console/sites/${site.id}/semantic`, { headers: { cookie } })).status, 404);
  const fields = await (await vela.fetch('search', `/console/sites/${site.id}/fields`, { headers: { cookie } })).text();
  t.false(fields.includes('/semantic"'));
  for (const name of ['site-semantic.js', 'site-semantic.css'])
    t.is((await vela.fetch('search', `/console/assets/${name}`)).status, 404, name);
});
