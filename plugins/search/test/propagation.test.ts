import test from 'ava';
import { type ChildRuntime, childCaller, measureRounds, sharedDatabaseTest, timeUntil } from 'vela/testing';
import { makeDocs, SITE_FIELDS } from './fixtures.js';

// The delays are measured here and judged by scripts/bench/propagation.ts (the goal: an import
// searchable on every process within 250 ms, on the median of seven rounds). This test asserts what holds on any
// machine: with the polls off, the notices alone bring every change to B.
// Any single wait (timeUntil) gives up after 10 s: far beyond the goal on a loaded machine, far below the poll (off
// here).

const call = childCaller('search');

sharedDatabaseTest(
  test,
  'two search processes on one PostgreSQL: with the polls off, imports, sites, spotlights and keys reach the other through the notices',
  // The polls (sites, tokens, spotlights and the change log) are set far out, so only the change feed
  // (LISTEN/NOTIFY) and the store lookup of unknown keys can explain what B sees.
  { config: { plugins: { search: { indexer: { pollMs: 600_000 } } } }, args: ['--plugins', 'search'] },
  async (t, a, b) => {
    // Searches are public: no credentials, so no administrator check in the way.
    const search = (vela: ChildRuntime, query: string) =>
      call(vela, 'GET', `/api/sn/Shared/search?${query}&_setlocale=en_US`, undefined, {});
    // A first request warms B up (the first one loads the route's code): the rounds measure propagation only.
    t.is((await search(b, 'q=warm')).status, 404);

    const created = await call(a, 'POST', '/api/sn', { name: 'Shared', fields: SITE_FIELDS, locales: ['en_US'] });
    t.is(created.status, 201, JSON.stringify(created.body));
    const siteMs = await timeUntil(
      async () => (await search(b, 'q=*')).status === 200,
      'B knowing the site created on A',
    );

    // Each round: 20 documents with a word of their own, acknowledged on A (not waited for), then searched on B.
    await measureRounds(t, 'import searchable on the other process', async (round) => {
      const word = `zyxround${round}word`;
      const docs = makeDocs(20, round + 3).map((d, i) => ({ ...d, id: `r${round}-${i}`, title: `${word} ${d.title}` }));
      const imported = await call(a, 'POST', '/api/sn/import', {
        turingDocuments: docs.map((attributes) => ({ locale: 'en_US', siteNames: ['Shared'], attributes })),
      });
      t.is(imported.status, 200, JSON.stringify(imported.body));
      return timeUntil(
        async () => (await search(b, `q=${word}`)).body.queryContext?.count === 20,
        `B finding round ${round}`,
      );
    });

    // A spotlight made on A shows on B.
    const spot = await call(a, 'POST', '/api/sn/Shared/spotlight', {
      name: 'pin',
      locale: 'en_US',
      terms: ['zyxround0word'],
      documents: [{ position: 1, referenceId: 'r0-3' }],
    });
    t.is(spot.status, 201, JSON.stringify(spot.body));
    const showsSpotlight = async (vela: ChildRuntime) =>
      JSON.stringify((await search(vela, 'q=zyxround0word')).body).includes(spot.body.documents[0].id);
    t.true(await showsSpotlight(a));
    const spotlightMs = await timeUntil(() => showsSpotlight(b), 'B showing the spotlight made on A');

    // An API token created on A works on B at once (looked up before refused), and stops when deleted on A.
    const token = await call(a, 'POST', '/api/dev/token', { title: 'fresh', description: '' });
    t.is(token.status, 201, JSON.stringify(token.body));
    const withKey = async () => (await call(b, 'GET', '/api/sn', undefined, { key: token.body.token })).status;
    t.is(await withKey(), 200);
    t.is((await call(a, 'DELETE', `/api/dev/token/${token.body.id}`)).status, 200);
    const revokedMs = await timeUntil(async () => (await withKey()) === 401, 'B refusing the token deleted on A');
    t.log(
      `measured on B: site ${siteMs.toFixed(1)} ms, spotlight ${spotlightMs.toFixed(1)} ms, token deletion ${revokedMs.toFixed(1)} ms`,
    );
  },
);
