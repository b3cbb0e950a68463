import { randomUUID } from 'node:crypto';
import {
  CachedTable,
  col,
  type Database,
  type Logger,
  nowIso,
  refuseDuplicate,
  rowCodec,
  type SecretBox,
  secretHint,
  type TableRow,
} from 'vela/plugin';
import { genaiErrors } from '../errors.js';
import { type Vendor, vendorOf } from '../providers/vendors.js';

export const BUILTIN_ID = 'builtin';

/** Generation settings of an instance; null leaves the choice to the server. */
export interface LlmOptions {
  temperature: number | null;
  topP: number | null;
  /** Most tokens one answer may have (max_tokens). */
  maxTokens: number | null;
  /** Longest one chat may take, from the request to the last token. */
  timeoutMs: number;
  /** Longest wait for the server's next token (the first one included). */
  idleTimeoutMs: number;
  /** Chats this instance answers at once; past it, 503 with Retry-After. */
  maxConcurrent: number;
  /** Most texts in one embeddings request. */
  embeddingBatchSize: number;
  /** Most characters in one embeddings request (a longer text goes alone). */
  embeddingMaxChars: number;
}

/** An LLM instance as the API shows it: the API key never, only whether there is one and its last characters. */
export interface LlmInstance extends LlmOptions {
  id: string;
  title: string;
  description: string;
  vendor: string;
  url: string | null;
  modelName: string | null;
  /** The model (Azure OpenAI: the deployment) that computes embeddings; null: the instance offers none. */
  embeddingModel: string | null;
  hasApiKey: boolean;
  apiKeyHint: string | null;
  enabled: boolean;
  /** Whether anonymous callers of POST /api/genai/chat may use it (site chat uses what each site names). */
  publicChat: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What POST /api/llm takes (PUT takes any subset; apiKey null removes the key, absent keeps it). */
export interface InstanceInput extends Partial<LlmOptions> {
  /** null or absent: a UUID. */
  id?: string | null;
  title?: string;
  description?: string;
  vendor?: string;
  url?: string | null;
  modelName?: string | null;
  embeddingModel?: string | null;
  apiKey?: string | null;
  enabled?: boolean;
  publicChat?: boolean;
}

interface Stored {
  instance: LlmInstance;
  apiKeyEncrypted: string | null;
}

/** An instance as its row holds it: the generation options in one JSON column, the API key sealed. */
type InstanceRow = Omit<LlmInstance, keyof LlmOptions | 'hasApiKey'> & {
  apiKeyEncrypted: string | null;
  options: Partial<LlmOptions>;
};

const instances = rowCodec<InstanceRow>('genai_llm_instances', {
  id: 'id',
  title: 'title',
  description: col.text('description'),
  vendor: 'vendor',
  url: 'url',
  modelName: 'model_name',
  embeddingModel: 'embedding_model',
  apiKeyEncrypted: 'api_key_encrypted',
  apiKeyHint: 'api_key_hint',
  options: col.json('options'),
  enabled: col.bool('enabled'),
  publicChat: col.bool('public_chat'),
  createdAt: col.timestamp('created_at'),
  updatedAt: col.timestamp('updated_at'),
});
const TABLE = instances.table;

const OPTION_NAMES = [
  'temperature',
  'topP',
  'maxTokens',
  'timeoutMs',
  'idleTimeoutMs',
  'maxConcurrent',
  'embeddingBatchSize',
  'embeddingMaxChars',
] as const;

const EMBEDDING_DEFAULTS = { embeddingBatchSize: 64, embeddingMaxChars: 200_000 };

/** Defaults by kind: the built-in answers in milliseconds and in process; a model server may think for a while. */
export function defaultOptions(vendor: Vendor | undefined): LlmOptions {
  const unset = { temperature: null, topP: null, maxTokens: null, ...EMBEDDING_DEFAULTS };
  return vendor?.kind === 'extractive'
    ? { ...unset, timeoutMs: 10_000, idleTimeoutMs: 10_000, maxConcurrent: 16 }
    : { ...unset, timeoutMs: 120_000, idleTimeoutMs: 30_000, maxConcurrent: 4 };
}

/**
 * LLM instances: written to `genai_llm_instances`, held in memory (each chat reads its instance without a
 * database round trip), reloaded when another process announces a write (and at each poll). API keys are
 * encrypted with the SecretBox before they are written and decrypted only to make a request.
 */
export class InstanceStore {
  private readonly byId: CachedTable<TableRow, Stored>;

