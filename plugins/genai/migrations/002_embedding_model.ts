import type { Knex } from 'vela/plugin';

// The model an LLM instance computes embeddings with (null: it offers none); its batch bounds live in `options`.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('genai_llm_instances', (t) => {
    t.string('embedding_model', 200);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('genai_llm_instances', (t) => {
    t.dropColumn('embedding_model');
  });
}
