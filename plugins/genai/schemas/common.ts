import type { JsonSchema } from 'vela/plugin';
import { AGENT_TOOLS } from '../agents/agent-store.js';
import { VENDOR_IDS } from '../providers/vendors.js';

/** Ids as the search plugin shapes them: 1 to 36 letters, digits, `_` and `-` (the columns hold 36). */
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' };
/** Sites by name or id, as the search plugin's paths take them. */
export const siteRefSchema: JsonSchema = { type: 'string', maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9 _.-]{0,99}$' };
export const pathParams = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties });

const instanceProperties: Record<string, JsonSchema> = {
  title: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  vendor: { type: 'string', enum: VENDOR_IDS, description: 'GET /api/llm/vendor lists them; BUILTIN needs no url or model' },
  url: {
    type: ['string', 'null'],
    maxLength: 500,
    pattern: '^https?://[^\\s]+$',
    description: 'base URL before /chat/completions, e.g. http://127.0.0.1:11434/v1',
  },
  modelName: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
  apiKey: {
    type: ['string', 'null'],
    maxLength: 4000,
    description: 'write-only: stored encrypted, shown back as apiKeyHint; PUT without it keeps the key, null removes it',
  },
  temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
  topP: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  maxTokens: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000 },
  timeoutMs: { type: 'integer', minimum: 100, maximum: 3_600_000, description: 'longest one chat may take' },
  idleTimeoutMs: { type: 'integer', minimum: 100, maximum: 600_000, description: "longest wait for the server's next token" },
  maxConcurrent: { type: 'integer', minimum: 1, maximum: 1000, description: 'chats answered at once; past it, 503 with Retry-After' },
  enabled: { type: 'boolean' },
  publicChat: { type: 'boolean', description: 'whether anonymous callers of POST /api/genai/chat may use it' },
};

const timestamp: JsonSchema = { type: ['string', 'null'], maxLength: 40 };
const readOnly = (schema: JsonSchema): JsonSchema => ({ ...schema, description: 'read-only: accepted (what a GET answered can be sent back) and ignored' });
/** The members answers carry beyond what a request sets: a body read back may hold them, and they are ignored. */
const instanceReadOnly: Record<string, JsonSchema> = {
  hasApiKey: readOnly({ type: 'boolean' }),
  apiKeyHint: readOnly({ type: ['string', 'null'], maxLength: 40 }),
  createdAt: readOnly(timestamp),
  updatedAt: readOnly(timestamp),
};
const agentReadOnly: Record<string, JsonSchema> = { createdAt: readOnly(timestamp), updatedAt: readOnly(timestamp) };

/** A copy of a request body without the read-only members the schemas above let through. */
export function withoutReadOnly<T extends object>(body: T): T {
  const copy = { ...body } as Record<string, unknown>;
  for (const name of Object.keys(instanceReadOnly)) delete copy[name];
  return copy as T;
}

/** GET /api/llm/vendor and GET /api/llm/structure are routes: an instance with such an id could not be read back. */
export const RESERVED_INSTANCE_IDS: readonly string[] = ['vendor', 'structure'];

export const instanceCreateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['vendor'],
  properties: {
    // null (as GET /api/llm/structure shows it): a UUID is made.
    id: { ...idSchema, type: ['string', 'null'] },
    ...instanceProperties,
    title: { type: 'string', maxLength: 100, description: "empty (as GET /api/llm/structure shows it): the vendor's title" },
    ...instanceReadOnly,
  },
};

export const instanceUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: readOnly({}), ...instanceProperties, ...instanceReadOnly },
};

export const instanceSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    ...instanceProperties,
    hasApiKey: { type: 'boolean' },
    apiKeyHint: { type: ['string', 'null'], description: 'the last four characters of the key' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
};

export const siteSettingsSchema: JsonSchema = {
  type: 'object',
  properties: {
    site: { type: 'string' },
    siteId: { type: 'string' },
    enabled: { type: 'boolean' },
    llmInstanceId: { type: 'string' },
    systemPrompt: { type: 'string' },
    custom: { type: 'boolean', description: 'false: the site has no settings of its own and these are the defaults' },
    updatedAt: { type: ['string', 'null'] },
  },
};

export const siteSettingsBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    llmInstanceId: idSchema,
    systemPrompt: { type: 'string', maxLength: 20_000, description: 'empty: the default; {question} and {information} make it the whole prompt' },
  },
};

const agentProperties: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  instructions: { type: 'string', maxLength: 20_000, description: "the agent's system prompt" },
  llmInstanceId: idSchema,
  sites: { type: 'array', maxItems: 20, uniqueItems: true, items: siteRefSchema, description: 'sites its tools reach; the first is the default' },
  tools: { type: 'array', uniqueItems: true, items: { type: 'string', enum: [...AGENT_TOOLS] } },
  maxSteps: { type: 'integer', minimum: 1, maximum: 20, description: 'most model calls per message, tool rounds included' },
  enabled: { type: 'boolean' },
};

export const agentCreateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { id: idSchema, ...agentProperties, ...agentReadOnly },
};
export const agentUpdateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { id: readOnly({}), ...agentProperties, ...agentReadOnly },
};
export const agentSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, ...agentProperties, createdAt: { type: 'string' }, updatedAt: { type: 'string' } },
};

export const messagesSchema: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 100,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['role', 'content'],
    properties: { role: { type: 'string', enum: ['system', 'user', 'assistant'] }, content: { type: 'string', maxLength: 32_000 } },
  },
};

/** What every chat stream's events carry: see docs/genai.md. */
export const sseResponse = {
  contentType: 'text/event-stream',
  description: 'Server-Sent Events: start, delta..., (tool_call, tool_result for agents), then done or failed (docs/genai.md)',
};