  constructor(
    private readonly db: Database,
    private readonly secrets: () => SecretBox,
    logger: Logger,
    /** Tells the other processes after a committed write. */
    private readonly announce: () => Promise<unknown> = async () => undefined,
  ) {
    this.byId = new CachedTable({ db, ...instances, fromRow: storedOf, logger });
  }

  load(): Promise<void> {
    return this.byId.load();
  }

  list(): LlmInstance[] {
    return this.byId
      .values()
      .map((s) => s.instance)
      .sort((a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id));
  }

  find(id: string): LlmInstance | undefined {
    return this.byId.get(id)?.instance;
  }

  get(id: string): LlmInstance {
    const found = this.find(id);
    if (!found) throw genaiErrors.instanceNotFound(id);
    return found;
  }

  /** The plain API key, to send to the server; null when the instance has none. */
  apiKeyOf(id: string): string | null {
    const stored = this.byId.get(id);
    if (!stored?.apiKeyEncrypted) return null;
    const plain = this.secrets().decrypt(stored.apiKeyEncrypted, id);
    if (plain === null) throw genaiErrors.keyUnreadable(id);
    return plain;
  }

  /** `checkUrl` refuses a URL the outbound guard would refuse (400 naming the member). */
  async create(input: InstanceInput, checkUrl: (url: string) => Promise<void>): Promise<LlmInstance> {
    const id = input.id ?? randomUUID();
    if (this.byId.has(id)) throw genaiErrors.idTaken('an LLM instance', id);
    const vendor = vendorOf(input.vendor ?? '');
    if (!vendor)
      throw genaiErrors.invalidParameter(
        'vendor',
        `must be one of the vendors of GET /api/llm/vendor, got ${JSON.stringify(input.vendor)}`,
      );
    const defaults = defaultOptions(vendor);
    const options: LlmOptions = { ...defaults };
    for (const name of OPTION_NAMES)
      if (input[name] !== undefined) (options as unknown as Record<string, unknown>)[name] = input[name];
    const stamp = nowIso();
    const instance: LlmInstance = {
      id,
      title: input.title || vendor.title,
      description: input.description ?? '',
      vendor: vendor.id,
      url: vendor.kind === 'extractive' ? null : (input.url ?? vendor.defaultUrl),
      modelName: vendor.kind === 'extractive' ? 'extractive' : (input.modelName ?? null),
      embeddingModel: vendor.embeddings ? (input.embeddingModel ?? null) : null,
      hasApiKey: false,
      apiKeyHint: null,
      ...options,
      enabled: input.enabled ?? true,
      publicChat: input.publicChat ?? false,
      createdAt: stamp,
      updatedAt: stamp,
    };
    await this.checkComplete(instance, vendor, checkUrl);
    const apiKeyEncrypted = this.applyKey(instance, input.apiKey, null);
    await refuseDuplicate(
      () => this.db(TABLE).insert(rowOf(instance, apiKeyEncrypted)),
      () => genaiErrors.idTaken('an LLM instance', id),
    );
    this.byId.set(id, { instance, apiKeyEncrypted });
    await this.announce();
    return instance;
  }

