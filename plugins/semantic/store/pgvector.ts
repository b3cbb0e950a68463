import type { Database } from 'vela/plugin';
import { VectorStore } from './vector-store.js';

/** What the detection asks of the server; tests answer it themselves (pgvector is not installed everywhere). */
export interface ExtensionCatalog {
  /** Whether `vector` is installed in the database. */
  installed(): Promise<boolean>;
  /** Whether the server offers it (pg_available_extensions). */
  available(): Promise<boolean>;
  /** create extension; throws when refused (no privilege). */
  create(): Promise<void>;
}

export function postgresCatalog(db: Database): ExtensionCatalog {
  const exists = async (sql: string) => ((await db.raw(sql)) as { rows: unknown[] }).rows.length > 0;
  return {
    installed: () => exists("select 1 from pg_extension where extname = 'vector'"),
    available: () => exists("select 1 from pg_available_extensions where name = 'vector'"),
    create: async () => {
      await db.raw('create extension if not exists vector');
    },
  };
}

/**
 * Whether vectors can be searched with pgvector: installed, or offered and created now. Never on SQLite. A refused
 * create (an account that may not create extensions) means no: exact search over real[] needs nothing.
 */
export async function detectPgvector(db: Database, catalog: ExtensionCatalog = postgresCatalog(db)): Promise<boolean> {
  if (db.client.dialect !== 'postgresql') return false;
  if (await catalog.installed()) return true;
  if (!(await catalog.available())) return false;
  try {
    await catalog.create();
    return true;
  } catch {
    return false;
  }
}

/**
 * Adds the `embedding vector` column (no fixed dimension: each model has its own) beside real[], filled from it
 * for the rows written before. Without a fixed dimension pgvector builds no index: `<=>` scans, exactly. Done
 * once: when the column is there, nothing is read (a process that starts races another harmlessly).
 */
export async function addEmbeddingColumn(db: Database): Promise<void> {
  const present = await db('information_schema.columns')
    .where({ table_name: 'semantic_vectors', column_name: 'embedding' })
    .andWhere('table_schema', db.raw('current_schema()'))
    .first('column_name');
  if (present) return;
  await db.raw('alter table semantic_vectors add column if not exists embedding vector');
  await db.raw('update semantic_vectors set embedding = vector::vector where embedding is null');
}

/** The vector store on `db`, searching with pgvector when the database has it (see detectPgvector). */
export async function openVectorStore(db: Database, catalog?: ExtensionCatalog): Promise<VectorStore> {
  const pgvector = await detectPgvector(db, catalog);
  if (pgvector) await addEmbeddingColumn(db);
  return new VectorStore(db, { pgvector });
}
