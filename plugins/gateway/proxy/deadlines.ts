/** A request's upstream deadline; the proxy's per-request object is one, so adding it allocates nothing. */
export interface Deadline {
  at: number;
  onExpire(): void;
}

/**
 * The upstream timeouts of the requests in flight, checked by one timer every `tickMs` instead of a
 * timer per request (cheaper on the hot path; a timeout fires up to `tickMs` late).
 */
export class Deadlines {
  private readonly pending = new Set<Deadline>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly tickMs = 25) {}

  add(deadline: Deadline): void {
    this.pending.add(deadline);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
  }

  remove(deadline: Deadline): void {
    this.pending.delete(deadline);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const deadline of this.pending) {
      if (deadline.at > now) continue;
      this.pending.delete(deadline);
      deadline.onExpire();
    }
    if (this.pending.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