  async update(id: string, input: InstanceInput, checkUrl: (url: string) => Promise<void>): Promise<LlmInstance> {
    const current = this.byId.get(id);
    if (!current) throw genaiErrors.instanceNotFound(id);
    const vendor = vendorOf(input.vendor ?? current.instance.vendor);
    if (!vendor)
      throw genaiErrors.invalidParameter(
        'vendor',
        `must be one of the vendors of GET /api/llm/vendor, got ${JSON.stringify(input.vendor)}`,
      );
    if (id === BUILTIN_ID && vendor.id !== 'BUILTIN')
      throw genaiErrors.invalidParameter('vendor', 'of the built-in instance stays BUILTIN');
    const next: LlmInstance = { ...current.instance, updatedAt: nowIso() };
    if (input.title !== undefined) next.title = input.title;
    if (input.description !== undefined) next.description = input.description;
    if (input.enabled !== undefined) next.enabled = input.enabled;
    if (input.publicChat !== undefined) next.publicChat = input.publicChat;
    for (const name of OPTION_NAMES)
      if (input[name] !== undefined) (next as unknown as Record<string, unknown>)[name] = input[name];
    next.vendor = vendor.id;
    if (vendor.kind === 'extractive') {
      next.url = null;
      next.modelName = 'extractive';
    } else {
      if (input.url !== undefined) next.url = input.url;
      if (input.modelName !== undefined) next.modelName = input.modelName;
      if (!next.url) next.url = vendor.defaultUrl;
      if (next.modelName === 'extractive' && current.instance.vendor === 'BUILTIN') next.modelName = null;
    }
    if (input.embeddingModel !== undefined) next.embeddingModel = input.embeddingModel;
    if (!vendor.embeddings) next.embeddingModel = null;
    await this.checkComplete(next, vendor, checkUrl);
    const apiKeyEncrypted = this.applyKey(next, input.apiKey, current.apiKeyEncrypted);
    // The creation time stays as it was written.
    const { created_at: _created, ...changes } = rowOf(next, apiKeyEncrypted);
    const updated = await this.db(TABLE).where({ id }).update(changes);
    if (updated === 0) throw genaiErrors.instanceNotFound(id);
    this.byId.set(id, { instance: next, apiKeyEncrypted });
    await this.announce();
    return next;
  }

  /** `usersOf` names what still uses the instance (site settings, agents): such an instance is not deleted. */
  async remove(id: string, usersOf: (id: string) => Promise<string[]>): Promise<void> {
    if (id === BUILTIN_ID) throw genaiErrors.builtinInstance();
    if (!this.byId.has(id)) throw genaiErrors.instanceNotFound(id);
    const users = await usersOf(id);
    if (users.length > 0) throw genaiErrors.instanceInUse(id, users);
    await this.db(TABLE).where({ id }).delete();
    this.byId.delete(id);
    await this.announce();
  }

  private async checkComplete(
    instance: LlmInstance,
    vendor: Vendor,
    checkUrl: (url: string) => Promise<void>,
  ): Promise<void> {
    if (vendor.kind === 'extractive') return;
    if (!instance.url)
      throw genaiErrors.invalidParameter(
        'url',
        `is required for vendor ${vendor.id} (the server's base URL, e.g. http://127.0.0.1:11434/v1)`,
      );
    if (!instance.modelName && vendor.kind === 'openai-compatible')
      throw genaiErrors.invalidParameter(
        'modelName',
        `is required for vendor ${vendor.id} (e.g. llama3.2 or gpt-4o-mini)`,
      );
    if (!instance.embeddingModel && vendor.kind === 'embeddings-only')
      throw genaiErrors.invalidParameter(
        'embeddingModel',
        `is required for vendor ${vendor.id}, which offers embeddings only (e.g. text-embedding-3-small)`,
      );
    await checkUrl(instance.url);
  }

  /** Sets hasApiKey and the hint on the instance; returns what to store. */
  private applyKey(instance: LlmInstance, apiKey: string | null | undefined, previous: string | null): string | null {
    if (apiKey === undefined) {
      instance.hasApiKey = previous !== null;
      return previous;
    }
    if (apiKey === null || apiKey === '') {
      instance.hasApiKey = false;
      instance.apiKeyHint = null;
      return null;
    }
    instance.hasApiKey = true;
    instance.apiKeyHint = secretHint(apiKey);
    return this.secrets().encrypt(apiKey, instance.id);
  }
}

function rowOf(instance: LlmInstance, apiKeyEncrypted: string | null): TableRow {
  const options = Object.fromEntries(OPTION_NAMES.map((name) => [name, instance[name]]));
  return instances.toRow({ ...instance, apiKeyEncrypted, options });
}

/** Options the row leaves out (or null) take the vendor's defaults. */
function storedOf(row: TableRow): Stored {
  const { apiKeyEncrypted, options: stored, ...fields } = instances.fromRow(row);
  const options = { ...defaultOptions(vendorOf(fields.vendor)) };
  for (const name of OPTION_NAMES)
    if (stored[name] !== undefined && stored[name] !== null)
      (options as unknown as Record<string, unknown>)[name] = stored[name];
  const apiKeyHint = apiKeyEncrypted ? fields.apiKeyHint : null;
  return { apiKeyEncrypted, instance: { ...fields, hasApiKey: !!apiKeyEncrypted, apiKeyHint, ...options } };
}
