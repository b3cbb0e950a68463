/** A request's upstream deadline; the proxy's per-request object is one, so adding it allocates nothing. */
export interface Deadline {
  at: number;
  /** Where the deadline sits in Deadlines' array while it is pending (-1 when it is not); Deadlines' own. */
  deadlineSlot: number;
  onExpire(): void;
}

/**
 * The upstream timeouts of the requests in flight, checked by one timer every `tickMs` instead of a
 * timer per request (cheaper on the hot path; a timeout fires up to `tickMs` late).
 *
 * They are kept in an array, each deadline knowing its slot, and not in a Set: a Set with an add and a delete
 * per request is rebuilt every few hundred requests, and V8 links each table it drops to the next one. Once a
 * collection of the old space had promoted the current table, every dropped table stayed linked to the ones
 * after it, and through them to their requests: each scavenge then kept and promoted 1.4 to 3 MB of finished
 * requests until the next old-space collection, which started it again (docs/BENCHMARKS.md, the gateway
 * collector's two modes).
 */
export class Deadlines {
  private readonly pending: Deadline[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly tickMs = 25) {}

  get size(): number {
    return this.pending.length;
  }

  add(deadline: Deadline): void {
    if (deadline.deadlineSlot >= 0) return;
    deadline.deadlineSlot = this.pending.length;
    this.pending.push(deadline);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
  }

  /** Takes the deadline out, moving the last one into its slot. */
  remove(deadline: Deadline): void {
    const slot = deadline.deadlineSlot;
    if (slot < 0 || this.pending[slot] !== deadline) return;
    const last = this.pending.pop()!;
    if (last !== deadline) {
      this.pending[slot] = last;
      last.deadlineSlot = slot;
    }
    deadline.deadlineSlot = -1;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const deadline of this.pending) deadline.deadlineSlot = -1;
    this.pending.length = 0;
  }

  /**
   * From the end down, so that a removal (which moves the last deadline into the freed slot) only ever moves
   * one already looked at; an expiry that removes or adds others leaves the rest to look at in place.
   */
  private sweep(): void {
    const now = Date.now();
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const deadline = this.pending[i];
      if (deadline === undefined || deadline.at > now) continue;
      this.remove(deadline);
      deadline.onExpire();
    }
    if (this.pending.length === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
