// What the semantic benchmark reads while a site is embedded: the runtime's log lines it cares about, and the
// site's embedding status polled until every document is done.
import { Writable } from 'node:stream';

/** The plugin's log messages the benchmark times, and anything at warn or above. */
const KEPT = new Set(['built-in embedding model learned', 'vector index built', 'embedding model activated']);
const WARN = 40;

export interface LogRecord {
  msg: string;
  level: number;
  /** When the benchmark read it (performance.now()). */
  at: number;
  [field: string]: unknown;
}

/** A log destination that keeps the records the benchmark needs (JSON lines in, everything else dropped). */
export class LogRecords extends Writable {
  readonly kept: LogRecord[] = [];
  private rest = '';

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const lines = (this.rest + chunk.toString('utf8')).split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const record = JSON.parse(line) as LogRecord;
        if (KEPT.has(record.msg) || record.level >= WARN) this.kept.push({ ...record, at: performance.now() });
      } catch {
        // not a JSON line
      }
    }
    done();
  }

  find(msg: string): LogRecord | undefined {
    return this.kept.find((r) => r.msg === msg);
  }

  warnings(): LogRecord[] {
    return this.kept.filter((r) => r.level >= WARN);
  }
}

/** The members of GET /api/sn/:site/semantic/status the benchmark reads. */
export interface SemanticStatus {
  locales: Array<{ locale: string; ready: boolean; reason: string | null; model: string | null; training: boolean }>;
  models: Array<{
    locale: string;
    model: string;
    active: boolean;
    pending: number;
    claimed: number;
    done: number;
    failed: number;
    passages: number;
  }>;
  failures: Array<{ id: string; reason: string }>;
}

/** When each stage was first seen (performance.now()), from a poll of the status. */
export interface Timeline {
  trainingSeen: number | null;
  modelSeen: number | null;
  done: number;
  status: SemanticStatus;
}

/**
 * Polls the site's status until its one locale is ready and its active model has every document done or failed;
 * throws past `timeoutMs`.
 */
export async function waitUntilEmbedded(
  read: () => Promise<SemanticStatus>,
  documents: number,
  timeoutMs: number,
  progress: (what: string) => void,
): Promise<Timeline> {
  const started = performance.now();
  let trainingSeen: number | null = null;
  let modelSeen: number | null = null;
  let lastReport = started;
  for (;;) {
    const status = await read();
    const now = performance.now();
    const locale = status.locales[0];
    if (locale?.training && trainingSeen === null) trainingSeen = now;
    if (locale?.model && modelSeen === null) modelSeen = now;
    const active = status.models.find((m) => m.active);
    const finished = active ? active.done + active.failed : 0;
    if (locale?.ready && active && active.pending === 0 && active.claimed === 0 && finished >= documents)
      return { trainingSeen, modelSeen, done: now, status };
    if (now - lastReport > 15_000) {
      lastReport = now;
      progress(`embedding: ${finished} of ${documents} documents${locale?.training ? ' (model being learned)' : ''}`);
    }
    if (now - started > timeoutMs)
      throw new Error(`not embedded after ${timeoutMs / 1000} s: ${JSON.stringify(status).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
