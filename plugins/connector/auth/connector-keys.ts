import type { SearchKeys } from '@vela/plugin-search/api';
import { type KeyVerifier, sameSecret } from 'vela/plugin';

/**
 * The Key header on the connector service: one of the connector's configured keys, or an API token of
 * the search service when it runs in the same process (`search.keys`).
 */
export function connectorKeys(apiKeys: readonly string[], searchKeys: () => SearchKeys | undefined): KeyVerifier {
  return (key) => {
    if (apiKeys.some((k) => sameSecret(k, key))) return { username: 'connector', via: 'key', scopes: ['connector'] };
    return searchKeys()?.verify(key) ?? null;
  };
}
