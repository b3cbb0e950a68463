import { bodySchema, type JsonSchema, recordSchema, SITE_NAME_PATTERN } from 'vela/plugin';
import { AGENT_TOOLS } from '../agents/agent-store.js';
import { VENDOR_IDS } from '../providers/vendors.js';

/** Ids as the search plugin shapes them: 1 to 36 letters, digits, `_` and `-` (the columns hold 36). */
export const idSchema: JsonSchema = { type: 'string', maxLength: 36, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,35}$' };
/** Sites by name or id, as the search plugin's paths take them. */
export const siteRefSchema: JsonSchema = { type: 'string', maxLength: 100, pattern: SITE_NAME_PATTERN };
export { pathParams } from 'vela/plugin';

const instanceProperties: Record<string, JsonSchema> = {
  title: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  vendor: {
    type: 'string',
    enum: VENDOR_IDS,
    description: 'GET /api/llm/vendor lists them; BUILTIN needs no url or model',
  },
  url: {
    type: ['string', 'null'],
    maxLength: 500,
    pattern: '^https?://[^\\s]+$',
    description: 'base URL before /chat/completions, e.g. http://127.0.0.1:11434/v1',
  },
  modelName: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
  embeddingModel: {
    type: ['string', 'null'],
    minLength: 1,
    maxLength: 200,
    description:
      'the model that computes embeddings (Azure OpenAI: the deployment name); null: the instance offers none',
  },
  apiKey: {
    type: ['string', 'null'],
    maxLength: 4000,
    description:
      'write-only: stored encrypted, shown back as apiKeyHint; PUT without it keeps the key, null removes it',
  },
  temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
  topP: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  maxTokens: { type: ['integer', 'null'], minimum: 1, maximum: 1_000_000 },
  timeoutMs: { type: 'integer', minimum: 100, maximum: 3_600_000, description: 'longest one chat may take' },
  idleTimeoutMs: {
    type: 'integer',
    minimum: 100,
    maximum: 600_000,
    description: "longest wait for the server's next token",
  },
  maxConcurrent: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: 'chats answered at once; past it, 503 with Retry-After',
  },
  embeddingBatchSize: {
    type: 'integer',
    minimum: 1,
    maximum: 2048,
    description: 'most texts in one embeddings request',
  },
  embeddingMaxChars: {
    type: 'integer',
    minimum: 1000,
    maximum: 10_000_000,
    description: 'most characters in one embeddings request (a longer text goes alone)',
  },
  enabled: { type: 'boolean' },
  publicChat: { type: 'boolean', description: 'whether anonymous callers of POST /api/genai/chat may use it' },
};

const timestamp: JsonSchema = { type: ['string', 'null'], maxLength: 40 };
const readOnly = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  description: 'read-only: accepted (what a GET answered can be sent back) and ignored',
});
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

export const instanceCreateSchema = bodySchema(['vendor'], {
  // null (as GET /api/llm/structure shows it): a UUID is made.
  id: { ...idSchema, type: ['string', 'null'] },
  ...instanceProperties,
  title: {
    type: 'string',
    maxLength: 100,
    description: "empty (as GET /api/llm/structure shows it): the vendor's title",
  },
  ...instanceReadOnly,
});

export const instanceUpdateSchema = bodySchema([], { id: readOnly({}), ...instanceProperties, ...instanceReadOnly });

export const instanceSchema = recordSchema({
  id: 'string',
  ...instanceProperties,
  hasApiKey: 'boolean',
  apiKeyHint: { type: ['string', 'null'], description: 'the last four characters of the key' },
  createdAt: 'string',
  updatedAt: 'string',
});

export const siteSettingsSchema = recordSchema({
  site: 'string',
  siteId: 'string',
  enabled: 'boolean',
  llmInstanceId: 'string',
  systemPrompt: 'string',
  custom: { type: 'boolean', description: 'false: the site has no settings of its own and these are the defaults' },
  updatedAt: 'string?',
});

export const siteSettingsBody = bodySchema([], {
  enabled: 'boolean',
  llmInstanceId: idSchema,
  systemPrompt: {
    type: 'string',
    maxLength: 20_000,
    description: 'empty: the default; {question} and {information} make it the whole prompt',
  },
});

const agentProperties: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  instructions: { type: 'string', maxLength: 20_000, description: "the agent's system prompt" },
  llmInstanceId: idSchema,
  sites: {
    type: 'array',
    maxItems: 20,
    uniqueItems: true,
    items: siteRefSchema,
    description: 'sites its tools reach; the first is the default',
  },
  tools: { type: 'array', uniqueItems: true, items: { type: 'string', enum: [...AGENT_TOOLS] } },
  maxSteps: {
    type: 'integer',
    minimum: 1,
    maximum: 20,
    description: 'most model calls per message, tool rounds included',
  },
  enabled: { type: 'boolean' },
};

export const agentCreateSchema = bodySchema(['name'], { id: idSchema, ...agentProperties, ...agentReadOnly });
export const agentUpdateSchema = bodySchema([], { id: readOnly({}), ...agentProperties, ...agentReadOnly });
export const agentSchema = recordSchema({ id: 'string', ...agentProperties, createdAt: 'string', updatedAt: 'string' });

export const messagesSchema: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 100,
  items: bodySchema(['role', 'content'], {
    role: { type: 'string', enum: ['system', 'user', 'assistant'] },
    content: { type: 'string', maxLength: 32_000 },
  }),
};

