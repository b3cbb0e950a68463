import type { SourceDocument, SourceKind, SourceReadContext, SourceReadError } from '@vela/plugin-connector/api';
import type { Environment } from '../api.js';
import { ContentReader, type ReadContent } from '../repository/content-document.js';
import { walkContent } from '../repository/content-walk.js';
import type { CmsSourceStore } from './cms-source-store.js';
import { type RepositoryLimits, repositoryClient } from './repository-client.js';

/** The settings of the connector source that runs one environment of a cms source: a reference, no secret. */
export interface CmsKindSettings {
  cmsSource: string;
  environment: Environment;
}

export const CMS_KIND = 'cms';

/** Whether the connector source tracks a document (holds a copy of it somewhere, or a record of one). */
export type TrackedCheck = (connectorSource: string, id: string) => Promise<boolean>;

/**
 * The connector's `cms` source kind. Its sources are made by the cms plugin, one per environment of a cms
 * source; their settings only name it, so the repository's password stays sealed in the cms plugin's table.
 * A full run walks the root path and yields every page and asset (the publish environment only what is
 * activated); a run by ids reads just those paths, and a path the repository no longer has is not yielded,
 * which the pipeline turns into its removal. A PUBLISHING event is the news that its paths are published, so
 * the publish environment takes them as delivered.
 */
export function cmsSourceKind(
  store: CmsSourceStore,
  limits: RepositoryLimits,
  tracked: TrackedCheck,
): SourceKind<CmsKindSettings> {
  return {
    name: CMS_KIND,
    description:
      'an AEM-compatible content repository read over Sling JSON (made by the cms plugin: /api/v2/cms/source)',
    pluginOnly: true,
    settingsSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['cmsSource', 'environment'],
      properties: {
        cmsSource: {
          type: 'string',
          maxLength: 36,
          pattern: '^[A-Za-z0-9-]{1,36}$',
          description: 'the id of the cms source',
        },
        environment: { enum: ['author', 'publish'] },
      },
    },
    read: (ctx) => readSource(store, limits, tracked, ctx),
  };
}

async function* readSource(
  store: CmsSourceStore,
  limits: RepositoryLimits,
  tracked: TrackedCheck,
  ctx: SourceReadContext<CmsKindSettings>,
): AsyncGenerator<SourceDocument | SourceReadError> {
  const { cmsSource, environment } = ctx.source.settings;
  const source = await store.find(cmsSource);
  if (!source) throw new Error(`cms source ${cmsSource} no longer exists`);
  const client = await repositoryClient(store, source, ctx.fetch, limits, ctx.signal);
  const reader = new ContentReader(client, source, environment);
  const publishable = (read: ReadContent) =>
    environment === 'author' || publishedCopy(read, (id) => tracked(ctx.source.name, id));
  if (ctx.onlyIds) {
    for (const path of ctx.onlyIds) {
      try {
        const read = await reader.read(path);
        if (read && (await publishable(read))) yield read.document;
      } catch (error) {
        yield { id: path, error: (error as Error).message };
      }
    }
    return;
  }
  // A failing walk throws: the run fails and removes nothing, as a partial listing must not.
  for await (const found of walkContent(client, source.rootPath, source.contentTypes)) {
    try {
      const read = await reader.read(found.path, found.type);
      if (read && (environment === 'author' || read.delivered) && (await publishable(read))) yield read.document;
    } catch (error) {
      yield { id: found.path, error: (error as Error).message };
    }
  }
}

/**
 * Whether the publish site may take what was read on author. Content edited since its activation holds edits
 * the publish instance does not have. Its publish version is its activation date, so where the connector holds
 * the copy of that activation it is unchanged and nothing is sent; content the connector does not hold is left
 * out until it is activated again (yielded, its unpublished edits would be sent; left out of a full run, a
 * tracked copy would count as vanished and be removed, which is why tracked content is yielded).
 */
async function publishedCopy(read: ReadContent, isTracked: (id: string) => Promise<boolean>): Promise<boolean> {
  return !read.editedSinceActivation || isTracked(read.document.id);
}
