import { randomUUID } from 'node:crypto';
import { type Database, nowIso, readJson, writeJson } from 'vela/plugin';
import type { ChatMessage, Role, ToolCall } from '../providers/provider.js';

interface MessageRow {
  id: number;
  role: string;
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
}

/**
 * An agent's conversations (`genai_conversations`, `genai_messages`): every message of each turn is kept,
 * tool calls and results included; a new turn is sent the earlier questions and final answers.
 */
export class ConversationStore {
  constructor(private readonly db: Database) {}

  async create(agentId: string, username: string): Promise<string> {
    const id = randomUUID();
    const stamp = nowIso();
    await this.db('genai_conversations').insert({
      id,
      agent_id: agentId,
      username: username.slice(0, 64),
      created_at: stamp,
      updated_at: stamp,
    });
    return id;
  }

  /** Whether the conversation exists for this agent and user (another user's id is as good as unknown). */
  async owns(id: string, agentId: string, username: string): Promise<boolean> {
    return !!(await this.db('genai_conversations')
      .where({ id, agent_id: agentId, username: username.slice(0, 64) })
      .first());
  }

  /** The last `limit` questions and final answers, oldest first. */
  async history(id: string, limit: number): Promise<ChatMessage[]> {
    if (limit <= 0) return [];
    const rows = (await this.db('genai_messages')
      .select('role', 'content', 'tool_calls', 'tool_call_id')
      .where({ conversation_id: id })
      .whereIn('role', ['user', 'assistant'])
      .whereNull('tool_calls')
      .orderBy('id', 'desc')
      .limit(limit)) as MessageRow[];
    return rows.reverse().map((row) => ({ role: row.role as Role, content: row.content }));
  }

  /** Every message of a conversation, oldest first, tool calls and results included. */
  async messages(id: string): Promise<ChatMessage[]> {
    const rows = (await this.db('genai_messages')
      .select('id', 'role', 'content', 'tool_calls', 'tool_call_id')
      .where({ conversation_id: id })
      .orderBy('id')) as MessageRow[];
    return rows.map((row) => ({
      role: row.role as Role,
      content: row.content,
      ...(row.tool_calls
        ? {
            toolCalls: readJson<ToolCall[]>(row.tool_calls, {
              table: 'genai_messages',
              column: 'tool_calls',
              row: String(row.id),
            }),
          }
        : {}),
      ...(row.tool_call_id ? { toolCallId: row.tool_call_id } : {}),
    }));
  }

  async append(id: string, messages: readonly ChatMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const stamp = nowIso();
    await this.db.transaction(async (trx) => {
      await trx('genai_messages').insert(
        messages.map((m) => ({
          conversation_id: id,
          role: m.role,
          content: m.content,
          tool_calls: m.toolCalls?.length ? writeJson(m.toolCalls) : null,
          tool_call_id: m.toolCallId ?? null,
          created_at: stamp,
        })),
      );
      await trx('genai_conversations').where({ id }).update({ updated_at: stamp });
    });
  }
}
