import test from 'ava';
import { consoleSession, startTestRuntime } from 'vela/testing';
import { createSite } from '../../search/test/fixtures.js';

// A site's Metrics tab is this plugin's, added to the search service's console (a runtime without the plugin has
// neither the page nor the tab: plugins/search/test/console-access.test.ts).

test("with the search-metrics plugin, a site's pages have the Metrics tab, which waits for its API", async (t) => {
  const vela = await startTestRuntime({ plugins: ['search-metrics'] });
  t.teardown(() => vela.stop());
  const site = await createSite(vela, 'Sample');
  const cookie = await consoleSession(vela, 'search');
  const tab = (current: string) =>
    `<a href="/console/sites/${site.id}/metrics"${current} data-requires="/api/sn/{id}/metrics/live" hidden>Metrics</a>`;
  const fields = await (await vela.fetch('search', `/console/sites/${site.id}/fields`, { headers: { cookie } })).text();
  t.true(fields.includes(`Spotlights</a>\n  ${tab('')}\n</nav>`), 'the last tab');
  const res = await vela.fetch('search', `/console/sites/${site.id}/metrics`, { headers: { cookie } });
  t.is(res.status, 200);
  const metrics = await res.text();
  t.true(metrics.includes(tab(' aria-current="page"')), 'its own tab marked');
  t.regex(metrics, new RegExp(`data-site-id="${site.id}"`), "the search console's site head");
  for (const name of ['site-metrics.js', 'term-chart.js'])
    t.is((await vela.fetch('search', `/console/assets/${name}`)).status, 200, name);
});
