import type { NextFunction, Request, Response } from 'express';
import type { AdminAccess } from '../../../runtime/index.js';
import { gatewayErrors } from '../errors.js';

/** Admin API and console: only the runtime's administrator; cookie-signed writes need the CSRF token. */
export function adminGuard(access: AdminAccess) {
  return (req: Request, res: Response, next: NextFunction) => {
    access.authenticate(req).then((principal) => {
      if (!principal) {
        res.setHeader('WWW-Authenticate', 'Basic realm="Vela", charset="UTF-8"');
        const reason = req.headers.authorization ? 'the credentials in the Authorization header are not valid' : 'this endpoint needs the administrator\'s Basic credentials or a console session';
        return next(gatewayErrors.unauthorized(reason));
      }
      if (access.csrfMissing(principal, req)) return next(gatewayErrors.csrf());
      res.locals.principal = principal;
      next();
    }, next);
  };
}
