import { type Database, nowIso, toIso } from 'vela/plugin';

export type ModelKind = 'builtin' | 'instance';
/** training → active (searched; the one before it retired) → retired (its vectors to be forgotten). */
export type ModelState = 'training' | 'active' | 'retired';

/** A model as listed (without its bytes). */
export interface ModelInfo {
  siteId: string;
  locale: string;
  modelKey: string;
  kind: ModelKind;
  dimensions: number;
  state: ModelState;
  documents: number;
  createdAt: string;
  updatedAt: string;
}

/** A model with its bytes: the built-in embedder's serialised model; null for an LLM instance's. */
export interface StoredModel extends ModelInfo {
  bytes: Uint8Array | null;
}

export interface NewModel {
  siteId: string;
  locale: string;
  modelKey: string;
  kind: ModelKind;
  dimensions: number;
  documents: number;
  bytes: Uint8Array | null;
}

const INFO_COLUMNS = [
  'site_id',
  'locale',
  'model_key',
  'kind',
  'dimensions',
  'state',
  'documents',
  'created_at',
  'updated_at',
] as const;

/** Serialises activations on PostgreSQL (any fixed number: advisory locks belong to one database). */
const ACTIVATION_LOCK = 7_301_402_102;

function infoOf(row: Record<string, unknown>): ModelInfo {
  return {
    siteId: String(row.site_id),
    locale: String(row.locale),
    modelKey: String(row.model_key),
    kind: row.kind as ModelKind,
    dimensions: Number(row.dimensions),
    state: row.state as ModelState,
    documents: Number(row.documents),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

function bytesOf(value: unknown): Uint8Array | null {
  if (value === null || value === undefined) return null;
  const bytes = value as Uint8Array;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The embedding models of each site and locale (`semantic_models`): the built-in embedder's trained bytes, an LLM
 * instance's model by key, and which one is active. At most one is active per site and locale (a unique index
 * holds it across processes).
 */
export class ModelStore {
  private readonly postgres: boolean;

  constructor(private readonly db: Database) {
    this.postgres = db.client.dialect === 'postgresql';
  }

  /**
   * Store a model as `training`; a model of the same key (the same content: the built-in one's key is its version)
   * keeps its state and takes the new bytes, dimensions and count.
   */
  async save(model: NewModel): Promise<ModelInfo> {
    const stamp = nowIso();
    const values = {
      kind: model.kind,
      dimensions: model.dimensions,
      documents: model.documents,
      bytes:
        model.bytes === null ? null : Buffer.from(model.bytes.buffer, model.bytes.byteOffset, model.bytes.byteLength),
      updated_at: stamp,
    };
    await this.db('semantic_models')
      .insert({
        site_id: model.siteId,
        locale: model.locale,
        model_key: model.modelKey,
        state: 'training',
        created_at: stamp,
        ...values,
      })
      .onConflict(['site_id', 'locale', 'model_key'])
      .merge(values);
    return (await this.info(model.siteId, model.locale, model.modelKey))!;
  }

  /** A model with its bytes; undefined when there is none of that key. */
  async get(siteId: string, locale: string, modelKey: string): Promise<StoredModel | undefined> {
    const row = (await this.db('semantic_models')
      .select(...INFO_COLUMNS, 'bytes')
      .where({ site_id: siteId, locale, model_key: modelKey })
      .first()) as Record<string, unknown> | undefined;
    return row ? { ...infoOf(row), bytes: bytesOf(row.bytes) } : undefined;
  }

  /** The active model of a site and locale, with its bytes. */
  async active(siteId: string, locale: string): Promise<StoredModel | undefined> {
    const row = (await this.db('semantic_models')
      .select(...INFO_COLUMNS, 'bytes')
      .where({ site_id: siteId, locale, state: 'active' })
      .first()) as Record<string, unknown> | undefined;
    return row ? { ...infoOf(row), bytes: bytesOf(row.bytes) } : undefined;
  }

  async info(siteId: string, locale: string, modelKey: string): Promise<ModelInfo | undefined> {
    const row = (await this.db('semantic_models')
      .select(...INFO_COLUMNS)
      .where({ site_id: siteId, locale, model_key: modelKey })
      .first()) as Record<string, unknown> | undefined;
    return row ? infoOf(row) : undefined;
  }

  /** Every model (of a site, when named), without bytes, by site, locale and age. */
  async list(siteId?: string): Promise<ModelInfo[]> {
    const query = this.db('semantic_models')
      .select(...INFO_COLUMNS)
      .orderBy(['site_id', 'locale', 'created_at', 'model_key']);
    if (siteId !== undefined) query.where({ site_id: siteId });
    return ((await query) as Array<Record<string, unknown>>).map(infoOf);
  }

  /**
   * Make a model the active one of its site and locale, retiring the one before; false when there is no model of
   * that key. One transaction: readers see the old active model or the new one, never none or two.
   */
  async activate(siteId: string, locale: string, modelKey: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if (this.postgres) await trx.raw('select pg_advisory_xact_lock(?)', [ACTIVATION_LOCK]);
      const stamp = nowIso();
      // A write first: a SQLite transaction that reads before it writes may be refused the write lock.
      const touched = await trx('semantic_models')
        .where({ site_id: siteId, locale, model_key: modelKey })
        .update({ updated_at: stamp });
      if (Number(touched) === 0) return false;
      await trx('semantic_models')
        .where({ site_id: siteId, locale, state: 'active' })
        .andWhereNot({ model_key: modelKey })
        .update({ state: 'retired', updated_at: stamp });
      await trx('semantic_models')
        .where({ site_id: siteId, locale, model_key: modelKey })
        .update({ state: 'active', updated_at: stamp });
      return true;
    });
  }

  /** Retire a model (no longer searched; its vectors are to be forgotten); false when there is none of that key. */
  async retire(siteId: string, locale: string, modelKey: string): Promise<boolean> {
    const changed = await this.db('semantic_models')
      .where({ site_id: siteId, locale, model_key: modelKey })
      .update({ state: 'retired', updated_at: nowIso() });
    return Number(changed) > 0;
  }

  /** How many documents the model has embedded (or was trained on). */
  async setDocuments(siteId: string, locale: string, modelKey: string, documents: number): Promise<void> {
    await this.db('semantic_models')
      .where({ site_id: siteId, locale, model_key: modelKey })
      .update({ documents, updated_at: nowIso() });
  }

  async remove(siteId: string, locale: string, modelKey: string): Promise<void> {
    await this.db('semantic_models').where({ site_id: siteId, locale, model_key: modelKey }).delete();
  }

  async forgetSite(siteId: string): Promise<void> {
    await this.db('semantic_models').where({ site_id: siteId }).delete();
  }
}
