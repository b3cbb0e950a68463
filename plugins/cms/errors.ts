import { VelaError } from 'vela/plugin';

/** Every error the cms plugin answers with: code, status, message. */
export const cmsErrors = {
  sourceNotFound: (name: string) =>
    new VelaError('source_not_found', `no cms source named "${name}" (GET /api/v2/cms/source lists them)`, 404),
  idNotFound: (id: string) =>
    new VelaError('source_not_found', `no cms source with id "${id}" (GET /api/v2/cms/source lists them)`, 404),
  sourceExists: (name: string) => new VelaError('source_exists', `a cms source named "${name}" already exists`, 409),
  connectorSourceTaken: (name: string, connectorSource: string) =>
    new VelaError(
      'source_exists',
      `body.name ("${name}") makes connector source "${connectorSource}", which the cms plugin did not make (GET /api/v2/connector/source/${connectorSource}): choose another name`,
      409,
    ),
  idMismatch: (path: string, body: unknown) =>
    new VelaError(
      'invalid_parameter',
      `body.id (${JSON.stringify(body)}) must match the id in the path ("${path}")`,
      400,
    ),
  renamed: (name: string) =>
    new VelaError(
      'invalid_parameter',
      `body.name cannot change (it names the source's connector sources and their records); it is "${name}"`,
      400,
    ),
  passwordForNewOrigin: (from: string, to: string) =>
    new VelaError(
      'invalid_parameter',
      `body.password is required when body.endpoint moves to another origin (${from} to ${to}): the stored password is not sent to a new host`,
      400,
    ),
  invalid: (problems: string[]) => new VelaError('validation_failed', problems.join('; '), 400),
  invalidParameter: (member: string, message: string) =>
    new VelaError('invalid_parameter', `${member} ${message}`, 400),
  notStarted: () =>
    new VelaError('service_unavailable', 'the cms plugin has not started yet: its secret box is not open', 503),
} as const;
