import type { RunOperation } from '@vela/plugin-connector/api';
import type { Environment, PathEvent } from '../api.js';

/** What an event does in each environment: index the paths there, or remove them from there. */
export interface EventStep {
  environment: Environment;
  operation: Extract<RunOperation, 'INDEX_IDS' | 'DEINDEX_IDS'>;
}

/**
 * INDEXING (the author saved) indexes into the author site, PUBLISHING (activated) into the publish site;
 * DEINDEXING (deleted) removes from both, UNPUBLISHING (deactivated) from the publish site.
 */
export function stepsOf(event: PathEvent): EventStep[] {
  switch (event) {
    case 'INDEXING':
      return [{ environment: 'author', operation: 'INDEX_IDS' }];
    case 'PUBLISHING':
      return [{ environment: 'publish', operation: 'INDEX_IDS' }];
    case 'DEINDEXING':
      return [
        { environment: 'author', operation: 'DEINDEX_IDS' },
        { environment: 'publish', operation: 'DEINDEX_IDS' },
      ];
    case 'UNPUBLISHING':
      return [{ environment: 'publish', operation: 'DEINDEX_IDS' }];
  }
}
