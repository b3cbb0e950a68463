import { VelaError } from 'vela/plugin';

/** Every error the metrics routes answer with, in the search service's codes and words. */
export const metricsErrors = {
  siteNotFound: (site: string) => new VelaError('site_not_found', `no site named or with id "${site}"`, 404),
  localeNotFound: (site: string, locale: string, known: string[]) =>
    new VelaError(
      'locale_not_found',
      `site "${site}" has no locale "${locale}" (it has: ${known.join(', ') || 'none'})`,
      404,
    ),
  missingParameter: (name: string, hint: string) =>
    new VelaError('missing_parameter', `${name} is required: ${hint}`, 400),
  invalidParameter: (name: string, message: string) => new VelaError('invalid_parameter', `${name} ${message}`, 400),
} as const;
