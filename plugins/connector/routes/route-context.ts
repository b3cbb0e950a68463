import type { Logger, OutboundGuard, RuntimeInfo } from 'vela/plugin';
import type { RunStore } from '../monitoring/run-store.js';
import type { RunCoordinator } from '../pipeline/run-coordinator.js';
import type { RunLeases } from '../pipeline/run-leases.js';
import type { StatusStore } from '../pipeline/status-store.js';
import type { RuleStore } from '../rules/rule-store.js';
import type { SearchTarget } from '../search-target/search-target.js';
import type { SourceKindRegistry } from '../sources/source-kind-registry.js';
import type { SourceStore } from '../sources/source-store.js';

/** What the route files share: the plugin's domain objects, built once in index.ts. */
export interface ConnectorDomain {
  kinds: SourceKindRegistry;
  sources: SourceStore;
  statuses: StatusStore;
  runs: RunStore;
  rules: RuleStore;
  coordinator: RunCoordinator;
  leases: RunLeases;
  /** The search service documents go to; throws 503 when there is none. */
  target(): SearchTarget;
  /** The runtime's outbound guard, for what sources fetch (created on first use). */
  outbound(): OutboundGuard;
  dataDir: string;
  host: RuntimeInfo;
  plugin: { name: string; version: string };
  logger: Logger;
}

export const API = '/api/v2/connector';
