import type { ConnectorRuns, ConnectorSources } from '@vela/plugin-connector/api';
import type { Logger, OutboundGuard } from 'vela/plugin';
import type { PathEvents } from '../events/path-events.js';
import type { CmsSourceStore } from '../sources/cms-source-store.js';
import type { ConnectorSync } from '../sources/connector-sync.js';

/** What the route files share, built once in index.ts. */
export interface CmsDomain {
  store: CmsSourceStore;
  sync: ConnectorSync;
  events: PathEvents;
  runs(): ConnectorRuns;
  sources(): ConnectorSources;
  outbound(): OutboundGuard;
  logger: Logger;
}

export const API = '/api/v2/cms';
/** Every key route of the plugin needs the connector scope, as the connector's own routes do. */
export const SCOPE = 'connector';
