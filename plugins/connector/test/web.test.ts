import { gzipSync } from 'node:zlib';
import { createPooledExtract, EXTRACT_TASK_FILE, type ExtractedContent, type ExtractInput } from '@vela/extraction';
import test from 'ava';
import { createLogger, OutboundGuard, WorkerPool } from 'vela/testing';
import { makePdf } from '../../../packages/extraction/test/fixtures/documents.js';
import type { SourceDocument, SourceReadError } from '../api.js';
import { isReadError } from '../sources/read-error.js';
import type { WebSettings } from '../sources/web/settings.js';
import { parseSitemap } from '../sources/web/sitemap.js';
import { webSourceKind } from '../sources/web/web-kind.js';
import { readAll, readContext } from './fixtures/read-context.js';
import { page, type SiteResponse, startTestSite, type TestSite } from './fixtures/test-site.js';

// Pages are fetched on this thread and extracted on a real piscina pool, as in the connector.
const pool = new WorkerPool({ minThreads: 0, maxThreads: 2, idleTimeoutMs: 2000 }, createLogger({ level: 'silent' }));
const extract = createPooledExtract(pool.task<ExtractInput, ExtractedContent>(EXTRACT_TASK_FILE));
test.after.always(() => pool.close());

const AGENT = 'VelaTestBot/1.0';
type Settings = Partial<WebSettings> & { seeds: string[] };
const crawl = (settings: Settings, onlyIds?: string[]) =>
  readAll(webSourceKind, { delayMs: 0, userAgent: AGENT, ...settings } as WebSettings, {
    extract,
    ...(onlyIds ? { onlyIds } : {}),
  });

const text = (body: string, status = 200): SiteResponse => ({ status, type: 'text/plain', body });
const xml = (body: string): SiteResponse => ({
  type: 'application/xml',
  body: `<?xml version="1.0" encoding="UTF-8"?>${body}`,
});

