import { type ApiRouter, answers, principalOf } from 'vela/plugin';
import { runAgentTurn } from '../agents/agent-runner.js';
import type { Agent, AgentInput } from '../agents/agent-store.js';
import { respond, wantsJson } from '../chat/chat-response.js';
import { instanceSummary } from '../chat/site-chat.js';
import type { GenaiDomain } from '../domain.js';
import { genaiErrors } from '../errors.js';
import { refuseChatless } from '../providers/provider-factory.js';
import {
  agentCreateSchema,
  agentSchema,
  agentTurnJsonSchema,
  agentUpdateSchema,
  conversationSchema,
  idSchema,
  pathParams,
  sseResponse,
  withoutReadOnly,
} from '../schemas/common.js';

const tags = ['ai agents'];
const agentParam = pathParams({ agentId: idSchema });

/** /api/v2/llm/agent: agents (admin scope) and their chat (search scope), streamed as Server-Sent Events. */
export function mountAgentRoutes(router: ApiRouter, domain: GenaiDomain): void {
  const { agents, conversations } = domain;
  const check = (agent: Agent) => {
    if (!domain.instances.find(agent.llmInstanceId))
      throw genaiErrors.invalidParameter(
        'llmInstanceId',
        `names no LLM instance: ${JSON.stringify(agent.llmInstanceId)}`,
      );
    for (const name of agent.sites)
      if (!domain.sites().find(name))
        throw genaiErrors.invalidParameter('sites', `names a site that does not exist: ${JSON.stringify(name)}`);
    // Tools name sites by name: store the site's own spelling.
    agent.sites = agent.sites.map((name) => domain.sites().find(name)!.name);
    if (agent.tools.length > 0 && agent.sites.length === 0)
      throw genaiErrors.invalidParameter('sites', 'must name at least one site for the tools to search');
  };

  // Agents are administered with the admin scope; their chat takes the search scope.
  const admin = router.withDefaults({ access: 'key', tags });
  const chat = router.withDefaults({ access: 'key', scope: 'search', tags });
  admin
    .collection({
      path: '/api/v2/llm/agent',
      id: 'agentId',
      params: agentParam,
      description: 'the agent',
      schema: agentSchema,
    })
    .list({ summary: 'List AI agents', description: 'agents' }, () => agents.list())
    .create({ summary: 'Create an AI agent', body: agentCreateSchema, description: 'created' }, (req) =>
      agents.create(withoutReadOnly(req.body as AgentInput), check),
    )
    .read({ summary: 'One AI agent' }, (id) => agents.get(id))
    .replace({ summary: 'Change an AI agent (members left out stay)', body: agentUpdateSchema }, (id, req) => {
      const { id: _ignored, ...input } = withoutReadOnly(req.body as AgentInput);
      return agents.update(id, input, check);
    })
    .remove(
      { summary: 'Delete an AI agent and its conversations', description: 'the agent is deleted' },
      async (id) => {
        await agents.remove(id);
        return { id };
      },
    );

  chat.post(
    '/api/v2/llm/agent/:agentId/chat',
    {
      summary: 'Send an agent a message; its tool calls and answer stream as Server-Sent Events',
      description:
        'conversationId continues a conversation of the same agent and user (its earlier messages go to the model); without it a new one starts, its id in the start and done events.',
      params: agentParam,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['message'],
        properties: {
          message: { type: 'string', minLength: 1, maxLength: 8000 },
          conversationId: { ...idSchema, description: 'from an earlier start or done event' },
        },
      },
      responses: { 200: sseResponse(agentTurnJsonSchema) },
    },
    async (req, res) => {
      const agent = await agents.get(String(req.params.agentId));
      const { message, conversationId: asked } = req.body as { message: string; conversationId?: string };
      const username = principalOf(res)?.username ?? 'anonymous';
      if (!agent.enabled) throw genaiErrors.agentDisabled(agent.name);
      const instance = domain.instances.get(agent.llmInstanceId);
      if (!instance.enabled) throw genaiErrors.instanceDisabled(instance.id);
      refuseChatless(instance);
      if (asked && !(await conversations.owns(asked, agent.id, username)))
        throw genaiErrors.conversationNotFound(asked);
      const history = asked ? await conversations.history(asked, domain.config.agents.historyMessages) : [];
      const release = domain.slots.acquire(instance);
      let conversationId: string;
      try {
        conversationId = asked ?? (await conversations.create(agent.id, username));
      } catch (error) {
        release();
        throw error;
      }
      await respond({
        req,
        res,
        json: wantsJson(req),
        heartbeatMs: domain.config.heartbeatMs,
        timeoutMs: instance.timeoutMs,
        active: domain.active,
        logger: domain.logger,
        start: { agent: { id: agent.id, name: agent.name }, conversationId, instance: instanceSummary(instance) },
        run: async (sink, signal) => {
          const outcome = await runAgentTurn(
            domain,
            { agent, instance, conversationId, message, history, username },
            sink,
            signal,
          );
          await conversations.append(conversationId, outcome.messages);
          return outcome.done;
        },
        toJson: (done) => done,
        finish: release,
      });
    },
  );
  chat.get(
    '/api/v2/llm/agent/:agentId/conversation/:conversationId',
    {
      summary: "A conversation's messages, tool calls and results included (the caller's own conversations only)",
      params: pathParams({ agentId: idSchema, conversationId: idSchema }),
      responses: answers('the conversation', conversationSchema),
    },
    async (req, res) => {
      const agent = await agents.get(String(req.params.agentId));
      const id = String(req.params.conversationId);
      const username = principalOf(res)?.username ?? 'anonymous';
      if (!(await conversations.owns(id, agent.id, username))) throw genaiErrors.conversationNotFound(id);
      res.json({ id, agent: { id: agent.id, name: agent.name }, messages: await conversations.messages(id) });
    },
  );
}
