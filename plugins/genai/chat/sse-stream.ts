import type { Response } from 'vela/plugin';

/**
 * One Server-Sent Events answer: `event: <name>` and one `data:` line of JSON per event (JSON never holds a
 * raw line break, so one line is always enough), a comment line every `heartbeatMs` so proxies that close
 * idle connections keep it open, and `onClientGone` when the client closes the connection before the end.
 */
export class SseStream {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly res: Response,
    heartbeatMs: number,
    onClientGone: () => void,
  ) {
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      // nginx buffers proxied answers unless told not to.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), heartbeatMs);
    this.heartbeat.unref();
    res.on('close', () => {
      if (this.closed) return;
      this.closed = true;
      clearInterval(this.heartbeat);
      onClientGone();
    });
  }

  get open(): boolean {
    return !this.closed;
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.res.end();
  }

  private write(text: string): void {
    if (!this.closed) this.res.write(text);
  }
}