/** The site of most tests: links of every kind from the home page, robots.txt, a sitemap index. */
function site(origin: string): Record<string, SiteResponse> {
  const host2 = origin.replace('127.0.0.1', 'localhost');
  return {
    '/robots.txt': text(
      `User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap-index.xml\n\nUser-agent: OtherBot\nDisallow: /\n`,
    ),
    '/sitemap-index.xml': xml(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
    ),
    '/sitemap-pages.xml': xml(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/orphan.html</loc></url><url><loc>${origin}/private/listed.html</loc></url><url><loc>${origin}/</loc></url></urlset>`,
    ),
    '/': page(
      'Home',
      [
        '/a.html',
        '/a.html#part',
        'b.html',
        '/private/secret.html',
        '/old-page',
        '/missing.html',
        '/broken.html',
        '/forbidden.html',
        '/deny/skip.html',
        `${host2}/other-host.html`,
        '/logo.png',
        'mailto:someone@example.org',
        '/noindex.html',
      ],
      '<meta name="description" content="The home page"><meta name="keywords" content="home, start">',
    ),
    '/a.html': page('Page A', ['/a/deep1.html']),
    '/a/deep1.html': page('Deep 1', ['/a/deep2.html']),
    '/a/deep2.html': page('Deep 2'),
    '/b.html': {
      ...page('Page B', ['/b.html?ref=nav'], '<link rel="canonical" href="/b.html">'),
      headers: { 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' },
    },
    '/b.html?ref=nav': page('Page B', [], '<link rel="canonical" href="/b.html">'),
    '/old-page': { status: 301, headers: { location: '/c.html' } },
    '/c.html': page('Page C'),
    '/broken.html': { status: 500, body: 'oops' },
    '/forbidden.html': { status: 403, body: 'no' },
    '/deny/skip.html': page('Denied'),
    '/private/secret.html': page('Secret'),
    '/private/listed.html': page('Listed secret'),
    '/orphan.html': page('Orphan'),
    '/noindex.html': page('Not indexed', ['/from-noindex.html'], '<meta name="robots" content="noindex">'),
    '/from-noindex.html': page('Reached through a noindex page'),
    '/logo.png': { type: 'image/png', body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
  };
}

async function withSite(
  t: { teardown(fn: () => unknown): void },
  pages: (origin: string) => Record<string, SiteResponse> = site,
): Promise<TestSite> {
  const server = await startTestSite(pages);
  t.teardown(() => server.close());
  return server;
}

const docsOf = (items: Array<SourceDocument | SourceReadError>) =>
  items.filter((i): i is SourceDocument => !isReadError(i));
const errorsOf = (items: Array<SourceDocument | SourceReadError>) => items.filter(isReadError);

test('a crawl follows links to the depth limit, reads the sitemap index, yields each page once by canonical URL, and 4xx/5xx other than 404 as errors', async (t) => {
  const s = await withSite(t);
  const items = await crawl({ seeds: [`${s.origin}/`], deny: ['/deny/'], maxDepth: 2 });
  const u = (path: string) => `${s.origin}${path}`;
  t.deepEqual(
    docsOf(items)
      .map((d) => d.id)
      .sort(),
    [
      u('/'),
      u('/a.html'),
      u('/a/deep1.html'),
      u('/b.html'),
      u('/c.html'),
      u('/from-noindex.html'),
      u('/orphan.html'),
    ].sort(),
  );
  t.deepEqual(
    errorsOf(items).sort((a, b) => a.id.localeCompare(b.id)),
    [
      { id: u('/broken.html'), error: 'HTTP 500 Internal Server Error' },
      { id: u('/forbidden.html'), error: 'HTTP 403 Forbidden' },
    ],
  );
  const paths = s.paths();
  t.true(paths.includes('/missing.html'), 'a 404 page is fetched, then not yielded: it is gone, not failed');
  t.is(paths.filter((p) => p === '/a.html').length, 1, 'a link with a fragment is the same page');
  t.is(paths.filter((p) => p === '/robots.txt').length, 1, 'robots.txt is read once per host');
  t.true(paths.includes('/sitemap-index.xml') && paths.includes('/sitemap-pages.xml'));
  t.true(paths.includes('/b.html?ref=nav'), 'a URL variant is fetched, then recognised by its canonical link');
  t.false(paths.includes('/a/deep2.html'), 'depth 3 is past maxDepth 2');
  t.false(paths.includes('/logo.png'), 'images are not fetched');
  t.is(s.paths(`localhost:${s.port}`).length, 0, 'another host is not fetched (sameHost)');
  t.true(s.requests.every((r) => r.userAgent === AGENT));
});

test('robots.txt Disallow is obeyed for links and sitemap entries: the server never sees those requests', async (t) => {
  const s = await withSite(t);
  await crawl({ seeds: [`${s.origin}/`], maxDepth: 1 });
  t.deepEqual(
    s.paths().filter((p) => p.startsWith('/private/')),
    [],
  );
  t.true(s.paths().includes('/orphan.html'), 'other sitemap entries are crawled');
});

test('a deny pattern keeps a URL from ever being fetched, and an allow list limits links to matching URLs', async (t) => {
  const s = await withSite(t);
  await crawl({ seeds: [`${s.origin}/`], deny: ['/deny/', 'noindex'], maxDepth: 2, sitemaps: false });
  t.false(s.paths().some((p) => p.startsWith('/deny/') || p.includes('noindex')));
  const s2 = await withSite(t);
  const items = await crawl({ seeds: [`${s2.origin}/`], allow: ['/a(/|\\.html)'], maxDepth: 3, sitemaps: false });
  t.deepEqual(
    docsOf(items).map((d) => d.id),
    [`${s2.origin}/`, `${s2.origin}/a.html`, `${s2.origin}/a/deep1.html`, `${s2.origin}/a/deep2.html`],
    'the seed is exempt from allow',
  );
});

test('page attributes: title, text, url, description, keywords, content type and Last-Modified', async (t) => {
  const s = await withSite(t);
  const items = docsOf(await crawl({ seeds: [`${s.origin}/`], maxDepth: 1, sitemaps: false }));
  t.like(items.find((d) => d.id === `${s.origin}/`)!.attributes, {
    title: 'Home',
    url: `${s.origin}/`,
    description: 'The home page',
    keywords: ['home', 'start'],
    contentType: 'text/html',
  });
  t.regex(items[0]!.attributes.text as string, /^Home\n/);
  t.like(items.find((d) => d.id === `${s.origin}/b.html`)!.attributes, {
    title: 'Page B',
    lastModified: '2015-10-21T07:28:00.000Z',
  });
});

test('a redirect is followed to its target, which becomes the id; a redirect out of bounds is not followed', async (t) => {
  const s = await withSite(t, (origin) => ({
    '/': page('Home', ['/moved', '/away', '/to-denied']),
    '/moved': { status: 302, headers: { location: `${origin}/target.html#x` } },
    '/target.html': page('Target'),
    '/away': { status: 301, headers: { location: `${origin.replace('127.0.0.1', 'localhost')}/elsewhere` } },
    '/to-denied': { status: 301, headers: { location: '/deny/page.html' } },
    '/deny/page.html': page('Denied'),
  }));
  const items = await crawl({ seeds: [`${s.origin}/`], deny: ['/deny/'], sitemaps: false, robotsTxt: false });
  t.deepEqual(
    items.map((i) => i.id),
    [`${s.origin}/`, `${s.origin}/target.html`],
  );
  t.false(s.paths().includes('/deny/page.html'));
  t.is(s.paths(`localhost:${s.port}`).length, 0);
});

