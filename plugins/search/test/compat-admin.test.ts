import test, { type ExecutionContext } from 'ava';
import { onBothDatabases, startTestRuntime, type TestRuntime, testDatabase } from 'vela/testing';
import { createSite, json } from './fixtures.js';

// What the original's administration clients send: its beans' member names and forms keep working, and a site's
// export carries all of its configuration, the plugins' settings included.

async function start(t: ExecutionContext, databaseUrl: string | undefined, plugins = ['search']): Promise<TestRuntime> {
  // The LLM instance's address is never called: the site has no documents to embed and nobody chats.
  const config = { runtime: { network: { allowHosts: ['127.0.0.1'] } } };
  const vela = await startTestRuntime({ plugins, databaseUrl, config });
  t.teardown(() => vela.stop());
  return vela;
}

onBothDatabases(
  test,
  "a spotlight written as the original's bean is kept, and read back under both names",
  async (t, db) => {
    const vela = await start(t, db);
    const site = await createSite(vela, 'Sample');
    const bean = {
      id: null,
      name: 'Sale',
      description: null,
      language: 'pt-BR',
      managed: 1,
      unmanagedId: null,
      provider: 'TURING',
      modificationDate: '2026-03-01T10:00:00',
      turSNSite: { id: 'ignored' },
      turSNSiteSpotlightTerms: [{ name: 'oferta' }, { id: 'term-1', name: 'Promo' }],
      turSNSiteSpotlightDocuments: [
        {
          position: 1,
          title: 'Big sale',
          type: 'Page',
          referenceId: null,
          content: null,
          link: 'https://shop.example',
        },
      ],
    };
    const created = await json(vela, 'POST', '/api/sn/Sample/spotlight', bean);
    t.is(created.status, 201, JSON.stringify(created.body));
    t.like(created.body, {
      name: 'Sale',
      description: '',
      locale: 'pt_BR',
      language: 'pt_BR',
      managed: true,
      provider: 'TURING',
      modificationDate: '2026-03-01T10:00:00',
      terms: ['oferta', 'Promo'],
      turSNSite: { id: site.id, name: 'Sample' },
    });
    t.deepEqual(created.body.turSNSiteSpotlightTerms, [{ name: 'oferta' }, { name: 'Promo' }]);
    t.deepEqual(created.body.turSNSiteSpotlightDocuments, created.body.documents);
    t.like(created.body.documents[0], { position: 1, title: 'Big sale', content: '', link: 'https://shop.example' });
    const path = `/api/sn/Sample/spotlight/${created.body.id}`;

    // A client of the original changes its names and sends everything back; one of Vela changes Vela's.
    const read = (await json(vela, 'GET', path)).body;
    const theirs = await json(vela, 'PUT', path, { ...read, turSNSiteSpotlightTerms: [{ name: 'desconto' }] });
    t.is(theirs.status, 200, JSON.stringify(theirs.body));
    t.deepEqual(theirs.body.terms, ['desconto']);
    const mine = await json(vela, 'PUT', path, { ...theirs.body, terms: ['saldo'], language: 'en_US' });
    t.is(mine.status, 200, JSON.stringify(mine.body));
    t.deepEqual([mine.body.terms, mine.body.locale], [['saldo'], 'en_US']);
    const both = await json(vela, 'PUT', path, {
      ...mine.body,
      terms: ['a'],
      turSNSiteSpotlightTerms: [{ name: 'b' }],
    });
    t.is(both.status, 400);
    t.deepEqual(both.body, {
      error: 'invalid_parameter',
      message:
        'body.terms and body.turSNSiteSpotlightTerms (its name in the original) differ: send one of them, or the same value in both',
    });
    const badLocale = await json(vela, 'POST', '/api/sn/Sample/spotlight', { name: 'x', language: 'fr-FR' });
    t.is(badLocale.status, 400);
    t.regex(badLocale.body.message, /^body\.language must be one of the locales of site "Sample"/);
    const badDate = await json(vela, 'PUT', path, { modificationDate: 'yesterday' });
    t.deepEqual([badDate.status, badDate.body.error], [400, 'invalid_parameter']);

    // The spotlight is matched by the search in its locale.
    const searched = await json(vela, 'GET', '/api/sn/Sample/search?q=saldo&_setlocale=en_US', undefined, {
      authorization: '',
    });
    t.deepEqual(
      searched.body.widget.spotlights.map((d: any) => d.title),
      ['Big sale'],
    );
    const structure = (await json(vela, 'GET', '/api/sn/Sample/spotlight/structure')).body;
    t.like(structure, { language: 'en_US', turSNSiteSpotlightTerms: [], turSNSite: { id: site.id, name: 'Sample' } });
  },
);

