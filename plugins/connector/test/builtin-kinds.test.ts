import { rmSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { startTestSite } from './fixtures/test-site.js';
import {
  call,
  createFolderSource,
  runAndWait,
  searchCall,
  searchIds,
  startWebSource,
  startWithSite,
} from './helpers.js';

test('the filesystem kind runs through the pipeline: files extracted on the worker pool, indexed, and de-indexed when deleted', async (t) => {
  const vela = await startWithSite(t, 'Files');
  const { root, created } = await createFolderSource(vela, 'files', 'Files', {
    'guide.html':
      '<html><head><title>Operator guide</title></head><body><p>Rotate the flux capacitor weekly.</p><script>ignored()</script></body></html>',
    'notes.md': '# Release notes\n\nThe *zeppelin* release adds schedules.\n',
    'plain.txt': 'A plain text file about walruses.',
  });
  t.like(created.body.settings, { root, includeHidden: false });

  const first = await runAndWait(vela, '/api/v2/connector/index/files/all', 'files');
  t.like(first, { status: 'COMPLETED', documentCount: 3, indexed: 3, errors: 0 });
  t.deepEqual(await searchIds(vela, 'Files'), ['guide.html', 'notes.md', 'plain.txt']);
  const flux = await searchCall(vela, 'GET', '/api/sn/Files/search?q=capacitor&_setlocale=en_US');
  t.deepEqual(
    flux.body.results.document.map((d: any) => d.fields.id),
    ['guide.html'],
  );
  t.is(flux.body.results.document[0].fields.title, 'Operator guide');

  rmSync(path.join(root, 'plain.txt'));
  t.like(await runAndWait(vela, '/api/v2/connector/index/files/all', 'files'), {
    documentCount: 2,
    unchanged: 2,
    deindexed: 1,
  });
  t.deepEqual(await searchIds(vela, 'Files'), ['guide.html', 'notes.md']);
});

test('the web kind runs through the pipeline: crawled pages are indexed and a second crawl sends nothing unchanged', async (t) => {
  const site = await startTestSite((origin) => ({
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
    '/': {
      type: 'text/html',
      body: `<html><head><title>Home</title></head><body>Welcome aboard. <a href="/a">A</a> <a href="${origin}/private/x">secret</a></body></html>`,
    },
    '/a': {
      type: 'text/html',
      body: '<html><head><title>Page A</title></head><body>About aardvarks. <a href="/b">B</a></body></html>',
    },
    '/b': { type: 'text/html', body: '<html><head><title>Page B</title></head><body>Beyond the bend.</body></html>' },
    '/private/x': { type: 'text/html', body: '<html><body>never</body></html>' },
  }));
  t.teardown(() => site.close());
  const vela = await startWebSource(t, site);

  const first = await runAndWait(vela, '/api/v2/connector/index/web/all', 'web');
  t.like(first, { status: 'COMPLETED', indexed: 3, errors: 0 });
  t.deepEqual(await searchIds(vela, 'Web'), [`${site.origin}/`, `${site.origin}/a`, `${site.origin}/b`]);
  t.false(site.paths().includes('/private/x'), 'robots.txt is obeyed');
  const found = await searchCall(vela, 'GET', '/api/sn/Web/search?q=aardvarks&_setlocale=en_US');
  t.deepEqual(
    found.body.results.document.map((d: any) => d.fields.id),
    [`${site.origin}/a`],
  );
  t.like(await runAndWait(vela, '/api/v2/connector/index/web/all', 'web'), {
    status: 'COMPLETED',
    indexed: 0,
    unchanged: 3,
  });
});

test('a web source whose robots.txt redirects to a refused address: the run completes with its pages as errors, de-indexes nothing, and its notes say why', async (t) => {
  let robots: { status: number; headers?: Record<string, string>; type?: string; body?: string } = {
    status: 200,
    type: 'text/plain',
    body: 'User-agent: *\n',
  };
  const site = await startTestSite((origin) => ({
    get '/robots.txt'() {
      return robots;
    },
    '/': {
      type: 'text/html',
      body: `<html><head><title>Home</title></head><body>Welcome. <a href="${origin}/a">A</a></body></html>`,
    },
    '/a': { type: 'text/html', body: '<html><head><title>Page A</title></head><body>About aardvarks.</body></html>' },
  }));
  t.teardown(() => site.close());
  // Only the test site's host and port are allowed: localhost (another name of the same loopback) is refused by
  // the guard when it resolves, before any connection.
  const vela = await startWebSource(t, site);
  t.like(await runAndWait(vela, '/api/v2/connector/index/web/all', 'web'), {
    status: 'COMPLETED',
    indexed: 2,
    errors: 0,
    notes: [],
  });

  robots = { status: 301, headers: { location: `http://localhost:${site.port}/robots.txt` } };
  const refused = await runAndWait(vela, '/api/v2/connector/index/web/all', 'web');
  t.like(refused, { status: 'COMPLETED', documentCount: 1, errors: 1, deindexed: 0 });
  t.is(refused.notes.length, 1);
  t.regex(
    refused.notes[0],
    /^not fetched: robots\.txt of http:\/\/127\.0\.0\.1:\d+ is unreachable \(its redirect to http:\/\/localhost:\d+\/robots\.txt: .*refused by the outbound address guard \(loopback\).*\); as RFC 9309 asks, nothing is fetched from that host this run \(its pages are recorded as errors, so nothing is de-indexed\)$/,
  );
  t.deepEqual(
    await searchIds(vela, 'Web'),
    [`${site.origin}/`, `${site.origin}/a`],
    'what the first run indexed stays',
  );
  t.deepEqual(site.paths(`localhost:${site.port}`), [], 'the refused address was never connected to');
});

test('a web source whose seed is an internal address is refused when saved, naming the member and the rule, unless the operator allows the host', async (t) => {
  const vela = await startWithSite(t, 'Web');
  const source = (seeds: string[]) => ({
    name: 'inside',
    kind: 'web',
    sites: ['Web'],
    settings: { seeds, delayMs: 0, sitemaps: false },
  });
  const refused = await call(
    vela,
    'POST',
    '/api/v2/connector/source',
    source(['http://[::1]:8080/', 'http://127.0.0.1:8080/admin']),
  );
  t.is(refused.status, 400);
  t.regex(refused.body.message, /settings\.seeds\[1\] is refused by the outbound address guard \(loopback\)/);
  t.regex(refused.body.message, /runtime\.network\.allowHosts/);
  const metadata = await call(
    vela,
    'POST',
    '/api/v2/connector/source',
    source(['http://169.254.169.254/latest/meta-data/']),
  );
  t.regex(metadata.body.message, /\(cloud metadata\)/);
  t.is((await call(vela, 'GET', '/api/v2/connector/source/inside')).status, 404, 'nothing was stored');
});
