import { randomUUID } from 'node:crypto';
import { col, type Database, nowIso, refuseDuplicate, rowCodec } from 'vela/plugin';
import { genaiErrors } from '../errors.js';

/** The tools an agent may be given: a site search (with filters) and a stored document by id. */
export const AGENT_TOOLS = ['search_site', 'get_document'] as const;
export type AgentTool = (typeof AGENT_TOOLS)[number];

export interface Agent {
  id: string;
  name: string;
  description: string;
  /** The agent's system prompt. */
  instructions: string;
  llmInstanceId: string;
  /** Names of the sites its tools reach (the first is the default). */
  sites: string[];
  tools: AgentTool[];
  /** Most model calls one message may take (tool rounds included). */
  maxSteps: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type AgentInput = Partial<Omit<Agent, 'createdAt' | 'updatedAt'>>;

const agents = rowCodec<Agent>('genai_agents', {
  id: 'id',
  name: 'name',
  description: col.text('description'),
  instructions: 'instructions',
  llmInstanceId: 'llm_instance_id',
  sites: col.json('sites'),
  tools: col.json('tools'),
  maxSteps: col.number('max_steps'),
  enabled: col.bool('enabled'),
  createdAt: col.timestamp('created_at'),
  updatedAt: col.timestamp('updated_at'),
});
const TABLE = agents.table;

/** AI agents (`genai_agents`), read from the database on each use: agent chats are not a hot path. */
export class AgentStore {
  constructor(private readonly db: Database) {}

  list(): Promise<Agent[]> {
    return agents.all(this.db(TABLE).select().orderBy('name').orderBy('id'));
  }

  async find(id: string): Promise<Agent | null> {
    return (await agents.first(this.db(TABLE).where({ id }))) ?? null;
  }

  async get(id: string): Promise<Agent> {
    const agent = await this.find(id);
    if (!agent) throw genaiErrors.agentNotFound(id);
    return agent;
  }

  /** `check` validates the complete agent (its instance and sites exist) before it is written. */
  async create(input: AgentInput, check: (agent: Agent) => void): Promise<Agent> {
    const stamp = nowIso();
    const agent: Agent = {
      id: input.id ?? randomUUID(),
      name: input.name ?? '',
      description: input.description ?? '',
      instructions: input.instructions ?? '',
      llmInstanceId: input.llmInstanceId ?? 'builtin',
      sites: input.sites ?? [],
      tools: input.tools ?? [...AGENT_TOOLS],
      maxSteps: input.maxSteps ?? 4,
      enabled: input.enabled ?? true,
      createdAt: stamp,
      updatedAt: stamp,
    };
    check(agent);
    if (await this.find(agent.id)) throw genaiErrors.idTaken('an agent', agent.id);
    await refuseDuplicate(
      () => this.db(TABLE).insert(agents.toRow(agent)),
      () => genaiErrors.idTaken('an agent', agent.id),
    );
    return agent;
  }

  async update(id: string, input: AgentInput, check: (agent: Agent) => void): Promise<Agent> {
    const current = await this.get(id);
    const next: Agent = {
      ...current,
      ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      id,
      updatedAt: nowIso(),
    };
    check(next);
    // The creation time stays as it was written.
    const updated = await this.db(TABLE)
      .where({ id })
      .update(agents.toColumns({ ...next, createdAt: undefined }));
    if (updated === 0) throw genaiErrors.agentNotFound(id);
    return next;
  }

  /** Deletes the agent and its conversations. */
  async remove(id: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const deleted = await trx(TABLE).where({ id }).delete();
      if (deleted === 0) throw genaiErrors.agentNotFound(id);
      const conversations = trx('genai_conversations').select('id').where({ agent_id: id });
      await trx('genai_messages').whereIn('conversation_id', conversations).delete();
      await trx('genai_conversations').where({ agent_id: id }).delete();
    });
  }

  async namesUsing(instanceId: string): Promise<string[]> {
    const rows = (await this.db(TABLE).select('name').where({ llm_instance_id: instanceId })) as Array<{
      name: string;
    }>;
    return rows.map((r) => r.name);
  }
}