// The answers of the chats (api.ts has their types).
const instanceRefSchema = recordSchema(
  { id: 'string', title: 'string', vendor: 'string', model: 'string?' },
  { required: ['id', 'title', 'vendor', 'model'] },
);
const usageSchema = recordSchema(
  {
    inputTokens: 'integer',
    outputTokens: 'integer',
    totalTokens: 'integer',
    reported: { type: 'boolean', description: 'false: Vela counted the tokens, the server did not report them' },
  },
  { type: ['object', 'null'] },
);
const sourcesSchema: JsonSchema = {
  type: 'array',
  description: 'the documents the text cites as [n]; show url as a link only when it is http: or https:',
  items: recordSchema(
    { n: 'integer', id: 'string', title: 'string', url: 'string?' },
    { required: ['n', 'id', 'title', 'url'] },
  ),
};

/** Site chat as JSON: an answer, whether the site chats (no question), or why it does not. */
export const siteChatJsonSchema = recordSchema(
  {
    enabled: 'boolean',
    text: {
      type: ['string', 'null'],
      description: 'the answer; null without a question, or when the site does not chat',
    },
    sources: sourcesSchema,
    usage: usageSchema,
    instance: instanceRefSchema,
    site: 'string',
    locale: 'string',
    message: { type: 'string', description: 'why the site does not chat' },
  },
  { required: ['enabled', 'text', 'sources'] },
);

/** Direct chat as JSON (stream: false): the original's {role, content}, with what Vela adds. */
export const directChatJsonSchema = recordSchema(
  {
    role: { type: 'string', enum: ['assistant'] },
    content: 'string',
    finishReason: 'string',
    usage: usageSchema,
    instance: instanceRefSchema,
  },
  { required: ['role', 'content', 'finishReason', 'usage', 'instance'] },
);

/** An agent's turn as JSON: the data of its done event. */
export const agentTurnJsonSchema = recordSchema(
  {
    conversationId: { type: 'string', description: 'send it back to continue the conversation' },
    text: 'string',
    sources: sourcesSchema,
    steps: { type: 'integer', description: 'model calls made' },
    finishReason: 'string',
    usage: usageSchema,
    instance: instanceRefSchema,
  },
  { required: ['conversationId', 'text', 'sources', 'steps', 'finishReason', 'usage', 'instance'] },
);

/**
 * A chat's answer: Server-Sent Events (see docs/genai.md, "The events"), or, for a client that asks for
 * JSON, the one answer `json` describes.
 */
export const sseResponse = (json: JsonSchema, jsonWhen = 'Accept: application/json (without text/event-stream)') => ({
  contentType: 'text/event-stream',
  description: `Server-Sent Events: start, delta..., (tool_call, tool_result for agents), then done or failed (docs/genai.md); with ${jsonWhen}, one JSON answer`,
  schema: {
    type: 'string',
    description:
      'events, each an `event: <name>` line and a `data: <JSON>` line: start, (delta | tool_call | tool_result)*, then done or failed',
  },
  otherContent: { 'application/json': json },
});

export const vendorSchema = recordSchema(
  {
    id: 'string',
    title: 'string',
    kind: {
      type: 'string',
      enum: ['extractive', 'openai-compatible', 'embeddings-only'],
      description: 'how its instances chat; embeddings-only: they do not',
    },
    defaultUrl: { type: ['string', 'null'], description: 'the base URL an instance gets when it names none' },
    needsApiKey: 'boolean',
    embeddings: {
      type: ['string', 'null'],
      enum: ['openai', 'ollama', 'azure-openai', 'gemini', null],
      description: 'the embeddings protocol of its instances that name an embeddingModel; null: none',
    },
    website: 'string?',
    description: 'string',
  },
  { required: ['id', 'title', 'kind', 'defaultUrl', 'needsApiKey', 'embeddings', 'website', 'description'] },
);

/** The empty instance a form starts from: every member with its default, no id yet. */
export const instanceStructureSchema: JsonSchema = {
  ...instanceSchema,
  properties: {
    ...instanceSchema.properties,
    id: { type: 'null', description: 'the service gives a new instance its id' },
    title: { type: 'string' },
  },
};

const toolCallSchema = recordSchema({
  id: 'string',
  name: 'string',
  arguments: { type: 'string', description: 'as the model wrote them (JSON text)' },
});
const messageSchema = recordSchema(
  {
    role: { type: 'string', enum: ['system', 'user', 'assistant', 'tool'] },
    content: { type: ['string', 'null'], description: 'null for an assistant message that only called tools' },
    toolCalls: { type: 'array', items: toolCallSchema },
    toolCallId: { type: 'string', description: 'a tool message: the call it answers' },
  },
  { required: ['role', 'content'] },
);

export const conversationSchema = recordSchema(
  {
    id: 'string',
    agent: recordSchema({ id: 'string', name: 'string' }, { required: ['id', 'name'] }),
    messages: { type: 'array', items: messageSchema },
  },
  { required: ['id', 'agent', 'messages'] },
);

/** Most texts, and characters of one text, that POST /api/v2/llm/instance/{id}/embeddings takes. */
export const EMBEDDING_INPUT_LIMITS = { texts: 512, chars: 32_000 } as const;

export const embeddingsBodySchema = bodySchema(['input'], {
  input: {
    type: 'array',
    minItems: 1,
    maxItems: EMBEDDING_INPUT_LIMITS.texts,
    items: { type: 'string', minLength: 1, maxLength: EMBEDDING_INPUT_LIMITS.chars },
    description: 'the texts to embed',
  },
});

export const embeddingsSchema = recordSchema(
  {
    model: 'string',
    dimensions: 'integer',
    vectors: {
      type: 'array',
      description: 'one per text, in the order of input',
      items: { type: 'array', items: { type: 'number' } },
    },
    usage: usageSchema,
  },
  { required: ['model', 'dimensions', 'vectors', 'usage'] },
);