test('maxDepth 0 reads only the seeds, and maxPages caps the pages fetched', async (t) => {
  const s = await withSite(t);
  const seedOnly = await crawl({ seeds: [`${s.origin}/`], maxDepth: 0, sitemaps: false });
  t.deepEqual(
    seedOnly.map((i) => i.id),
    [`${s.origin}/`],
  );
  t.deepEqual(s.paths(), ['/robots.txt', '/']);
  const s2 = await withSite(t);
  const capped = await crawl({ seeds: [`${s2.origin}/`], maxDepth: 5, maxPages: 3, sitemaps: false, concurrency: 3 });
  t.is(s2.paths().filter((p) => p !== '/robots.txt').length, 3);
  t.is(capped.length, 3);
});

test('a robots.txt group for our user agent wins over *, with Allow inside a disallowed folder', async (t) => {
  const s = await withSite(t, () => ({
    '/robots.txt': text(
      'User-agent: *\nDisallow: /\n\nUser-agent: VelaTestBot\nAllow: /private/open.html\nDisallow: /private/\n',
    ),
    '/': page('Home', ['/private/open.html', '/private/closed.html', '/public.html']),
    '/private/open.html': page('Open'),
    '/private/closed.html': page('Closed'),
    '/public.html': page('Public'),
  }));
  const items = await crawl({ seeds: [`${s.origin}/`], sitemaps: false });
  t.deepEqual(items.map((i) => i.id).sort(), [
    `${s.origin}/`,
    `${s.origin}/private/open.html`,
    `${s.origin}/public.html`,
  ]);
  t.false(s.paths().includes('/private/closed.html'));
});

test('requests to one host keep the robots.txt Crawl-delay apart, even with several allowed at once', async (t) => {
  const s = await withSite(t, () => ({
    '/robots.txt': text('User-agent: *\nCrawl-delay: 0.25\n'),
    '/': page('Home', ['/1.html', '/2.html', '/3.html']),
    '/1.html': page('One'),
    '/2.html': page('Two'),
    '/3.html': page('Three'),
  }));
  const items = await crawl({ seeds: [`${s.origin}/`], sitemaps: false, concurrency: 4 });
  t.is(items.length, 4);
  const times = s.requests.filter((r) => r.path !== '/robots.txt').map((r) => r.at);
  for (let i = 1; i < times.length; i++)
    t.true(times[i]! - times[i - 1]! >= 240, `gap ${i} was ${times[i]! - times[i - 1]!} ms`);
});

test('PDF links are skipped by default and indexed with includePdf', async (t) => {
  const pdf = await makePdf({ title: 'Price list', pages: [['Prices for this year']] });
  const pages = () => ({ '/': page('Home', ['/prices.pdf']), '/prices.pdf': { type: 'application/pdf', body: pdf } });
  const s = await withSite(t, pages);
  t.deepEqual(
    (await crawl({ seeds: [`${s.origin}/`], sitemaps: false, robotsTxt: false })).map((i) => i.id),
    [`${s.origin}/`],
  );
  t.false(s.paths().includes('/prices.pdf'));
  const s2 = await withSite(t, pages);
  const withPdf = docsOf(
    await crawl({ seeds: [`${s2.origin}/`], sitemaps: false, robotsTxt: false, includePdf: true }),
  );
  t.like(withPdf.find((d) => d.id === `${s2.origin}/prices.pdf`)?.attributes, {
    title: 'Price list',
    text: 'Prices for this year',
    contentType: 'application/pdf',
  });
});

test('a response without a Content-Type is indexed when its bytes are HTML, and skipped quietly otherwise', async (t) => {
  const s = await withSite(t, () => ({
    '/': page('Home', ['/untyped', '/blob']),
    '/untyped': { ...page('Untyped page'), type: '' },
    '/blob': { type: '', body: new Uint8Array([0, 1, 2, 3, 0xff]) },
  }));
  const items = await crawl({ seeds: [`${s.origin}/`], sitemaps: false, robotsTxt: false });
  t.deepEqual(items.map((i) => i.id).sort(), [`${s.origin}/`, `${s.origin}/untyped`]);
  t.like((items.find((i) => i.id.endsWith('/untyped')) as SourceDocument).attributes, {
    title: 'Untyped page',
    contentType: 'text/html',
  });
  t.true(s.paths().includes('/blob'));
});