onBothDatabases(
  test,
  "the original's site form: 0/1 switches, DEFAULT, nulls and its members Vela lacks",
  async (t, db) => {
    const vela = await start(t, db);
    const form = {
      id: null,
      name: 'Bean',
      description: null,
      rowsPerPage: 12,
      wildcardNoResults: 0,
      wildcardAlways: 1,
      exactMatch: 1,
      exactMatchField: 'exact_match',
      defaultField: '_text_',
      thesaurus: 0,
      facet: 1,
      itemsPerFacet: null,
      hl: 0,
      hlPre: '<b>',
      hlPost: '</b>',
      mlt: 1,
      facetType: 'OR',
      facetItemType: 'DEFAULT',
      facetSort: 'ALPHABETICAL',
      spellCheck: 1,
      spellCheckFixes: 0,
      spotlightWithResults: 1,
      defaultTitleField: 'title',
      turSEInstance: { id: 'solr', title: 'Solr', host: 'localhost', port: 8983, turSEVendor: { id: 'SOLR' } },
      turSNSiteGenAi: { id: null, enabled: false, turLLMInstance: null, turStoreInstance: null, systemPrompt: null },
      createdBy: 'admin',
      creationDate: '2026-01-01T00:00:00Z',
      lastModifiedBy: null,
      lastModifiedDate: null,
    };
    const created = await json(vela, 'POST', '/api/sn', form);
    t.is(created.status, 201, JSON.stringify(created.body));
    t.like(created.body, {
      name: 'Bean',
      description: '',
      rowsPerPage: 12,
      wildcardNoResults: false,
      wildcardAlways: true,
      facet: true,
      itemsPerFacet: 10,
      hl: false,
      hlPre: '<b>',
      mlt: true,
      facetType: 'OR',
      facetItemType: 'AND',
      facetSort: 'ALPHABETICAL',
      spellCheck: true,
      spellCheckFixes: false,
      spotlightWithResults: true,
    });
    t.false('turSEInstance' in created.body || 'exactMatch' in created.body, 'members Vela lacks are not kept');

    const updated = await json(vela, 'PUT', `/api/sn/${created.body.id}`, {
      ...form,
      id: 'some-other-id',
      hl: 1,
      facetType: 'DEFAULT',
      itemsPerFacet: null,
      turSNSiteGenAi: { enabled: true },
    });
    t.is(updated.status, 200, JSON.stringify(updated.body));
    t.like(updated.body, { id: created.body.id, hl: true, facetType: 'OR', itemsPerFacet: 10 });
    for (const [body, message] of [
      [{ hl: 2 }, /body\.hl must be/],
      [{ facetType: 'XOR' }, /body\.facetType must be one of/],
      [{ nosuch: 1 }, /body\.nosuch is not a known member/],
    ] as const) {
      const refused = await json(vela, 'PUT', '/api/sn/Bean', body);
      t.deepEqual([refused.status, refused.body.error], [400, 'validation_failed'], JSON.stringify(body));
      t.regex(refused.body.message, message);
    }
  },
);

/** An export without what changes from one writing to the next: ids, dates, the site a record belongs to. */
function withoutIdsAndDates(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIdsAndDates);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['id', 'siteId', 'createdAt', 'updatedAt', 'exportedAt'].includes(key))
      .map(([key, member]) => [key, withoutIdsAndDates(member)]),
  );
}

const PLUGINS = ['search', 'genai', 'semantic'];
const SECRET = 'sk-export-must-never-carry-this';

/** The Sample site with fields, two locales, a managed and an unmanaged spotlight, GenAI and semantic settings. */
async function configuredSite(vela: TestRuntime): Promise<void> {
  await createSite(vela, 'Sample', { rowsPerPage: 7, defaultLocale: 'pt_BR', spotlightWithResults: true });
  const instance = await json(vela, 'POST', '/api/llm', {
    id: 'writer',
    title: 'Writer',
    vendor: 'OPENAI_COMPATIBLE',
    url: 'http://127.0.0.1:9/v1',
    modelName: 'chat',
    embeddingModel: 'embed',
    apiKey: SECRET,
  });
  if (instance.status !== 201) throw new Error(JSON.stringify(instance.body));
  const writes = [
    await json(vela, 'POST', '/api/sn/Sample/spotlight', {
      name: 'Editors',
      language: 'en_US',
      terms: ['editor'],
      documents: [{ position: 2, title: 'Editors', referenceId: 'doc-0001' }],
    }),
    await json(vela, 'POST', '/api/sn/import?wait=true', {
      turingDocuments: [
        {
          locale: 'pt_BR',
          siteNames: ['Sample'],
          attributes: {
            type: 'TUR_SPOTLIGHT',
            id: 'games',
            name: 'Jogos',
            source_apps: 'CMS',
            modification_date: '2026-11-20T10:00:00',
            terms: 'jogo, jogos',
            content: JSON.stringify([{ position: 1, title: 'Semana', link: 'https://cms.example/jogos' }]),
          },
        },
      ],
    }),
    await json(vela, 'PUT', '/api/sn/Sample/genai', {
      enabled: true,
      llmInstanceId: 'writer',
      systemPrompt: 'Answer briefly.',
    }),
    await json(vela, 'PUT', '/api/sn/Sample/semantic', {
      enabled: true,
      embedder: 'writer',
      fields: ['title'],
      rrfK: 30,
    }),
  ];
  for (const w of writes) if (w.status >= 300) throw new Error(JSON.stringify(w.body));
}

