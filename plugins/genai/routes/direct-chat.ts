import { type ApiRouter, principalOf, type Request, type Response } from 'vela/plugin';
import { respond } from '../chat/chat-response.js';
import { instanceSummary } from '../chat/site-chat.js';
import type { GenaiDomain } from '../domain.js';
import { genaiErrors } from '../errors.js';
import type { ChatMessage } from '../providers/provider.js';
import { refuseChatless } from '../providers/provider-factory.js';
import { directChatJsonSchema, idSchema, messagesSchema, pathParams, sseResponse } from '../schemas/common.js';
import type { LlmInstance } from '../store/instance-store.js';

const tags = ['chat'];

interface ChatBody {
  messages: ChatMessage[];
  llmInstanceId?: string;
  stream?: boolean;
}

const promptChars = (messages: ChatMessage[]) => messages.reduce((sum, m) => sum + (m.content?.length ?? 0), 0);

/** One model call on the conversation the client sends; SSE, or one JSON answer when `stream` is false. */
async function directChat(domain: GenaiDomain, req: Request, res: Response, instance: LlmInstance): Promise<void> {
  const body = req.body as ChatBody;
  if (body.messages.at(-1)?.role !== 'user')
    throw genaiErrors.invalidParameter('messages', "must end with the user's message");
  // A Key or the administrator may send more than an anonymous caller, not without bound: what a model is sent
  // (and paid for), and what the built-in provider and the token count read, grow with it.
  const chars = promptChars(body.messages);
  if (chars > domain.config.directChat.maxChars)
    throw genaiErrors.promptTooLong(chars, domain.config.directChat.maxChars);
  if (!instance.enabled) throw genaiErrors.instanceDisabled(instance.id);
  refuseChatless(instance);
  const release = domain.slots.acquire(instance);
  const username = principalOf(res)?.username ?? 'anonymous';
  await respond({
    req,
    res,
    json: body.stream === false,
    heartbeatMs: domain.config.heartbeatMs,
    timeoutMs: instance.timeoutMs,
    active: domain.active,
    logger: domain.logger,
    start: { instance: instanceSummary(instance) },
    run: async (sink, signal) => {
      const result = await domain.calls.call(
        { instance, provider: domain.providerFor(instance), username, endpoint: 'chat' },
        { messages: body.messages.map((m) => ({ role: m.role, content: m.content })) },
        signal,
        sink,
      );
      return {
        text: result.text,
        finishReason: result.finishReason,
        usage: { ...result.usage, reported: result.reported },
        instance: instanceSummary(instance),
      };
    },
    // The original's message shape, {role, content}, with what Vela adds.
    toJson: (done) => ({
      role: 'assistant',
      content: done.text,
      finishReason: done.finishReason,
      usage: done.usage,
      instance: done.instance,
    }),
    finish: release,
  });
}

/** POST /api/genai/chat (public) and the original's POST /api/v2/llm/{id}/chat (Key). */
export function mountDirectChatRoutes(router: ApiRouter, domain: GenaiDomain): void {
  const body = (withInstance: boolean) => ({
    type: 'object',
    additionalProperties: false,
    required: ['messages'],
    properties: {
      messages: messagesSchema,
      ...(withInstance
        ? {
            llmInstanceId: {
              ...idSchema,
              description: 'default: plugins.genai.directChat.defaultInstance (the built-in one)',
            },
          }
        : {}),
      stream: {
        type: 'boolean',
        default: true,
        description: 'false: one JSON answer {role, content, finishReason, usage, instance}',
      },
    },
  });
  router.post(
    '/api/genai/chat',
    {
      access: 'public',
      tags,
      summary: 'Chat with an LLM instance: the conversation in, the answer streamed as Server-Sent Events',
      description:
        'Anonymous callers may use only instances with publicChat (the built-in one has it); a Key or the administrator may use any enabled instance.',
      body: body(true),
      responses: { 200: sseResponse(directChatJsonSchema, '"stream": false') },
    },
    async (req, res) => {
      const { messages, llmInstanceId } = req.body as ChatBody;
      const { defaultInstance, anonymousMaxChars } = domain.config.directChat;
      const instance = domain.instances.get(llmInstanceId ?? defaultInstance);
      if (!principalOf(res)) {
        if (!instance.publicChat) throw genaiErrors.instanceNotPublic(instance.id);
        // Anyone may call this: what one request may make the server (or a paid model) read is kept small.
        const chars = promptChars(messages);
        if (chars > anonymousMaxChars) throw genaiErrors.anonymousTooLong(chars, anonymousMaxChars);
      }
      await directChat(domain, req, res, instance);
    },
  );
  router.post(
    '/api/v2/llm/:id/chat',
    {
      access: 'key',
      scope: 'search',
      tags,
      summary: 'Chat with one LLM instance (the original path), streamed as Server-Sent Events',
      params: pathParams({ id: idSchema }),
      body: body(false),
      responses: { 200: sseResponse(directChatJsonSchema, '"stream": false') },
    },
    async (req, res) => {
      await directChat(domain, req, res, domain.instances.get(String(req.params.id)));
    },
  );
}
