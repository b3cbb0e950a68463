import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { ConsoleKit } from '../../runtime/console/console-kit.js';
import type { ApiRouter } from '../../runtime/http/api-router.js';

// The console kit's rendering without a service: partials with arguments and blocks, and the pages, files,
// navigation entries and tabs another plugin adds to a console.

/** A folder of files, as a URL ending in '/' like a console's templates or assets. */
function folder(root: string, name: string, files: Record<string, string>): URL {
  const dir = path.join(root, name);
  mkdirSync(dir);
  for (const [file, body] of Object.entries(files)) writeFileSync(path.join(dir, file), body);
  return pathToFileURL(`${dir}/`);
}

const user = { username: 'admin', csrfToken: 'token' };
type Handler = (req: unknown, res: unknown) => Promise<void>;

/** The page a mounted route answers with, as a signed-in browser gets it. */
async function page(handler: Handler, params: Record<string, string>): Promise<string> {
  let body = '';
  const res = { status: () => res, set: () => res, type: () => res, send: (html: string) => (body = html) };
  await handler({ params, headers: {} }, res);
  return body;
}

function setUp(t: { teardown: (fn: () => void) => void }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vela-console-kit-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const accounts = { findSession: async () => user };
  const kit = new ConsoleKit(accounts as never, {
    product: 'Test',
    home: '/console/things',
    navigation: [{ section: 'things', href: '/console/things', label: 'Things' }],
    templates: folder(root, 'templates', {
      'things.html': '{{#> page-head.html title="A <b> & co"}}<a href="/x">{{name}}</a>{{/page-head.html}}',
      'thing.html': '{{> head.html kind="Thing"}}{{{tabs}}}',
      'head.html': '<h2>{{kind}}: {{name}}</h2>',
    }),
    assets: folder(root, 'assets', { 'things.js': '' }),
    signInHint: '',
  });
  const mounted = new Map<string, Handler>();
  const router = {
    get: (p: string, _spec: unknown, handler: Handler) => mounted.set(p, handler),
    post: () => router,
    useSignInPage: () => router,
  } as unknown as ApiRouter;
  kit.mount(router, [
    { path: '/console/things', title: 'Things', section: 'things', template: 'things.html', script: 'things.js' },
    {
      path: '/console/things/:id',
      title: 'Thing',
      section: 'things',
      template: 'thing.html',
      script: 'things.js',
      tabs: { label: 'Thing', tabs: [{ label: 'Main', path: '/console/things/:id' }] },
    },
  ]);
  return { root, kit, router, mounted };
}

test('partials take escaped arguments and a block, which keeps the page values', (t) => {
  const { kit } = setUp(t);
  const html = kit.render({ title: 'Things', user, template: 'things.html', values: { name: '<i>' } });
  t.true(html.includes('<h1>A &lt;b&gt; &amp; co</h1>'), html);
  t.true(html.includes('<a href="/x">&lt;i&gt;</a>'));
  const thing = kit.render({ title: 'Thing', user, template: 'thing.html', values: { name: 'N' } });
  t.true(thing.includes('<h2>Thing: N</h2>'));
});

test('another plugin adds pages, files, entries after the console own ones and a tab to a tab set', async (t) => {
  const { root, kit, router, mounted } = setUp(t);
  kit.extend(router, {
    templates: folder(root, 'extra-templates', { 'extra.html': '{{> head.html kind="Extra"}}{{{tabs}}}' }),
    assets: folder(root, 'extra-assets', { 'extra.js': '' }),
    navigation: [
      { section: 'zed', href: '/console/zed', label: 'Zed' },
      { section: 'extra', href: '/console/extra', label: 'Extra' },
    ],
    tabs: [{ to: 'Thing', label: 'Extra', path: '/console/things/:id/extra' }],
    pages: [
      {
        path: '/console/things/:id/extra',
        title: 'Extra',
        section: 'things',
        template: 'extra.html',
        script: 'extra.js',
        tabs: 'Thing',
      },
    ],
  });
  const html = await page(mounted.get('/console/things/:id/extra')!, { id: '7', name: 'N' });
  t.true(html.includes('<h2>Extra: N</h2>'));
  const tabs = [...html.matchAll(/<a href="(\/console\/things\/7[^"]*)"( aria-current="page")?>/g)];
  t.deepEqual(
    tabs.map(([, href, current]) => [href, Boolean(current)]),
    [
      ['/console/things/7', false],
      ['/console/things/7/extra', true],
    ],
    "the tab set of the console's pages, with the added tab",
  );
  const main = await page(mounted.get('/console/things/:id')!, { id: '7', name: 'N' });
  t.true(main.includes('<a href="/console/things/7/extra">Extra</a>'), "and on the console's own pages");
  const labels = [...html.matchAll(/<a href="\/console\/(\w+)"(?: aria-current="page")?>/g)].map(([, name]) => name);
  t.deepEqual(labels, ['things', 'extra', 'zed'], "the console's entries, then the added ones by label");
  t.throws(
    () =>
      kit.extend(router, {
        templates: folder(root, 'clash', { 'things.html': '' }),
        assets: folder(root, 'clash-assets', {}),
        pages: [],
      }),
    { message: /already has the template things.html/ },
  );
});
