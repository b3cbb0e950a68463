import { dropTables, type Knex } from 'vela/plugin';

/** LLM instances (with the built-in one), site settings, agents and their conversations, token usage. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('genai_llm_instances', (t) => {
    t.string('id', 36).primary();
    t.string('title', 100).notNullable();
    t.text('description');
    t.string('vendor', 30).notNullable();
    t.string('url', 500);
    t.string('model_name', 200);
    // AES-256-GCM, "v1:" + base64(iv + ciphertext + tag); never returned, only the hint.
    t.text('api_key_encrypted');
    t.string('api_key_hint', 16);
    // temperature, topP, maxTokens, timeoutMs, idleTimeoutMs, maxConcurrent (JSON).
    t.text('options').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.boolean('public_chat').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  const now = new Date().toISOString();
  await db('genai_llm_instances').insert({
    id: 'builtin',
    title: 'Built-in (extractive)',
    description:
      'Answers from the retrieved passages by query-focused sentence selection, with citations; needs no model',
    vendor: 'BUILTIN',
    url: null,
    model_name: 'extractive',
    options: JSON.stringify({}),
    enabled: true,
    public_chat: true,
    created_at: now,
    updated_at: now,
  });

  await db.schema.createTable('genai_site_settings', (t) => {
    t.string('site_id', 36).primary();
    t.boolean('enabled').notNullable();
    t.string('llm_instance_id', 36).notNullable();
    t.text('system_prompt').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('genai_agents', (t) => {
    t.string('id', 36).primary();
    t.string('name', 100).notNullable();
    t.text('description');
    t.text('instructions').notNullable();
    t.string('llm_instance_id', 36).notNullable().index();
    // Site names and tool names (JSON arrays).
    t.text('sites').notNullable();
    t.text('tools').notNullable();
    t.integer('max_steps').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('genai_conversations', (t) => {
    t.string('id', 36).primary();
    t.string('agent_id', 36).notNullable().index();
    t.string('username', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('genai_messages', (t) => {
    t.increments('id').primary();
    t.string('conversation_id', 36).notNullable().index();
    t.string('role', 16).notNullable();
    t.text('content');
    // An assistant message's tool calls, a tool message's call id and name (JSON).
    t.text('tool_calls');
    t.string('tool_call_id', 100);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });

  await db.schema.createTable('genai_token_usage', (t) => {
    t.increments('id').primary();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // The UTC day (YYYY-MM-DD), so the monthly report groups by a column on both databases.
    t.string('day', 10).notNullable().index();
    t.string('instance_id', 36).notNullable();
    t.string('instance_title', 100).notNullable();
    t.string('vendor_id', 30).notNullable();
    t.string('model_name', 200).notNullable();
    t.string('username', 64).notNullable();
    t.string('endpoint', 20).notNullable();
    t.bigInteger('input_tokens').notNullable();
    t.bigInteger('output_tokens').notNullable();
    t.bigInteger('total_tokens').notNullable();
    // Whether the provider reported the numbers (false: counted here with the tokenizer).
    t.boolean('reported').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await dropTables(db, [
    'genai_token_usage',
    'genai_messages',
    'genai_conversations',
    'genai_agents',
    'genai_site_settings',
    'genai_llm_instances',
  ]);
}
