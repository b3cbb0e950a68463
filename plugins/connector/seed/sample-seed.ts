import { fileURLToPath } from 'node:url';
import type { Database, Logger } from 'vela/plugin';
import type { RunStore } from '../monitoring/run-store.js';
import type { RunCoordinator } from '../pipeline/run-coordinator.js';
import type { SearchTarget, SiteDefinition } from '../search-target/search-target.js';
import type { SourceInput, SourceStore } from '../sources/source-store.js';

export const SAMPLE_SOURCE = 'sample';
const SEEDED_KEY = 'sample.seeded';
const SAMPLE_FILE = fileURLToPath(new URL('../sample/debian-packages.jsonl.gz', import.meta.url));

/** The Sample site: 3,000 Debian packages with four facets. */
export const SAMPLE_SITE: SiteDefinition = {
  name: 'Sample',
  description: "Debian packages, indexed by the connector's sample source",
  locales: ['en_US'],
  defaultTitleField: 'title',
  defaultTextField: 'text',
  defaultDescriptionField: 'text',
  defaultDateField: null,
  defaultImageField: null,
  defaultURLField: 'url',
  fields: [
    { name: 'id', type: 'STRING' },
    { name: 'title', type: 'TEXT', hl: true, boost: 2 },
    { name: 'text', type: 'TEXT', hl: true },
    { name: 'section', type: 'STRING', facet: true, facetName: 'Sections', facetPosition: 1 },
    { name: 'arch', type: 'STRING', facet: true, facetName: 'Architectures', facetPosition: 2 },
    { name: 'priority', type: 'STRING', facet: true, facetName: 'Priorities', facetPosition: 3 },
    {
      name: 'tags',
      type: 'STRING',
      multiValued: true,
      facet: true,
      facetName: 'Tags',
      facetItemType: 'OR',
      facetPosition: 4,
    },
    { name: 'maintainer', type: 'STRING' },
    { name: 'version', type: 'STRING' },
    { name: 'size', type: 'INT' },
    { name: 'url', type: 'STRING' },
  ],
};

function sampleSource(): SourceInput {
  return {
    name: SAMPLE_SOURCE,
    kind: 'jsonl',
    description: '3,000 Debian packages shipped with Vela (plugins/connector/sample/)',
    sites: [SAMPLE_SITE.name],
    locale: 'en_US',
    schedule: null,
    settings: {
      path: SAMPLE_FILE,
      idField: 'name',
      fields: {
        title: 'title',
        text: 'body',
        section: 'section',
        arch: 'arch',
        priority: 'priority',
        tags: 'tags',
        maintainer: 'maintainer',
        version: 'version',
        size: 'size',
        url: { template: 'https://packages.debian.org/sid/{name}' },
      },
    },
  };
}

export interface SeedDependencies {
  db: Database;
  sources: SourceStore;
  runs: RunStore;
  coordinator: RunCoordinator;
  target: SearchTarget;
  logger: Logger;
}

/**
 * First start: the Sample site, the `sample` source and its first run. Later starts only finish
 * what an interrupted first run left (the source is not re-created once an operator deleted it).
 */
export async function seedSample({ db, sources, runs, coordinator, target, logger }: SeedDependencies): Promise<void> {
  const seeded = await db('connector_meta').where({ key: SEEDED_KEY }).first();
  if (!seeded) {
    // A site of that name that an operator made is theirs: the sample never writes into it.
    if (await target.ensureSite(SAMPLE_SITE)) {
      logger.info({ site: SAMPLE_SITE.name }, 'sample site created');
      if (!sources.find(SAMPLE_SOURCE)) await sources.create(sampleSource(), 'seed');
    } else {
      logger.info({ site: SAMPLE_SITE.name }, 'a site named Sample exists already: the sample source is not seeded');
    }
    await db('connector_meta').insert({ key: SEEDED_KEY, value: new Date().toISOString() });
  }
  const source = sources.find(SAMPLE_SOURCE);
  if (source?.origin !== 'seed') return;
  // The file moves with the installation: keep the stored path pointing at this copy.
  if (source.settings.path !== SAMPLE_FILE)
    await sources.update(SAMPLE_SOURCE, { ...source, settings: { ...source.settings, path: SAMPLE_FILE } });
  const [last] = await runs.list(SAMPLE_SOURCE, 1);
  if (last?.status === 'COMPLETED' || coordinator.isRunning(SAMPLE_SOURCE)) {
    logger.info({ source: SAMPLE_SOURCE }, 'the sample is indexed already');
    return;
  }
  logger.info({ source: SAMPLE_SOURCE }, 'indexing the sample source');
  await coordinator.trigger(SAMPLE_SOURCE, 'INDEX_ALL', 'seed');
}
