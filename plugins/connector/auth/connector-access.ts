import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { sameSecret } from '../../../runtime/index.js';
import type { AccessControl } from '../../search/auth/access-control.js';
import { connectorErrors } from '../errors.js';

const PUBLIC_PATHS = new Set(['/api/v2/connector/status']);

/**
 * Who may call the connector: a request with the Key header holding one of the connector's
 * configured keys, or an API token of the search service when it runs in the same process.
 */
export class ConnectorAccess {
  constructor(private readonly apiKeys: readonly string[], private readonly searchAccess: () => AccessControl | undefined) {}

  /** null when the key is accepted, else why not. */
  async refusal(req: IncomingMessage): Promise<string | null> {
    const key = req.headers.key;
    if (typeof key !== 'string' || key === '') return 'this endpoint needs the Key header: an API token of the search service, or a key from plugins.connector.apiKeys';
    if (this.apiKeys.some((k) => sameSecret(k, key))) return null;
    const access = this.searchAccess();
    if (access) {
      const principal = await access.authenticate(req);
      if (principal?.via === 'key') return null;
    }
    return 'the Key header matches no API token of the search service and no key of plugins.connector.apiKeys';
  }

  /**
   * Express middleware for the connector's API paths (everything under /api/v2/connector but /status).
   * Paths are compared in lower case: the runtime routes by exact case, and this check stays on the safe side
   * whatever the routing does.
   */
  middleware(prefixes: readonly string[]) {
    const lower = prefixes.map((p) => p.toLowerCase());
    return (req: Request, _res: Response, next: NextFunction) => {
      const path = req.path.toLowerCase();
      if (!lower.some((p) => path === p || path.startsWith(`${p}/`)) || PUBLIC_PATHS.has(path) || req.method === 'OPTIONS') return next();
      this.refusal(req).then((reason) => next(reason ? connectorErrors.unauthorized(reason) : undefined), next);
    };
  }
}