test('onlyIds fetches just those URLs and follows no links; a page now 404 is not yielded (so it gets de-indexed)', async (t) => {
  const s = await withSite(t);
  const items = await crawl({ seeds: [`${s.origin}/`] }, [
    `${s.origin}/a.html#top`,
    `${s.origin}/missing.html`,
    'ftp://example.org/x',
  ]);
  t.deepEqual(items.map((i) => i.id).sort(), ['ftp://example.org/x', `${s.origin}/a.html`]);
  t.deepEqual(s.paths().sort(), ['/a.html', '/missing.html', '/robots.txt']);
  t.deepEqual(
    items.filter(isReadError).map((e) => e.error),
    ['not an http(s) URL'],
  );
});

test('a page that does not answer in time, an oversized page and an unreachable robots.txt are read errors', async (t) => {
  const s = await withSite(t, () => ({
    '/': page('Home', ['/slow.html', '/huge.html']),
    '/slow.html': { hang: true },
    '/huge.html': { body: `<p>${'x'.repeat(5000)}</p>` },
  }));
  // The limit leaves the answering pages ample time on a loaded machine; only the hung one reaches it.
  const items = await crawl({
    seeds: [`${s.origin}/`],
    sitemaps: false,
    robotsTxt: false,
    timeoutMs: 2000,
    maxPageBytes: 2048,
  });
  t.deepEqual(
    errorsOf(items).sort((a, b) => a.id.localeCompare(b.id)),
    [
      { id: `${s.origin}/huge.html`, error: 'the response is larger than maxPageBytes (2048 bytes)' },
      { id: `${s.origin}/slow.html`, error: 'no complete answer within 2000 ms' },
    ],
  );
  const down = await withSite(t, () => ({ '/robots.txt': text('maintenance', 503), '/': page('Home') }));
  const blocked = await crawl({ seeds: [`${down.origin}/`], sitemaps: false });
  t.deepEqual(blocked, [
    {
      id: `${down.origin}/`,
      error: `not fetched: robots.txt of ${down.origin} is unreachable (HTTP 503); as RFC 9309 asks, nothing is fetched from that host this run`,
    },
  ]);
  t.deepEqual(down.paths(), ['/robots.txt']);
  const huge = await withSite(t, () => ({
    '/robots.txt': text(`# ${'x'.repeat(2 * 1024 * 1024)}\n`),
    '/': page('Home'),
  }));
  t.deepEqual(await crawl({ seeds: [`${huge.origin}/`], sitemaps: false }), [
    {
      id: `${huge.origin}/`,
      error: `not fetched: robots.txt of ${huge.origin} is unreachable (it is larger than 2097152 bytes); as RFC 9309 asks, nothing is fetched from that host this run`,
    },
  ]);
});

test('robots.txt redirected to an address the outbound guard refuses is unreachable (RFC 9309): the host is disallowed, each page and the run say why', async (t) => {
  const s = await withSite(t, () => ({
    '/robots.txt': { status: 301, headers: { location: 'http://metadata.example/latest/robots.txt' } },
    '/': page('Home', ['/a.html']),
    '/a.html': page('Page A'),
  }));
  // The name resolves, for the guard only, to the cloud metadata address: refused in the lookup, no traffic sent.
  const asked: string[] = [];
  const guard = new OutboundGuard({
    allowHosts: ['127.0.0.1'],
    resolve: async (host) => {
      asked.push(host);
      return host === 'metadata.example' ? [{ address: '169.254.169.254', family: 4 }] : [];
    },
  });
  const notes: string[] = [];
  const items = await readAll(
    webSourceKind,
    { delayMs: 0, userAgent: AGENT, seeds: [`${s.origin}/`, `${s.origin}/a.html`] } as WebSettings,
    {
      extract,
      fetch: (url, init) => guard.fetch(url, init),
      notes,
    },
  );
  const why = `not fetched: robots.txt of ${s.origin} is unreachable (its redirect to http://metadata.example/latest/robots.txt: request failed: refused by the outbound address guard (cloud metadata): metadata.example resolves to 169.254.169.254, a cloud metadata address); as RFC 9309 asks, nothing is fetched from that host this run`;
  t.deepEqual(
    items.sort((x, y) => x.id.localeCompare(y.id)),
    [
      { id: `${s.origin}/`, error: why },
      { id: `${s.origin}/a.html`, error: why },
    ],
    'every seed is a read error naming robots.txt, not the seed, as the cause (so the run de-indexes nothing)',
  );
  t.deepEqual(notes, [`${why} (its pages are recorded as errors, so nothing is de-indexed)`], 'the run is told once');
  t.deepEqual(s.paths(), ['/robots.txt'], 'no page of a host whose robots.txt is unreachable is requested');
  t.deepEqual(asked, ['metadata.example'], 'the redirect was followed as far as the guard, which refused the address');
});

