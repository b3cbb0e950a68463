import type { Accounts } from '../auth/accounts.js';
import type { Changes } from '../changes/change-feed.js';
import type { HttpClient } from '../http/http-client.js';
import type { Logger } from '../logger.js';
import type { OutboundGuard } from '../network/outbound-guard.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { Database } from '../storage/database.js';
import type { WorkerPool } from '../workers/worker-pool.js';

/**
 * Every service a plugin can resolve, by name, with its type: the runtime's own below, and each
 * plugin's `<plugin>.<service>` declared by its provider in its api.ts, augmenting the SDK entry, which
 * re-exports this interface:
 *
 *   declare module 'vela/plugin' {
 *     interface ServiceRegistry { 'search.importer': SearchImporter }
 *   }
 */
export interface ServiceRegistry {
  /** The plugin's own child logger (`{plugin: name}`). */
  logger: Logger;
  /** Its configuration section, validated, defaults filled (also `ctx.config`). */
  pluginConfig: Record<string, unknown>;
  db: Database;
  workers: WorkerPool;
  scheduler: Scheduler;
  httpClient: HttpClient;
  accounts: Accounts;
  /** Outbound HTTP on a user's behalf, through the internal-address guard (runtime/network/outbound-guard.ts). */
  outbound: OutboundGuard;
  /** Change notices between the processes sharing the database (runtime/changes/change-feed.ts). */
  changes: Changes;
}

export type ServiceName = keyof ServiceRegistry & string;
