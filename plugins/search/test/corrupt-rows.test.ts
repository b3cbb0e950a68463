import test from 'ava';
import type { Database, Logger } from 'vela/plugin';
import { startTestRuntime } from 'vela/testing';
import { SpotlightStore } from '../spotlights/spotlight-store.js';
import { SiteStore } from '../store/site-store.js';
import { createSite, importDocs, json, makeDocs, search } from './fixtures.js';

/** A logger that keeps what was logged at warn. */
function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = {
    warn: (_fields: unknown, msg: string) => warnings.push(msg),
    info: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  } as unknown as Logger;
  return { logger, warnings };
}

test('a site whose settings row is no JSON is left out with one warning naming it, the other sites load, and it is back once repaired', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  await createSite(vela, 'Good');
  const broken = await createSite(vela, 'Broken');
  await db('search_sites').where({ id: broken.id }).update({ settings: '{"rowsPerPage": 1' });

  const { logger, warnings } = recordingLogger();
  const sites = new SiteStore(db, logger);
  await sites.load();
  t.truthy(sites.find('Good'));
  t.is(sites.find('Broken'), undefined);
  await sites.refresh();
  await sites.load();
  t.is(warnings.length, 1, 'one warning, not one per load or refresh');
  t.regex(
    warnings[0]!,
    new RegExp(`row "${broken.id}" of table search_sites is corrupt: column settings is not valid JSON`),
  );

  const changes: string[] = [];
  sites.onChange((change) => {
    changes.push(`${change.kind} ${change.siteId}`);
  });
  await db('search_sites').where({ id: broken.id }).update({ settings: '{}' });
  await sites.refresh();
  t.truthy(sites.find('Broken'), 'repaired, the site is read again');
  t.deepEqual(changes, [`site-created ${broken.id}`]);
});

test('a spotlight whose terms are no JSON is left out with one warning; the site and its other spotlights stay', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  await createSite(vela, 'Sample');
  const kept = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'Kept',
    terms: ['kept'],
    documents: [{ position: 1, title: 'Kept' }],
  });
  const cut = await json(vela, 'POST', '/api/sn/Sample/spotlight', {
    name: 'Cut',
    terms: ['cut'],
    documents: [{ position: 1, title: 'Cut' }],
  });
  t.is(cut.status, 201);
  await db('search_spotlights').where({ id: cut.body.id }).update({ terms: '["cut"' });

  const { logger, warnings } = recordingLogger();
  const store = new SpotlightStore(db, new SiteStore(db, logger), logger);
  await store.load();
  await store.load();
  t.deepEqual(
    store.list(kept.body.siteId).map((s) => s.name),
    ['Kept'],
  );
  t.is(warnings.length, 1);
  t.regex(warnings[0]!, /table search_spotlights is corrupt: column terms/);
});

test('a stored document that is no JSON answers the search showing it 500 corrupt_row, naming its table and id', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search'] });
  t.teardown(() => vela.stop());
  const db = vela.runtime.resolve('db') as Database;
  await createSite(vela, 'Sample');
  const [doc] = makeDocs(1);
  await importDocs(vela, [doc!]);
  t.is(await db('search_documents').where({ doc_id: doc!.id }).update({ attributes: '{"id": ' }), 1);
  // The indexer kept what it just indexed for the pages: emptied, the page is read from the table.
  t.is((await json(vela, 'POST', '/api/system/cache/clear')).status, 200);

  const answer = await search(vela, 'q=*&_setlocale=en_US');
  t.is(answer.status, 500);
  t.is(answer.body.error, 'corrupt_row');
  t.regex(answer.body.message, new RegExp(`row "${doc!.id}" of table search_documents is corrupt: column attributes`));
});
