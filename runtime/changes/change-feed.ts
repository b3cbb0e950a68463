import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger.js';
import type { Database } from '../storage/database.js';

/** How a published change reaches the other processes. */
export type ChangeFeedMode =
  /** PostgreSQL LISTEN/NOTIFY: every process on the database, on any machine. */
  | 'postgres'
  /** The workers of one `vela start --workers N` (SQLite), relayed by the primary process over IPC. */
  | 'cluster'
  /** This process only. */
  | 'process';

/** What a subscriber learns besides the payload. */
export interface ChangeInfo {
  /** Published by this process (its own write: memory is usually up to date already). */
  local: boolean;
  /**
   * The feed was cut and is back: changes published meanwhile were lost, so the subscriber should reload
   * what it holds (the payload is undefined). The plugins' own polls are the safety net either way.
   */
  resync: boolean;
}

export type ChangeListener = (payload: unknown, info: ChangeInfo) => void;

/**
 * The `changes` core service: small messages that tell every process sharing the database that something
 * changed, in milliseconds. A hint, never the data of record: a subscriber reloads from the store (or
 * applies the payload when that is safe), and a poll stays as the safety net, since a message can be
 * lost while a connection is down (subscribers are then called with `resync`).
 */
export interface Changes {
  readonly mode: ChangeFeedMode;
  /**
   * Tell every process (this one included, at once, with `local: true`) about a change on `channel`
   * (`<plugin>.<name>`). `payload`, as JSON, stays under 7,000 bytes. Publish after the write committed.
   * Never rejects: false when the message could not be sent to other processes (the database is
   * unreachable); their polls pick the change up.
   */
  publish(channel: string, payload?: unknown): Promise<boolean>;
  /** Call `fn` for each change on `channel`, from any process. Returns the unsubscribe function. */
  subscribe(channel: string, fn: ChangeListener): () => void;
  /** Resolves once changes from other processes are being received (at once outside PostgreSQL mode). */
  ready(): Promise<void>;
}

/** The one PostgreSQL channel every Vela process LISTENs on; the Vela channel travels in the payload. */
export const PG_CHANNEL = 'vela_changes';
const MAX_PAYLOAD_BYTES = 7000;
const CHANNEL_NAME = /^[a-z0-9][a-z0-9_.-]{0,99}$/;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 2000;

interface Envelope {
  /** Origin: the publishing process's feed id. */
  o: string;
  /** Channel. */
  c: string;
  /** Payload. */
  p?: unknown;
}

/** The IPC message a cluster worker sends to the primary, which relays it to the other workers. */
export interface ClusterChangeMessage {
  velaChange: Envelope;
}

export function isClusterChangeMessage(message: unknown): message is ClusterChangeMessage {
  return typeof message === 'object' && message !== null && 'velaChange' in message;
}

export class ChangeFeed implements Changes {
  readonly mode: ChangeFeedMode;
  private readonly origin = randomUUID();
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private listening = false;
  private everListened = false;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private backoffMs = RECONNECT_MIN_MS;
  private readyWaiters: Array<() => void> = [];
  private readonly onIpc = (message: unknown) => {
    if (isClusterChangeMessage(message) && message.velaChange.o !== this.origin)
      this.dispatch(message.velaChange, false);
  };

  constructor(
    private readonly db: () => Database,
    private readonly databaseUrl: string | null,
    private readonly logger: Logger,
  ) {
    if (databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) this.mode = 'postgres';
    else if (cluster.isWorker && typeof process.send === 'function') this.mode = 'cluster';
    else this.mode = 'process';
    if (this.mode === 'cluster') process.on('message', this.onIpc);
  }

  async publish(channel: string, payload?: unknown): Promise<boolean> {
    checkChannel(channel);
    const envelope: Envelope =
      payload === undefined ? { o: this.origin, c: channel } : { o: this.origin, c: channel, p: payload };
    const text = JSON.stringify(envelope);
    if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES)
      throw new Error(`change on ${channel}: payload over ${MAX_PAYLOAD_BYTES} bytes`);
    this.dispatch(envelope, true);
    if (this.closed) return false;
    if (this.mode === 'cluster') {
      try {
        process.send!({ velaChange: envelope } satisfies ClusterChangeMessage);
        return true;
      } catch {
        return false;
      }
    }
    if (this.mode !== 'postgres') return true;
    try {
      await this.db().raw('select pg_notify(?, ?)', [PG_CHANNEL, text]);
      return true;
    } catch (error) {
      this.logger.warn(
        { err: error, channel },
        'publishing a change failed; other processes will see it at their next poll',
      );
      return false;
    }
  }

  subscribe(channel: string, fn: ChangeListener): () => void {
    checkChannel(channel);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(fn);
    if (this.mode === 'postgres') void this.connect();
    return () => {
      set.delete(fn);
    };
  }

  ready(): Promise<void> {
    if (this.mode !== 'postgres' || this.listening || this.closed) return Promise.resolve();
    void this.connect();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Whether changes from other processes arrive right now (always true outside PostgreSQL mode). */
  get live(): boolean {
    return this.mode !== 'postgres' || this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.mode === 'cluster') process.off('message', this.onIpc);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    const client = this.client;
    this.client = null;
    this.listening = false;
    if (client) await client.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (this.closed || this.client || !this.databaseUrl) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** A dedicated connection (LISTEN holds it: not one of the pool's) that reconnects with backoff. */
  private async open(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl!,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = null;
        this.listening = false;
      }
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn(
        { err: error, retryInMs: this.backoffMs },
        'the change feed lost its database connection; reconnecting',
      );
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== PG_CHANNEL || !message.payload) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message.payload) as Envelope;
      } catch {
        return;
      }
      if (envelope.o !== this.origin && typeof envelope.c === 'string') this.dispatch(envelope, false);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.closed || lost) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listening = true;
    this.backoffMs = RECONNECT_MIN_MS;
    const again = this.everListened;
    this.everListened = true;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    if (again) {
      this.logger.info('the change feed is back; subscribers reload');
      for (const [channel, set] of this.listeners)
        for (const fn of set) this.call(channel, fn, undefined, { local: false, resync: true });
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private dispatch(envelope: Envelope, local: boolean): void {
    const set = this.listeners.get(envelope.c);
    if (!set) return;
    for (const fn of [...set]) this.call(envelope.c, fn, envelope.p, { local, resync: false });
  }

  private call(channel: string, fn: ChangeListener, payload: unknown, info: ChangeInfo): void {
    try {
      fn(payload, info);
    } catch (error) {
      this.logger.error({ err: error, channel }, 'a change subscriber failed');
    }
  }
}

function checkChannel(channel: string): void {
  if (!CHANNEL_NAME.test(channel))
    throw new Error(`"${channel}" is not a change channel name (lower-case letters, digits, "_", "." and "-")`);
}
