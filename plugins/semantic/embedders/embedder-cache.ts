import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TextEmbedder } from '@vela/embedding';
import type { GenaiEmbeddings } from '@vela/plugin-genai/api';
import type { TaskRunner } from 'vela/plugin';
import { semanticErrors } from '../errors.js';
import type { ModelStore, StoredModel } from '../store/model-store.js';
import { BuiltinEmbedder } from './builtin-embedder.js';
import type { EmbedInput } from './builtin-task.js';
import { InstanceEmbedder } from './instance-embedder.js';
import type { SiteEmbedder } from './site-embedder.js';

export const BUILTIN_PREFIX = 'builtin:';
export const INSTANCE_PREFIX = 'instance:';

/** The model key of an LLM instance's embedding model: a new model name is a new vector space. */
export const instanceModelKey = (instanceId: string, model: string) => `${INSTANCE_PREFIX}${instanceId}:${model}`;

/**
 * The embedder of each model key, made once: a built-in model read from the database (and written to a file the
 * worker threads load), an LLM instance's through the genai plugin.
 */
export class EmbedderCache {
  private readonly made = new Map<string, Promise<SiteEmbedder>>();

  constructor(
    private readonly models: ModelStore,
    private readonly folder: string,
    private readonly task: TaskRunner<EmbedInput, Array<Float32Array | null>>,
    private readonly genai: () => GenaiEmbeddings | undefined,
  ) {}

  of(siteId: string, locale: string, modelKey: string): Promise<SiteEmbedder> {
    const key = `${siteId}\u0001${locale}\u0001${modelKey}`;
    let embedder = this.made.get(key);
    if (!embedder) {
      embedder = this.make(siteId, locale, modelKey);
      embedder.catch(() => this.made.delete(key));
      this.made.set(key, embedder);
    }
    return embedder;
  }

  /** Forget the embedders of models no longer in use. */
  keepOnly(keys: ReadonlySet<string>): void {
    for (const key of this.made.keys()) if (!keys.has(key.split('\u0001')[2]!)) this.made.delete(key);
  }

  /** The built-in model just trained, without reading it back. */
  async install(model: StoredModel, embedder: TextEmbedder): Promise<void> {
    const file = await this.writeFile(model.modelKey, model.bytes!);
    const key = `${model.siteId}\u0001${model.locale}\u0001${model.modelKey}`;
    this.made.set(key, Promise.resolve(new BuiltinEmbedder(model.modelKey, embedder, file, this.task)));
  }

  private async make(siteId: string, locale: string, modelKey: string): Promise<SiteEmbedder> {
    if (modelKey.startsWith(INSTANCE_PREFIX)) {
      const genai = this.genai();
      if (!genai) throw semanticErrors.instanceUnavailable();
      const [instanceId, ...model] = modelKey.slice(INSTANCE_PREFIX.length).split(':');
      return new InstanceEmbedder(instanceId!, model.join(':'), genai);
    }
    const stored = await this.models.get(siteId, locale, modelKey);
    if (!stored?.bytes) throw new Error(`the built-in model ${modelKey} of site ${siteId} (${locale}) is not stored`);
    const embedder = TextEmbedder.deserialize(stored.bytes);
    const file = await this.writeFile(modelKey, stored.bytes);
    return new BuiltinEmbedder(modelKey, embedder, file, this.task);
  }

  /** Models are named by their content's hash: a file of that name is the model, whoever wrote it. */
  private async writeFile(modelKey: string, bytes: Uint8Array): Promise<string> {
    await mkdir(this.folder, { recursive: true });
    const file = path.join(this.folder, `${modelKey.replace(/[^\w.-]/g, '_')}.bin`);
    await writeFile(file, bytes);
    return file;
  }
}
