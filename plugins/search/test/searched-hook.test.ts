import path from 'node:path';
import test from 'ava';
import { manifest, packageRoot, startTestRuntime, writePlugins } from 'vela/testing';
import type { SearchedEvent } from '../api.js';
import { createSite, importDocs, json, makeDocs } from './fixtures.js';

// search.searched: each answered REST search is told to the taps, an answer from the answer cache too, with the
// locale the search settled, what it found and who asked; a runtime where nobody taps it searches the same.

const heard: SearchedEvent[] = [];
(globalThis as { searchedEvents?: SearchedEvent[] }).searchedEvents = heard;
const listener = {
  manifest: manifest('searched-listener', { dependsOn: ['search'] }),
  files: {
    'package.json': JSON.stringify({ type: 'module' }),
    'index.ts': `export default { register(ctx) { ctx.hooks.tap('search.searched', 'listener', (event) => globalThis.searchedEvents.push(event)); } };`,
  },
};

test.serial(
  'each answered search is told to the taps, a cached answer too, with its settled locale, count and principal',
  async (t) => {
    const loaderPath = await writePlugins([listener]);
    const vela = await startTestRuntime({
      plugins: ['search', 'searched-listener'],
      loaderPath: [path.join(packageRoot, 'plugins'), loaderPath],
    });
    t.teardown(() => vela.stop());
    await createSite(vela, 'Sample', { defaultLocale: 'en_US' });
    await importDocs(vela, makeDocs(20));
    const searchKey = (await json(vela, 'POST', '/api/dev/token', { title: 'reader', scopes: ['search'] })).body.token;
    heard.length = 0;

    const first = await vela.fetch('search', '/api/sn/Sample/search?q=editor&fq[]=section:editors');
    const again = await vela.fetch('search', '/api/sn/Sample/search?q=editor&fq[]=section:editors', {
      headers: { key: searchKey },
    });
    t.is(again.headers.get('x-cache'), 'HIT');
    const posted = await json(
      vela,
      'POST',
      '/api/sn/Sample/search?_setlocale=pt_BR',
      { query: 'nothinghere', userId: 'ana', populateMetrics: false },
      { authorization: '' },
    );
    t.is(posted.status, 200);
    const refused = await vela.fetch('search', '/api/sn/Nowhere/search?q=editor');
    t.is(refused.status, 404);

    const count = (await first.json()).queryContext.count;
    const editorSearch = {
      site: 'Sample',
      q: 'editor',
      locale: 'en_US',
      fq: ['section:editors'],
      userId: null,
      populateMetrics: true,
      count,
    };
    t.deepEqual(
      heard.map(({ site, params, count, principal }) => ({
        site: site.name,
        q: params.q,
        locale: params.locale,
        fq: params.fq,
        userId: params.userId,
        populateMetrics: params.populateMetrics,
        count,
        principal: principal?.via ?? null,
      })),
      [
        { ...editorSearch, principal: null },
        // The cached answer is told too, with its own caller.
        { ...editorSearch, principal: 'key' },
        {
          site: 'Sample',
          q: 'nothinghere',
          locale: 'pt_BR',
          fq: [],
          userId: 'ana',
          populateMetrics: false,
          count: 0,
          principal: null,
        },
      ],
      'the refused search is not told',
    );
  },
);

test.serial('without a tap, searches and cached answers are served the same', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  await createSite(vela);
  await importDocs(vela, makeDocs(10));
  heard.length = 0;
  for (const cache of ['MISS', 'HIT']) {
    const res = await vela.fetch('search', '/api/sn/Sample/search?q=*&_setlocale=en_US');
    t.is(res.status, 200);
    t.is(res.headers.get('x-cache'), cache);
  }
  t.deepEqual(heard, []);
});