onBothDatabases(
  test,
  'a site exported, deleted and imported exports the same again, plugin settings included',
  async (t, db) => {
    const vela = await start(t, db, PLUGINS);
    await configuredSite(vela);
    const first = await json(vela, 'GET', '/api/sn/Sample/export');
    t.is(first.status, 200);
    t.false(JSON.stringify(first.body).includes(SECRET), 'no secret is exported');
    const [entry] = first.body.sites;
    t.deepEqual(
      entry.spotlights.map((s: any) => [s.name, s.locale, s.managed, s.unmanagedId, s.provider, s.terms]),
      [
        ['Editors', 'en_US', true, null, 'VELA', ['editor']],
        ['Jogos', 'pt_BR', false, 'games', 'CMS', ['jogo', 'jogos']],
      ],
    );
    t.deepEqual(entry.genai, {
      enabled: true,
      llmInstanceId: 'writer',
      llmInstanceTitle: 'Writer',
      systemPrompt: 'Answer briefly.',
    });
    t.like(entry.semantic, { enabled: true, embedder: 'writer', embedderTitle: 'Writer', fields: ['title'], rrfK: 30 });

    t.is((await json(vela, 'DELETE', '/api/sn/Sample')).status, 200);
    const imported = await json(vela, 'POST', '/api/sn/import-config', first.body);
    t.deepEqual(imported.body, { restored: [{ name: 'Sample', action: 'created' }] });
    const second = await json(vela, 'GET', '/api/sn/Sample/export');
    t.deepEqual(withoutIdsAndDates(second.body), withoutIdsAndDates(first.body));
    t.not(second.body.sites[0].id, entry.id, 'the site was made anew');
    t.like((await json(vela, 'GET', '/api/sn/Sample/genai')).body, { llmInstanceId: 'writer', custom: true });

    // Imported again over itself, with the plugins' members left out: the site is replaced whole.
    const { genai: _g, semantic: _s, ...bare } = entry;
    const replaced = await json(vela, 'POST', '/api/sn/import-config', { sites: [{ ...bare, spotlights: [] }] });
    t.deepEqual(replaced.body, { restored: [{ name: 'Sample', action: 'replaced' }] });
    const third = (await json(vela, 'GET', '/api/sn/Sample/export')).body.sites[0];
    t.deepEqual([third.spotlights, third.genai, third.semantic], [[], undefined, undefined]);
  },
);

onBothDatabases(
  test,
  'an export imported where its LLM instance does not exist: built-in instead, and said',
  async (t, db) => {
    const vela = await start(t, db, PLUGINS);
    await configuredSite(vela);
    const file = (await json(vela, 'GET', '/api/sn/export')).body;
    const other = await start(t, db && (await testDatabase(t)).url, PLUGINS);
    const imported = await json(other, 'POST', '/api/sn/import-config', file);
    t.is(imported.status, 200, JSON.stringify(imported.body));
    t.deepEqual(imported.body.restored[0].warnings, [
      'genai: LLM instance "Writer" (id writer) does not exist here: the site chats with the built-in instance until another is chosen',
      'semantic: LLM instance "Writer" (id writer) does not exist here or offers no embeddings: the site embeds with the built-in embedder until another is chosen',
    ]);
    t.like((await json(other, 'GET', '/api/sn/Sample/genai')).body, {
      enabled: true,
      llmInstanceId: 'builtin',
      systemPrompt: 'Answer briefly.',
    });
    t.like((await json(other, 'GET', '/api/sn/Sample/semantic')).body, {
      enabled: true,
      embedder: 'builtin',
      rrfK: 30,
    });
    const spotlights = (await json(other, 'GET', '/api/sn/Sample/spotlight')).body;
    t.deepEqual(spotlights.map((s: any) => s.name).sort(), ['Editors', 'Jogos']);
    // A bad plugin member is a warning, not a refusal: the site is restored with that plugin's defaults.
    const odd = await json(other, 'POST', '/api/sn/import-config', {
      sites: [{ ...file.sites[0], genai: { enabled: 'yes' } }],
    });
    t.is(odd.status, 200);
    t.regex(odd.body.restored[0].warnings[0], /^genai: not restored, the site has the default GenAI settings/);
    t.is((await json(other, 'GET', '/api/sn/Sample/genai')).body.custom, false);
    // A spotlight in a locale the site does not have refuses the file before anything is written.
    const refused = await json(other, 'POST', '/api/sn/import-config', {
      sites: [{ ...file.sites[0], spotlights: [{ name: 'x', locale: 'fr_FR' }] }],
    });
    t.deepEqual([refused.status, refused.body.error], [400, 'validation_failed']);
    t.regex(refused.body.message, /body\.sites\[0\]\.spotlights\[0\]\.locale "fr_FR" is not one of the site's locales/);
  },
);
