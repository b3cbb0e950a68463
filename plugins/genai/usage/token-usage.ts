import type { Database, Logger } from 'vela/plugin';
import { genaiErrors } from '../errors.js';
import type { Usage } from '../providers/provider.js';

/** Which API a provider call served. */
export type UsageEndpoint = 'site-chat' | 'chat' | 'agent' | 'embeddings';

export interface UsageRecord {
  instanceId: string;
  instanceTitle: string;
  vendorId: string;
  modelName: string;
  /** The API token's owner or the administrator; `anonymous` on public routes without credentials. */
  username: string;
  endpoint: UsageEndpoint;
  usage: Usage;
  /** true: the provider reported the numbers; false: counted here with the tokenizer. */
  reported: boolean;
}

/** The instance a call used, as its usage record names it. */
export interface UsageInstance {
  id: string;
  title: string;
  vendor: string;
}

/**
 * Records one call's usage; a failed write is logged, never the call's failure (the answer was given).
 */
export async function recordUsage(
  store: TokenUsageStore,
  logger: Logger,
  instance: UsageInstance,
  call: Omit<UsageRecord, 'instanceId' | 'instanceTitle' | 'vendorId'>,
): Promise<void> {
  try {
    await store.record({ instanceId: instance.id, instanceTitle: instance.title, vendorId: instance.vendor, ...call });
  } catch (error) {
    logger.warn({ err: error }, 'token usage not recorded');
  }
}

export interface UsageLine {
  instanceId: string;
  instanceTitle: string;
  vendorId: string;
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  requestCount: number;
}

/** GET /api/v2/llm/token-usage (the original's shape, section 6.3 of the reference). */
export interface UsageReport {
  periodStart: string;
  /** Exclusive. */
  periodEnd: string;
  daily: Array<UsageLine & { date: string }>;
  summary: UsageLine[];
  totalInputTokens: number;
  totalOutputTokens: number;
  totalTokens: number;
  totalRequests: number;
}

/** [first day, first day of the next month) of a YYYY-MM month, as YYYY-MM-DD; 400 for anything else. */
export function monthRange(month: string): { start: string; end: string } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw genaiErrors.invalidMonth(month);
  const year = Number(m[1]);
  const index = Number(m[2]);
  const next = index === 12 ? `${year + 1}-01` : `${m[1]}-${String(index + 1).padStart(2, '0')}`;
  return { start: `${m[1]}-${m[2]}-01`, end: `${next}-01` };
}

export const currentMonth = (at = new Date()) => at.toISOString().slice(0, 7);

interface GroupRow {
  day?: string;
  instance_id: string;
  vendor_id: string;
  model_name: string;
  instance_title: string;
  input: unknown;
  output: unknown;
  total: unknown;
  requests: unknown;
}

/**
 * One row per provider call in `genai_token_usage`, with the UTC day as a column so the monthly report
 * is a GROUP BY on both databases. Days are UTC (the original used the server's local time).
 */
export class TokenUsageStore {
  constructor(
    private readonly db: Database,
    private readonly titleOf: (instanceId: string) => string | undefined,
  ) {}

  async record(record: UsageRecord, at = new Date()): Promise<void> {
    const stamp = at.toISOString();
    await this.db('genai_token_usage').insert({
      created_at: stamp,
      day: stamp.slice(0, 10),
      instance_id: record.instanceId,
      instance_title: record.instanceTitle.slice(0, 100),
      vendor_id: record.vendorId,
      model_name: record.modelName.slice(0, 200),
      username: record.username.slice(0, 64),
      endpoint: record.endpoint,
      input_tokens: record.usage.inputTokens,
      output_tokens: record.usage.outputTokens,
      total_tokens: record.usage.totalTokens,
      reported: record.reported,
    });
  }

  async report(month: string): Promise<UsageReport> {
    const { start, end } = monthRange(month);
    const group = ['instance_id', 'vendor_id', 'model_name'];
    const sums = (q: ReturnType<Database>) =>
      q
        .from('genai_token_usage')
        .where('day', '>=', start)
        .andWhere('day', '<', end)
        .max({ instance_title: 'instance_title' })
        .sum({ input: 'input_tokens', output: 'output_tokens', total: 'total_tokens' })
        .count({ requests: '*' });
    const [daily, summary] = (await Promise.all([
      sums(this.db.select('day', ...group))
        .groupBy('day', ...group)
        .then((rows) => rows),
      sums(this.db.select(...group))
        .groupBy(...group)
        .then((rows) => rows),
    ])) as [GroupRow[], GroupRow[]];
    const line = (row: GroupRow): UsageLine => ({
      instanceId: row.instance_id,
      instanceTitle: this.titleOf(row.instance_id) ?? row.instance_title,
      vendorId: row.vendor_id,
      modelName: row.model_name,
      inputTokens: Number(row.input),
      outputTokens: Number(row.output),
      totalTokens: Number(row.total),
      requestCount: Number(row.requests),
    });
    const dailyLines = daily
      .map((row) => ({ date: row.day!, ...line(row) }))
      .sort(
        (a, b) =>
          b.date.localeCompare(a.date) || b.totalTokens - a.totalTokens || a.instanceId.localeCompare(b.instanceId),
      );
    const summaryLines = summary
      .map(line)
      .sort((a, b) => b.totalTokens - a.totalTokens || a.instanceId.localeCompare(b.instanceId));
    const total = (key: 'inputTokens' | 'outputTokens' | 'totalTokens' | 'requestCount') =>
      summaryLines.reduce((sum, l) => sum + l[key], 0);
    return {
      periodStart: start,
      periodEnd: end,
      daily: dailyLines,
      summary: summaryLines,
      totalInputTokens: total('inputTokens'),
      totalOutputTokens: total('outputTokens'),
      totalTokens: total('totalTokens'),
      totalRequests: total('requestCount'),
    };
  }
}
