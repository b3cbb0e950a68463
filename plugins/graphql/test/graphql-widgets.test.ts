import test from 'ava';
import { type Browser, chromium } from 'playwright-core';
import { browserAvailable, CHROMIUM, CHROMIUM_ARGS, startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, json, makeDocs } from '../../search/test/fixtures.js';

let vela: TestRuntime;
let browser: Browser | undefined;
const docs = makeDocs(30);

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search', 'graphql'] });
  await createSite(vela, 'Sample', { spellCheck: true, spellCheckFixes: true, mlt: true, spotlightWithResults: true });
  await importDocs(vela, docs);
  await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'Help',
    terms: ['python'],
    documents: [{ position: 1, title: 'Python help', link: 'https://help.example' }],
  });
  if (browserAvailable()) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.after.always(async () => {
  await browser?.close();
  await vela?.stop();
});

const gql = async (query: string) => {
  const r = await vela.fetch('search', '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await r.json()) as any;
};

test('the GraphQL widget has spellCheck, similar and spotlights, as REST answers them', async (t) => {
  const r = await gql(`{ siteSearch(siteName: "Sample", locale: "en_US", searchParams: { q: "pyhton", rows: 3 }) {
    results { document { elevate fields } }
    widget {
      spellCheck { correctedText usingCorrectedText original { text link } corrected { text link } }
      similar { id title type url }
      spotlights { position title link referenceId }
    }
  } }`);
  t.falsy(r.errors, JSON.stringify(r.errors));
  const rest = (
    await json(vela, 'GET', '/api/sn/Sample/search?q=pyhton&_setlocale=en_US&rows=3', undefined, { authorization: '' })
  ).body;
  const widget = r.data.siteSearch.widget;
  t.is(widget.spellCheck.usingCorrectedText, true);
  t.is(widget.spellCheck.corrected.text, 'python');
  t.deepEqual(widget.similar, rest.widget.similar);
  t.true(widget.similar.length > 0);
  t.deepEqual(widget.spotlights, [
    { position: 1, title: 'Python help', link: 'https://help.example', referenceId: null },
  ]);
  t.true(r.data.siteSearch.results.document[0].elevate);
  // Links are the REST ones, built from the arguments.
  t.is(widget.spellCheck.original.link, '/api/sn/Sample/search?q=pyhton&_setlocale=en_US&p=1&rows=3&nfpr=1');
  const noCorrection = await gql(
    '{ siteSearch(siteName: SAMPLE, locale: "en_US", searchParams: { q: "pyhton", nfpr: 1 }) { queryContext { count } } }',
  );
  t.is(noCorrection.data.siteSearch.queryContext.count, 0);
});

test('GET /graphql serves GraphiQL from local files under a CSP without unsafe-inline', async (t) => {
  const r = await vela.fetch('search', '/graphql');
  t.is(r.status, 200);
  t.regex(r.headers.get('content-type')!, /text\/html/);
  const csp = r.headers.get('content-security-policy')!;
  t.regex(csp, /script-src 'self';/);
  t.notRegex(csp, /unsafe-inline|unsafe-eval|https?:/);
  const html = await r.text();
  t.notRegex(html, /<script>|style=|https?:\/\//, 'no inline script or style, nothing from another origin');
  for (const asset of [
    'react.production.min.js',
    'react-dom.production.min.js',
    'graphiql.min.js',
    'graphiql.min.css',
    'graphiql-page.js',
  ]) {
    const file = await vela.fetch('search', `/graphql/assets/${asset}`);
    t.is(file.status, 200, asset);
  }
  t.is((await vela.fetch('search', '/graphql/assets/..%2Fpackage.json')).status, 404);
  if (!browser) return t.log('no Chromium: the page was not rendered');
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(vela.url('search')) && !req.url().startsWith('data:'))
      problems.push(`request to ${req.url()}`);
  });
  await page.goto(vela.url('search', '/graphql'));
  await page.waitForSelector('.graphiql-container');
  await page.locator('.graphiql-execute-button').click();
  await page.waitForFunction(() => document.querySelector('.result-window')?.textContent?.includes('Sample'));
  t.deepEqual(problems, [], 'no CSP violation, script error or outside request');
  await page.close();
});
