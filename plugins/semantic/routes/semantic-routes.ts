import type { GenaiEmbeddings } from '@vela/plugin-genai/api';
import type { SearchSite, SearchSites } from '@vela/plugin-search/api';
import type { ApiRouter, Request } from 'vela/plugin';
import { semanticErrors } from '../errors.js';
import type { ModelPlanner } from '../indexing/model-planner.js';
import type { SemanticIndexer } from '../indexing/semantic-indexer.js';
import type { EmbeddingStates } from '../store/embedding-states.js';
import {
  BUILTIN_EMBEDDER,
  type SemanticSettings,
  type SemanticSettingsPatch,
  type SemanticSettingsStore,
} from '../store/settings-store.js';
import { settingsBody, settingsSchema, siteParam, statusSchema } from './semantic-schemas.js';

export interface SemanticRoutesDeps {
  sites: () => SearchSites;
  settings: SemanticSettingsStore;
  states: EmbeddingStates;
  indexer: Pick<SemanticIndexer, 'statusOf' | 'refreshSite'>;
  planner: ModelPlanner;
  genai: () => GenaiEmbeddings | undefined;
}

const PATH = '/api/sn/:siteName/semantic';

/** A site's semantic settings (read with the search scope, changed by the administrator) and its embedding progress. */
export function mountSemanticRoutes(router: ApiRouter, deps: SemanticRoutesDeps): void {
  const siteIn = (req: Request): SearchSite => {
    const name = String(req.params.siteName);
    const site = deps.sites().find(name);
    if (!site) throw semanticErrors.siteNotFound(name);
    return site;
  };
  const view = (site: SearchSite, settings: SemanticSettings) => ({ site: site.name, siteId: site.id, ...settings });
  const settings = { params: siteParam, description: 'the settings', schema: settingsSchema };

  const reading = router.withDefaults({ access: 'key', scope: 'search', tags: ['semantic'] });
  reading.item('get', PATH, { summary: "A site's semantic search settings", ...settings }, (req) => {
    const site = siteIn(req);
    return view(site, deps.settings.forSite(site.id));
  });
  reading.item(
    'get',
    `${PATH}/status`,
    {
      summary:
        "A site's embedding progress: per locale whether hybrid search runs, per model the documents in each state, and the latest failures",
      params: siteParam,
      description: 'the progress',
      schema: statusSchema,
    },
    async (req) => status(deps, siteIn(req)),
  );

  const changing = router.withDefaults({ access: 'key', tags: ['semantic'] });
  changing.item(
    'put',
    PATH,
    { summary: "Change a site's semantic search settings (members left out stay)", body: settingsBody, ...settings },
    async (req) => {
      const site = siteIn(req);
      const patch = req.body as SemanticSettingsPatch;
      checkPatch(deps, deps.settings.forSite(site.id), patch);
      const saved = await deps.settings.save(site.id, patch);
      deps.indexer.refreshSite(site.id);
      return view(site, saved);
    },
  );
  changing.item(
    'delete',
    PATH,
    {
      summary: "Drop a site's semantic settings: back to the defaults",
      ...settings,
      description: 'the default settings',
    },
    async (req) => {
      const site = siteIn(req);
      const saved = await deps.settings.reset(site.id);
      deps.indexer.refreshSite(site.id);
      return view(site, saved);
    },
  );
  changing.item(
    'post',
    `${PATH}/refresh`,
    {
      summary: 'Look at every document of the site again: what changed, and what failed, is embedded again',
      params: siteParam,
      description: 'the progress',
      schema: statusSchema,
    },
    async (req) => {
      const site = siteIn(req);
      deps.indexer.refreshSite(site.id);
      return status(deps, site);
    },
  );
}

function checkPatch(deps: SemanticRoutesDeps, current: SemanticSettings, patch: SemanticSettingsPatch): void {
  const embedder = patch.embedder;
  if (embedder !== undefined && embedder !== BUILTIN_EMBEDDER) {
    const genai = deps.genai();
    if (!genai) throw semanticErrors.instanceUnavailable();
    if (!genai.instances().some((i) => i.id === embedder))
      throw semanticErrors.invalidParameter(
        'embedder',
        `names no LLM instance that offers embeddings: ${JSON.stringify(embedder.slice(0, 100))} (GET /api/llm lists them; set an instance's embeddingModel)`,
      );
  }
  const chars = patch.passageChars ?? current.passageChars;
  const overlap = patch.passageOverlap ?? current.passageOverlap;
  if (overlap * 2 > chars)
    throw semanticErrors.invalidParameter(
      'passageOverlap',
      `must be at most half of passageChars (${chars}), got ${overlap}`,
    );
}

async function status(deps: SemanticRoutesDeps, site: SearchSite) {
  const settings = deps.settings.forSite(site.id);
  const locales = site.locales.map((locale) => {
    const { status, active } = deps.indexer.statusOf(site.id, locale);
    return {
      locale,
      ready: status.ready,
      reason: status.ready ? null : status.reason,
      model: active?.modelKey ?? null,
      training: deps.planner.isTraining(site.id, locale),
    };
  });
  const activeModels = new Set(locales.map((l) => `${l.locale}\u0001${l.model}`));
  const counts = await deps.states.counts(site.id);
  const failures = await deps.states.failures(site.id, { limit: 20 });
  return {
    site: site.name,
    enabled: settings.enabled,
    embedder: settings.embedder,
    locales,
    models: counts.map((c) => ({
      locale: c.locale,
      model: c.modelKey,
      active: activeModels.has(`${c.locale}\u0001${c.modelKey}`),
      pending: c.pending,
      claimed: c.claimed,
      done: c.done,
      failed: c.failed,
      passages: c.passages,
    })),
    failures: failures.map((f) => ({
      locale: f.locale,
      id: f.docId,
      model: f.modelKey,
      reason: f.reason,
      updatedAt: f.updatedAt,
    })),
  };
}
