import { VelaError } from '../errors.js';

/** Every error a console answers with: code, status, message. */
export const consoleErrors = {
  signInCsrf: () =>
    new VelaError(
      'csrf_token_invalid',
      'the sign-in form must be sent with the csrf member the sign-in page (GET /console/login) gave it, and its cookie; reload the page and try again',
      403,
    ),
  sessionCsrf: () =>
    new VelaError(
      'csrf_token_invalid',
      'a console form must carry the csrf member of the signed-in page it came from; reload the page and try again',
      403,
    ),
  missingCredentials: () =>
    new VelaError('missing_parameter', 'username and password are required: send both as form members', 400),
  wrongCredentials: () => new VelaError('unauthorized', 'the user name or password is not right', 401),
  signedOut: () =>
    new VelaError('unauthorized', 'this console page needs a console session: sign in at /console/login', 401),
  assetNotFound: (name: string) =>
    new VelaError('not_found', `the console has no file named "${name.slice(0, 100)}"`, 404),
} as const;