test('robots.txt redirects are followed across hosts, and its rules apply to the host asked; more than five redirects make it unavailable', async (t) => {
  const s = await withSite(t, (origin) => ({
    '/robots.txt': {
      status: 301,
      headers: { location: `${origin.replace('127.0.0.1', 'localhost')}/rules/robots.txt` },
    },
    '/rules/robots.txt': text('User-agent: *\nDisallow: /private/\n'),
    '/': page('Home', ['/private/secret.html', '/open.html']),
    '/open.html': page('Open'),
    '/private/secret.html': page('Secret'),
  }));
  const items = await crawl({ seeds: [`${s.origin}/`], sitemaps: false, maxDepth: 1 });
  t.deepEqual(
    docsOf(items)
      .map((d) => d.id)
      .sort(),
    [`${s.origin}/`, `${s.origin}/open.html`],
  );
  t.deepEqual(s.paths(`localhost:${s.port}`), ['/rules/robots.txt'], 'the redirect to another host was followed');
  t.false(s.paths().includes('/private/secret.html'), 'the rules found through the redirect apply');

  const hop = (n: number): SiteResponse => ({ status: 302, headers: { location: `/hop${n}` } });
  const loop = await withSite(t, () => ({
    '/robots.txt': hop(1),
    '/hop1': hop(2),
    '/hop2': hop(3),
    '/hop3': hop(4),
    '/hop4': hop(5),
    '/hop5': hop(6),
    '/hop6': text('User-agent: *\nDisallow: /\n'),
    '/': page('Home'),
  }));
  const notes: string[] = [];
  const loopItems = await readAll(
    webSourceKind,
    { delayMs: 0, userAgent: AGENT, seeds: [`${loop.origin}/`], sitemaps: false } as WebSettings,
    {
      extract,
      notes,
    },
  );
  t.deepEqual(
    docsOf(loopItems).map((d) => d.id),
    [`${loop.origin}/`],
    'unavailable: every page may be fetched',
  );
  t.false(loop.paths().includes('/hop6'), 'five redirects are followed, not a sixth');
  t.deepEqual(notes, [
    `robots.txt of ${loop.origin} redirects more than 5 times: taken as unavailable (RFC 9309), so every page of that host may be fetched`,
  ]);
});

test('a cancelled crawl throws instead of ending as if complete', async (t) => {
  const s = await withSite(t);
  const controller = new AbortController();
  await t.throwsAsync(
    async () => {
      const settings = { seeds: [`${s.origin}/`], delayMs: 0, userAgent: AGENT } as WebSettings;
      for await (const item of webSourceKind.read(readContext(settings, { signal: controller.signal, extract }))) {
        if (item.id.endsWith('/')) controller.abort(new Error('run cancelled'));
      }
    },
    { message: 'run cancelled' },
  );
});

test('invalid settings fail the run with the member named', async (t) => {
  await t.throwsAsync(crawl({ seeds: ['not a url'] }), { message: /settings\.seeds\[0\]/ });
  await t.throwsAsync(crawl({ seeds: ['http://127.0.0.1:9/'], deny: ['(unclosed'] }), {
    message: /settings\.deny\[0\] must be a valid regex/,
  });
});

test('sitemaps are read plain or gzipped, as URL sets or indexes', (t) => {
  const urlset =
    '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://e.org/a </loc><lastmod>2024-01-01</lastmod></url><url><loc>https://e.org/b?x=1&amp;y=2</loc></url></urlset>';
  t.deepEqual(parseSitemap(Buffer.from(urlset)), {
    pages: ['https://e.org/a', 'https://e.org/b?x=1&y=2'],
    sitemaps: [],
  });
  const index =
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://e.org/s1.xml.gz</loc></sitemap></sitemapindex>';
  t.deepEqual(parseSitemap(gzipSync(index)), { pages: [], sitemaps: ['https://e.org/s1.xml.gz'] });
});
