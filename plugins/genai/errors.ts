import { httpErrors, VelaError } from 'vela/plugin';

/**
 * Every error the genai plugin answers with: code, status, message. Over SSE, the same code and message go in a
 * `failed` event.
 */
export const genaiErrors = {
  instanceNotFound: (id: string) => new VelaError('llm_instance_not_found', `no LLM instance with id "${id}"`, 404),
  instanceDisabled: (id: string) => new VelaError('llm_instance_disabled', `LLM instance "${id}" is disabled`, 409),
  instanceNotPublic: (id: string) =>
    new VelaError(
      'llm_instance_not_public',
      `LLM instance "${id}" is not open to anonymous chat: send the Key header, or ask the administrator to set publicChat on it`,
      403,
    ),
  instanceInUse: (id: string, users: string[]) =>
    new VelaError('llm_instance_in_use', `LLM instance "${id}" is used by ${users.join(', ')}`, 409),
  chatUnsupported: (id: string, vendor: string) =>
    new VelaError(
      'chat_not_supported',
      `LLM instance "${id}" is of vendor ${vendor}, which offers embeddings only: choose an instance that chats`,
      400,
    ),
  embeddingsNotOffered: (id: string) =>
    new VelaError(
      'embeddings_not_offered',
      `LLM instance "${id}" offers no embeddings: set its embeddingModel (its vendor must have an embeddings protocol, GET /api/llm/vendor)`,
      409,
    ),
  builtinInstance: () =>
    new VelaError('builtin_instance', 'the built-in instance cannot be deleted (disable it instead)', 409),
  anonymousTooLong: (chars: number, max: number) =>
    new VelaError(
      'payload_too_large',
      `the messages hold ${chars} characters; an anonymous chat may send at most ${max} in all (plugins.genai.directChat.anonymousMaxChars): send the Key header for more`,
      413,
    ),
  promptTooLong: (chars: number, max: number) =>
    new VelaError(
      'payload_too_large',
      `the messages hold ${chars} characters; a chat may send at most ${max} in all (plugins.genai.directChat.maxChars)`,
      413,
    ),
  idTaken: (what: string, id: string) => new VelaError('conflict', `${what} with id "${id}" already exists`, 409),
  agentNotFound: (id: string) => new VelaError('agent_not_found', `no AI agent with id "${id}"`, 404),
  agentDisabled: (name: string) => new VelaError('agent_disabled', `AI agent "${name}" is disabled`, 409),
  conversationNotFound: (id: string) =>
    new VelaError('conversation_not_found', `no conversation "${id}" of this agent and user`, 404),
  invalidParameter: (name: string, message: string) => new VelaError('invalid_parameter', `${name} ${message}`, 400),
  invalidMonth: (month: string) =>
    new VelaError(
      'invalid_parameter',
      `month must be YYYY-MM (e.g. 2026-03), got ${JSON.stringify(month.slice(0, 40))}`,
      400,
    ),
  busy: (title: string, retryAfterSeconds: number) =>
    httpErrors
      .unavailable(
        `LLM instance "${title}" is answering as many chats as it may at once; try again in ${retryAfterSeconds} s`,
      )
      .withHeaders({ 'Retry-After': String(retryAfterSeconds) }),
  upstream: (message: string) => new VelaError('upstream_error', message, 502),
  upstreamTimeout: (message: string) => new VelaError('upstream_timeout', message, 504),
  keyUnreadable: (id: string) =>
    new VelaError(
      'api_key_unreadable',
      `the API key of LLM instance "${id}" cannot be decrypted with this process's key (VELA_GENAI_KEY, VELA_SECRET_KEY or <data>/genai/secret.key): save the key again`,
      500,
    ),
  stopping: () => new VelaError('service_unavailable', 'the server is stopping', 503),
  clientGone: () => new VelaError('client_closed', 'the client closed the stream', 499),
} as const;
