import type { ConnectorSources, PluginSourceInput, TrackedIdQuery } from '../api.js';
import { connectorErrors } from '../errors.js';
import type { ConnectorDomain } from '../routes/route-context.js';
import { checkFetchTargets } from './fetch-targets.js';
import { checkSites } from './site-check.js';
import type { Source } from './source-store.js';

/**
 * `connector.sources`: sources another plugin keeps in step with its own records. Saved with the same checks
 * as the API's (the kind's settings, the URLs it fetches, the sites and every locale), marked `plugin` so that
 * only the owner changes them, and deleted with their records as the API deletes a source. The owner is the
 * plugin of the source's kind: a caller reaches only sources of the kind it names.
 */
export class PluginSources implements ConnectorSources {
  constructor(private readonly domain: ConnectorDomain) {}

  async put(input: PluginSourceInput): Promise<boolean> {
    const { sources, kinds, outbound, target, logger } = this.domain;
    const existing = sources.find(input.name);
    // A source of the same name the user, the configuration or another plugin made is not the caller's to replace.
    if (existing && !ownedBy(existing, input.kind)) throw connectorErrors.sourceExists(input.name);
    const settings = kinds.checkSettings(input.kind, input.settings);
    await checkFetchTargets(kinds.get(input.kind), settings, outbound());
    const locale = input.locale ?? 'en_US';
    const named = [
      { member: 'locale', locale },
      ...(input.locales ?? []).map((other, j) => ({ member: `locales[${j}]`, locale: other })),
    ];
    await checkSites(target, input.sites, locale, logger, named);
    if (existing) {
      await sources.update(input.name, input, true);
      return false;
    }
    await sources.create(input, 'plugin');
    return true;
  }

  async remove(name: string, kind: string): Promise<boolean> {
    const { sources, coordinator, statuses, runs } = this.domain;
    const existing = sources.find(name);
    if (!existing || !ownedBy(existing, kind)) return false;
    // As the API's delete: a run going on would record statuses of a source that is gone.
    if (coordinator.isBusy(name)) throw connectorErrors.sourceBusy(name);
    if (await coordinator.runsElsewhere(name)) throw connectorErrors.sourceRunningElsewhere(name);
    await sources.delete(name, true);
    await statuses.removeSource(name);
    await runs.removeSource(name);
    return true;
  }

  trackedIds(name: string, query: TrackedIdQuery): Promise<string[]> {
    return this.domain.statuses.idsOf(name, query);
  }
}

function ownedBy(source: Source, kind: string): boolean {
  return source.origin === 'plugin' && source.kind === kind;
}
