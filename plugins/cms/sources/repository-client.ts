import type { OutboundFetch } from 'vela/plugin';
import type { CmsSource } from '../api.js';
import { SlingClient } from '../repository/sling-client.js';
import type { CmsSourceStore } from './cms-source-store.js';

export interface RepositoryLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

/** A Sling client for a source, with its password opened from the store: for the kind's reads and the event's walks. */
export async function repositoryClient(
  store: CmsSourceStore,
  source: CmsSource,
  fetch: OutboundFetch,
  limits: RepositoryLimits,
  signal?: AbortSignal,
): Promise<SlingClient> {
  const password = await store.password(source.id);
  if (password === null)
    throw new Error(
      `the password of cms source "${source.name}" cannot be opened (was VELA_SECRET_KEY or the key file changed?): set it again with PUT`,
    );
  return new SlingClient({
    endpoint: source.endpoint,
    username: source.username,
    password,
    fetch,
    signal,
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxResponseBytes,
  });
}
