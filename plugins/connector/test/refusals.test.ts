import test, { type ExecutionContext } from 'ava';
import type { TestRuntime } from 'vela/testing';
import {
  createSource,
  makePackages,
  runAndWait,
  searchCall,
  searchRecords,
  startRemoteConnector,
  startRemoteSearch,
  startWithSite,
  tempJsonl,
} from './helpers.js';

// A batch the search service refuses as a whole: each document's record keeps its own reason (what was wrong
// with it), in-process through search.importer and over HTTP through the import API's 400 alike.

/** Three documents whose `size` (an INT field of the site) is no integer: each refused for its own value. */
function refusedDocs() {
  return makePackages(3).map((doc, i) => ({ ...doc, size: ['big', 'huge', 'vast'][i] }));
}

async function errorsBySource(vela: TestRuntime, source: string): Promise<Record<string, string>> {
  const page = await searchRecords(vela, source, 'ERROR');
  return Object.fromEntries(
    (page.body.content as Array<{ objectId: string; error: string }>).map((r) => [r.objectId, r.error]),
  );
}

const expected = {
  'pkg-00000': 'attribute "size" must be an integer, got "big"',
  'pkg-00001': 'attribute "size" must be an integer, got "huge"',
  'pkg-00002': 'attribute "size" must be an integer, got "vast"',
};

/** The refused documents run through the source "bad" of `vela`: each one's record keeps its own reason. */
async function runRefused(t: ExecutionContext, vela: TestRuntime): Promise<void> {
  await createSource(vela, 'bad', tempJsonl(refusedDocs(), 'bad.jsonl'), 'Refusing');
  t.like(await runAndWait(vela, '/api/v2/connector/index/bad/all', 'bad'), {
    status: 'COMPLETED',
    indexed: 0,
    errors: 3,
  });
  t.deepEqual(await errorsBySource(vela, 'bad'), expected);
}

test('in-process: every document of a wholly refused batch is recorded with its own reason', async (t) => {
  t.timeout(120_000);
  const vela = await startWithSite(t, 'Refusing');
  await runRefused(t, vela);
});

test('over HTTP: the import API answers a wholly refused batch with 400 and each item’s reasons, which the connector records', async (t) => {
  t.timeout(120_000);
  const remote = await startRemoteSearch(t, 'Refusing');
  const { search } = remote;
  const answer = await searchCall(search, 'POST', '/api/sn/import', {
    turingDocuments: [{ locale: 'en_US', siteNames: ['Ghost'], attributes: { id: 'g' } }],
  });
  t.is(answer.status, 400);
  t.deepEqual(answer.body.rejected, [{ index: 0, id: 'g', site: 'Ghost', reason: 'site "Ghost" does not exist' }]);

  await runRefused(t, await startRemoteConnector(t, remote));
});
