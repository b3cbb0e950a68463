import type { ConnectorSources } from '@vela/plugin-connector/api';
import { VelaError } from 'vela/plugin';
import type { CmsSource } from '../api.js';
import { cmsErrors } from '../errors.js';
import { CMS_KIND, type CmsKindSettings } from './cms-kind.js';
import { connectorSourceName, environmentsOf } from './cms-source.js';

/**
 * Keeps the connector sources of a cms source in step with it: one per environment it indexes (author,
 * publish), saved through the connector's `connector.sources`; those of environments it no longer indexes are
 * deleted (their documents stay in the search index, as when any connector source is deleted). Only sources
 * of the cms kind are ever replaced or deleted: a connector source of the same name that someone else made
 * stays as it is.
 */
export class ConnectorSync {
  constructor(private readonly sources: () => ConnectorSources) {}

  /** Save the connector sources; the names of those it created are pushed to `created` as it goes (for a rollback). */
  async save(source: CmsSource, created: string[] = []): Promise<void> {
    const wanted = environmentsOf(source);
    for (const { environment, connectorSource, site } of wanted) {
      const settings: CmsKindSettings & Record<string, unknown> = { cmsSource: source.id, environment };
      try {
        const made = await this.sources().put({
          name: connectorSource,
          kind: CMS_KIND,
          description: `${environment} content of cms source "${source.name}" (${source.endpoint}${source.rootPath})`,
          sites: [site],
          locale: source.defaultLocale,
          locales: source.localePaths.map((entry) => entry.locale),
          schedule: source.schedule,
          settings,
        });
        if (made) created.push(connectorSource);
      } catch (error) {
        throw renamed(
          error,
          source.name,
          connectorSource,
          environment === 'author' ? 'body.authorSite' : 'body.publishSite',
        );
      }
    }
    for (const environment of ['author', 'publish'] as const) {
      if (!wanted.some((w) => w.environment === environment))
        await this.sources().remove(connectorSourceName(source.name, environment), CMS_KIND);
    }
  }

  async remove(source: CmsSource): Promise<void> {
    await this.removeNamed(
      (['author', 'publish'] as const).map((environment) => connectorSourceName(source.name, environment)),
    );
  }

  /** Delete the named connector sources of the cms kind (any other of those names is left alone). */
  async removeNamed(names: readonly string[]): Promise<void> {
    for (const name of names) await this.sources().remove(name, CMS_KIND);
  }
}

/**
 * The connector names the members of its own source; the client sent the cms source's: `sites[0]` is
 * authorSite or publishSite, `locale` the default locale, `locales[i]` the locale of localePaths[i], and a
 * taken connector source name comes from the cms source's name.
 */
function renamed(error: unknown, name: string, connectorSource: string, siteMember: string): unknown {
  if (!(error instanceof VelaError)) return error;
  if (error.status === 409 && error.code === 'source_exists')
    return cmsErrors.connectorSourceTaken(name, connectorSource);
  if (error.status !== 400) return error;
  const message = error.message
    .replaceAll('sites[0]', siteMember)
    .replace(/^locales\[(\d+)\]/, 'body.localePaths[$1].locale')
    .replace(/change locales\[(\d+)\]/, 'change body.localePaths[$1].locale')
    .replace(/^locale\b/, 'body.defaultLocale')
    .replace(/change locale$/, 'change body.defaultLocale')
    .replace(/^schedule\b/, 'body.schedule');
  return new VelaError(error.code, message, error.status);
}
