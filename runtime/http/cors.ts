import type { NextFunction, Request, Response } from 'express';
import type { CorsConfig } from '../config/load-config.js';

/** CORS per service from its config: allowed origins ("*" for any), methods, headers, credentials. */
export function cors(config: CorsConfig) {
  const any = config.origins.includes('*');
  const allowed = new Set(config.origins);
  const methods = config.methods.join(', ');
  const headers = config.headers.join(', ');
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (!origin || !(any || allowed.has(origin))) return next();
    // With credentials a wildcard is not allowed by browsers, so the origin is echoed.
    res.setHeader('Access-Control-Allow-Origin', any && !config.credentials ? '*' : origin);
    res.append('Vary', 'Origin');
    if (config.credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', headers);
      res.setHeader('Access-Control-Max-Age', String(config.maxAgeSeconds));
      res.status(204).end();
      return;
    }
    next();
  };
}
