import { randomUUID } from 'node:crypto';
import type { Database, Logger } from 'vela/plugin';
import { bucketOf, LatencyHistogram } from './latency-histogram.js';

const MINUTE_MS = 60_000;

interface MinuteTotals {
  key: string;
  mappingId: string;
  minute: number;
  count: number;
  errors: number;
  histogram: LatencyHistogram;
}

/** A response counts as an error when it is a server-side failure: the upstream's 5xx, or the gateway's 502/504. */
export const isError = (status: number): boolean => status >= 500;

/**
 * Records every proxied response's mapping, status and upstream time off the hot path: `record`
 * writes three numbers into preallocated typed arrays; a timer drains them into per-mapping,
 * per-minute histograms and writes those to the store (one row per mapping, minute and process).
 */
export class ResponseTimeRecorder {
  readonly processId = randomUUID();
  private readonly slotIds: string[] = [];
  private readonly slots = new Map<string, number>();
  private readonly ringSlot: Uint32Array;
  private readonly ringStatus: Uint16Array;
  private readonly ringMicros: Float64Array;
  private readonly ringTime: Float64Array;
  private size = 0;
  private readonly minutes = new Map<string, MinuteTotals>();
  /** Per slot, the minute its last sample counted in (always one of `minutes`). */
  private readonly latest: Array<MinuteTotals | undefined> = [];
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    capacity: number,
    private readonly isLive: (mappingId: string) => boolean,
  ) {
    this.ringSlot = new Uint32Array(capacity);
    this.ringStatus = new Uint16Array(capacity);
    this.ringMicros = new Float64Array(capacity);
    this.ringTime = new Float64Array(capacity);
  }

  /** A small number standing for a mapping on the hot path. */
  slotOf(mappingId: string): number {
    let slot = this.slots.get(mappingId);
    if (slot === undefined) {
      slot = this.slotIds.length;
      this.slotIds.push(mappingId);
      this.slots.set(mappingId, slot);
    }
    return slot;
  }

  /** Hot path: no allocation, no I/O. A full buffer is drained into memory first. */
  record(slot: number, status: number, micros: number): void {
    if (this.size === this.ringSlot.length) this.drain();
    const i = this.size++;
    this.ringSlot[i] = slot;
    this.ringStatus[i] = status;
    this.ringMicros[i] = micros;
    this.ringTime[i] = Date.now();
  }

  start(flushMs: number): void {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Drain the buffer and write every minute that changed; flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.write())
      .catch((error: Error) =>
        this.logger.warn({ err: error }, 'writing response times failed; they are kept for the next flush'),
      );
    return this.flushing;
  }

  private drain(): void {
    for (let i = 0; i < this.size; i++) {
      const slot = this.ringSlot[i]!;
      const minute = Math.floor(this.ringTime[i]! / MINUTE_MS) * MINUTE_MS;
      // Most samples fall in their mapping's latest minute: no key string or map lookup for those.
      let totals = this.latest[slot];
      if (totals?.minute !== minute) {
        const mappingId = this.slotIds[slot]!;
        const key = `${mappingId}|${minute}`;
        totals = this.minutes.get(key);
        if (!totals) {
          totals = { key, mappingId, minute, count: 0, errors: 0, histogram: new LatencyHistogram() };
          this.minutes.set(key, totals);
        }
        this.latest[slot] = totals;
      }
      totals.count += 1;
      if (isError(this.ringStatus[i]!)) totals.errors += 1;
      totals.histogram.add(bucketOf(this.ringMicros[i]!));
      this.dirty.add(totals.key);
    }
    this.size = 0;
  }

  private async write(): Promise<void> {
    this.drain();
    const keys = [...this.dirty];
    this.dirty.clear();
    try {
      for (const key of keys) {
        const t = this.minutes.get(key)!;
        if (!this.isLive(t.mappingId)) continue;
        await this.db('gateway_response_times')
          .insert({
            mapping_id: t.mappingId,
            minute: t.minute,
            process_id: this.processId,
            count: t.count,
            errors: t.errors,
            histogram: JSON.stringify(t.histogram),
          })
          .onConflict(['mapping_id', 'minute', 'process_id'])
          .merge(['count', 'errors', 'histogram']);
      }
    } catch (error) {
      for (const key of keys) this.dirty.add(key);
      throw error;
    }
    // A minute that ended a while ago gets no more samples: its row is final.
    const settled = Date.now() - 2 * MINUTE_MS;
    for (const [key, t] of this.minutes) if (t.minute < settled && !this.dirty.has(key)) this.minutes.delete(key);
    this.latest.length = 0;
  }
}
