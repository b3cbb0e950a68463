import { VelaError } from '../../../runtime/index.js';

/** Every error the console answers with: code, status, message. */
export const consoleErrors = {
  signInCsrf: () => new VelaError('csrf_token_invalid', 'the sign-in form must be sent with the csrf member the sign-in page (GET /console/login) gave it, and its cookie; reload the page and try again', 403),
  sessionCsrf: () => new VelaError('csrf_token_invalid', 'a console form must carry the csrf member of the signed-in page it came from; reload the page and try again', 403),
  missingCredentials: () => new VelaError('missing_parameter', 'username and password are required: send both as form members', 400),
  wrongCredentials: () => new VelaError('unauthorized', 'the user name or password is not right', 401),
  tooManySignIns: (seconds: number) => new VelaError('too_many_requests', `too many failed sign-ins for this user from this address; try again in ${seconds} s`, 429),
  assetNotFound: (name: string) => new VelaError('not_found', `the console has no file named "${name}"`, 404),
} as const;
