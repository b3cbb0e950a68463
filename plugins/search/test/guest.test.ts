import test from 'ava';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import { createSite, importDocs, makeDocs, search } from './fixtures.js';

let vela: TestRuntime;
const docs = makeDocs(25);

test.before(async () => {
  vela = await startTestRuntime({ plugins: ['search'] });
  await createSite(vela, 'Sample', { description: 'Packages' });
  await createSite(vela, 'Alpha', { locales: ['en_US'] });
  await importDocs(vela, docs);
});
test.after.always(async () => {
  await vela?.stop();
});

const guest = (path: string, init: RequestInit = {}) => vela.fetch('search', path, init);

test('the guest site list names every site with its locales, without credentials', async (t) => {
  const res = await guest('/api/v2/guest/sn');
  t.is(res.status, 200);
  t.is(res.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS header');
  t.deepEqual(await res.json(), [
    {
      name: 'Alpha',
      description: '',
      locales: [{ locale: 'en_US', link: '/api/v2/guest/sn/Alpha/search?q=*&_setlocale=en_US' }],
    },
    {
      name: 'Sample',
      description: 'Packages',
      locales: [
        { locale: 'en_US', link: '/api/v2/guest/sn/Sample/search?q=*&_setlocale=en_US' },
        { locale: 'pt_BR', link: '/api/v2/guest/sn/Sample/search?q=*&_setlocale=pt_BR' },
      ],
    },
  ]);
  const one = await guest('/api/v2/guest/sn/sample');
  t.is(one.status, 200);
  t.is(((await one.json()) as { name: string }).name, 'Sample', 'by name, ignoring case');
  t.is((await guest('/api/v2/guest/sn/Nowhere')).status, 404);
});

test('a guest searches any site; the links of the answer stay on the guest path', async (t) => {
  const res = await guest('/api/v2/guest/sn/Sample/search?q=*&_setlocale=en_US&rows=10', {
    headers: { origin: 'https://www.example.org' },
  });
  t.is(res.status, 200);
  t.is(res.headers.get('access-control-allow-origin'), '*', 'public, so any origin may read it');
  const body = (await res.json()) as any;
  t.is(body.queryContext.count, docs.length);
  t.is(body.results.document.length, 10);
  const next = body.pagination.find((p: { type: string }) => p.type === 'NEXT');
  t.is(next.href, '/api/v2/guest/sn/Sample/search?q=*&_setlocale=en_US&rows=10&p=2');
  const followed = (await (await guest(next.href)).json()) as any;
  t.is(followed.queryContext.page, 2);
  const facetLink = body.widget.facet[0].facets[0].link as string;
  t.true(facetLink.startsWith('/api/v2/guest/sn/Sample/search?'));
  t.is((await guest(facetLink)).status, 200);
  // The same search as the public one.
  const plain = (await search(vela, 'q=*&_setlocale=en_US&rows=10')).body;
  t.deepEqual(
    body.results.document.map((d: { fields: { id: string } }) => d.fields.id),
    plain.results.document.map((d: { fields: { id: string } }) => d.fields.id),
  );
  t.is((await guest('/api/v2/guest/sn/Sample/search?q=*&_setlocale=de_DE')).status, 404);
  t.is((await guest('/api/v2/guest/sn/Sample/search?q=*')).status, 400);
});

test('guest access is read only: no other path or method answers', async (t) => {
  for (const [method, path] of <Array<[string, string]>>[
    ['POST', '/api/v2/guest/sn'],
    ['DELETE', '/api/v2/guest/sn/Sample'],
    ['POST', '/api/v2/guest/sn/Sample/search'],
    ['GET', '/api/v2/guest/sn/Sample/field'],
    ['GET', '/api/v2/guest/users'],
  ]) {
    const res = await guest(path, { method });
    t.is(res.status, 404, `${method} ${path}`);
    t.is(res.headers.get('www-authenticate'), null);
  }
});
