import { TextEmbedder } from '@vela/embedding';
import type { GenaiEmbeddings } from '@vela/plugin-genai/api';
import type { SearchSite } from '@vela/plugin-search/api';
import type { Logger, TaskRunner } from 'vela/plugin';
import type { TrainInput, TrainOutput } from '../embedders/builtin-task.js';
import { BUILTIN_PREFIX, type EmbedderCache, instanceModelKey } from '../embedders/embedder-cache.js';
import type { ModelInfo, ModelStore } from '../store/model-store.js';
import { BUILTIN_EMBEDDER, type SemanticSettings } from '../store/settings-store.js';
import type { SiteDocuments } from './site-documents.js';

export interface BuiltinConfig {
  dimensions: number;
  vocabulary: number;
  retrainFactor: number;
  maxTrainingDocuments: number;
}

/** What a site and locale embeds into now. */
export interface ModelPlan {
  /** The model searched (null: none yet). */
  active: ModelInfo | null;
  /** The model documents are embedded with: the active one, or the one replacing it. */
  target: ModelInfo | null;
  /** Why there is no target (an LLM instance that offers no embeddings, a site with no text). */
  reason?: string;
  /** A model was just made: every document of the site is to be embedded with it. */
  created: boolean;
}

/** Fewer documents than this and a site's model is not learned again for a change in their number. */
const RETRAIN_MIN_DOCUMENTS = 20;

/**
 * Decides which model each site and locale is embedded with and searched by, and makes it: the built-in model
 * learned from the site's documents (on the worker pool), learned again once their number changed by
 * `retrainFactor`; or the LLM instance's embedding model the settings name. A new model for a site that has one
 * is embedded in the background and made active once every document has its vectors; until then searches go on
 * with the old one.
 */
export class ModelPlanner {
  /** Sites and locales being learned in this process, so a slow training is not started twice. */
  private readonly training = new Set<string>();

  constructor(
    private readonly deps: {
      models: ModelStore;
      embedders: EmbedderCache;
      documents: SiteDocuments;
      train: TaskRunner<TrainInput, TrainOutput>;
      genai: () => GenaiEmbeddings | undefined;
      builtin: BuiltinConfig;
      logger: Logger;
    },
  ) {}

  isTraining(siteId: string, locale: string): boolean {
    return this.training.has(`${siteId}\u0001${locale}`);
  }

  async plan(
    site: SearchSite,
    locale: string,
    settings: SemanticSettings,
    models: ModelInfo[],
    liveDocuments: number,
    /** Documents are still coming in: a model learned now would be learned again soon. */
    settling = false,
  ): Promise<ModelPlan> {
    const mine = models.filter((m) => m.siteId === site.id && m.locale === locale && m.state !== 'retired');
    const active = mine.find((m) => m.state === 'active') ?? null;
    const next = mine.filter((m) => m.state === 'training').sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
    if (settings.embedder !== BUILTIN_EMBEDDER) return this.planInstance(site, locale, settings.embedder, active, mine);
    if (next?.kind === 'builtin') return { active, target: next, created: false };
    if (active?.kind === 'builtin' && !this.stale(active, liveDocuments))
      return { active, target: active, created: false };
    if (settling)
      return {
        active,
        target: active?.kind === 'builtin' ? active : null,
        reason: 'waiting for the import to settle before learning the built-in model',
        created: false,
      };
    if (liveDocuments === 0)
      return {
        active,
        target: active?.kind === 'builtin' ? active : null,
        reason: 'the site has no documents to learn from',
        created: false,
      };
    const made = await this.trainBuiltin(site, locale, settings, liveDocuments);
    if (!made) return { active, target: active, created: false, reason: 'the built-in model is being learned' };
    if (!active) await this.deps.models.activate(site.id, locale, made.modelKey);
    const info = (await this.deps.models.info(site.id, locale, made.modelKey)) ?? made;
    return { active: active ?? info, target: info, created: true };
  }

  private stale(model: ModelInfo, liveDocuments: number): boolean {
    const learned = Math.max(1, model.documents);
    if (Math.max(learned, liveDocuments) < RETRAIN_MIN_DOCUMENTS) return false;
    const factor = this.deps.builtin.retrainFactor;
    return liveDocuments >= learned * factor || liveDocuments * factor <= learned;
  }

  private async planInstance(
    site: SearchSite,
    locale: string,
    instanceId: string,
    active: ModelInfo | null,
    mine: ModelInfo[],
  ): Promise<ModelPlan> {
    const genai = this.deps.genai();
    const instance = genai?.instances().find((i) => i.id === instanceId);
    if (!genai || !instance)
      return { active, target: null, created: false, reason: `LLM instance "${instanceId}" offers no embeddings` };
    const key = instanceModelKey(instance.id, instance.model);
    const existing = mine.find((m) => m.modelKey === key);
    if (existing) return { active, target: existing, created: false };
    await this.deps.models.save({
      siteId: site.id,
      locale,
      modelKey: key,
      kind: 'instance',
      dimensions: 0,
      documents: 0,
      bytes: null,
    });
    if (!active) await this.deps.models.activate(site.id, locale, key);
    const info = (await this.deps.models.info(site.id, locale, key))!;
    return { active: active ?? info, target: info, created: true };
  }

  /** Learn the site's built-in model from its documents' text; null while another call of this process learns it. */
  private async trainBuiltin(
    site: SearchSite,
    locale: string,
    settings: SemanticSettings,
    liveDocuments: number,
  ): Promise<ModelInfo | null> {
    const scope = `${site.id}\u0001${locale}`;
    if (this.training.has(scope)) return null;
    this.training.add(scope);
    try {
      const started = performance.now();
      const texts: string[] = [];
      const limit = this.deps.builtin.maxTrainingDocuments;
      for await (const ids of this.deps.documents.ids(site, locale)) {
        const page = await this.deps.documents.texts(site, locale, ids.slice(0, limit - texts.length), settings);
        texts.push(...page.map((d) => d.text));
        if (texts.length >= limit) break;
      }
      const { dimensions, vocabulary } = this.deps.builtin;
      const trained = await this.deps.train({ texts, options: { dimensions, vocabulary } });
      const model = await this.deps.models.save({
        siteId: site.id,
        locale,
        modelKey: `${BUILTIN_PREFIX}${trained.version}`,
        kind: 'builtin',
        dimensions: trained.dimensions,
        documents: Math.max(liveDocuments, texts.length),
        bytes: trained.bytes,
      });
      await this.deps.embedders.install({ ...model, bytes: trained.bytes }, TextEmbedder.deserialize(trained.bytes));
      this.deps.logger.info(
        {
          site: site.name,
          locale,
          model: model.modelKey,
          documents: texts.length,
          vocabulary: trained.vocabulary,
          ms: Math.round(performance.now() - started),
        },
        'built-in embedding model learned',
      );
      return model;
    } finally {
      this.training.delete(scope);
    }
  }
}
