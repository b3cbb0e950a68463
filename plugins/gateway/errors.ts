import { VelaError } from 'vela/plugin';

/** Every error the gateway's admin API and proxy answer with: code, status, message. */
export const gatewayErrors = {
  mappingNotFound: (id: string) => new VelaError('mapping_not_found', `no mapping with id "${id}"`, 404),
  appNotFound: (id: string) => new VelaError('app_not_found', `no app with id "${id}"`, 404),
  contextTaken: (context: string) =>
    new VelaError('mapping_exists', `a mapping with context "${context}" already exists`, 409),
  invalidField: (field: string, expectation: string) => new VelaError('invalid_field', `${field} ${expectation}`, 400),
} as const;

/** Bodies of the errors the proxy writes itself (it answers before express). */
export const proxyErrors = {
  noRoute: (name: string, path: string) => ({
    status: 404,
    error: 'mapping_not_found',
    message: `no mapping of "${name}" serves the path ${path}`,
  }),
  badPath: () => ({
    status: 400,
    error: 'invalid_path',
    message:
      'the path must not contain "." or ".." segments (nor ones hidden by %2e, %2f, %5c, a backslash or a ";" parameter)',
  }),
  headTooLarge: (name: string, bytes: number, max: number) => ({
    status: 431,
    error: 'headers_too_large',
    message: `the request line and headers forwarded to the upstream of mapping "${name}" would be ${bytes} bytes, more than the gateway forwards (${max}, plugins.gateway.proxy.maxForwardedHeadBytes); shorten the path, query or headers`,
  }),
  unreachable: (name: string, cause: string) => ({
    status: 502,
    error: 'bad_gateway',
    message: `the upstream of mapping "${name}" could not be reached (${cause})`,
  }),
  storeUnavailable: () => ({
    status: 503,
    error: 'service_unavailable',
    message: 'the token could not be checked: the gateway store is unreachable; retry shortly',
    retryAfter: 2,
  }),
  lookupsBusy: () => ({
    status: 503,
    error: 'service_unavailable',
    message: 'the token could not be checked now: too many unknown tokens are being looked up; retry shortly',
    retryAfter: 1,
  }),
  timeout: (name: string, ms: number) => ({
    status: 504,
    error: 'gateway_timeout',
    message: `the upstream of mapping "${name}" did not answer within its timeout of ${ms} ms`,
  }),
} as const;
