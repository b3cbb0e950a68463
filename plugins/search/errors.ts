import { VelaError } from 'vela/plugin';

/** Every error of its own the search plugin answers with (bad parameters are the SDK's httpErrors). */
export const searchErrors = {
  siteNotFound: (site: string) => new VelaError('site_not_found', `no site named or with id "${site}"`, 404),
  localeNotFound: (site: string, locale: string, known: string[]) =>
    new VelaError(
      'locale_not_found',
      `site "${site}" has no locale "${locale}" (it has: ${known.join(', ') || 'none'})`,
      404,
    ),
  fieldNotFound: (site: string, field: string) =>
    new VelaError('field_not_found', `site "${site}" has no field with id "${field}"`, 404),
  tokenNotFound: (id: string) => new VelaError('token_not_found', `no API token with id "${id}"`, 404),
  siteNameTaken: (name: string) => new VelaError('site_exists', `a site named "${name}" already exists`, 409),
  siteIdTaken: (id: string) => new VelaError('site_exists', `a site with id "${id}" already exists`, 409),
  fieldIdTaken: (id: string) => new VelaError('field_exists', `a field with id "${id}" already exists`, 409),
  fieldNameTaken: (site: string, name: string) =>
    new VelaError('field_exists', `site "${site}" already has a field named "${name}"`, 409),
  localeTaken: (site: string, locale: string) =>
    new VelaError('locale_exists', `site "${site}" already has locale "${locale}"`, 409),
  lastLocale: (site: string) => new VelaError('last_locale', `site "${site}" must keep at least one locale`, 409),
  spotlightNotFound: (site: string, id: string) =>
    new VelaError('spotlight_not_found', `site "${site}" has no spotlight with id "${id}"`, 404),
  localeRequired: (site: string, locales: string[]) =>
    new VelaError(
      'missing_parameter',
      `_setlocale is required: site "${site}" has several locales (${locales.join(', ')}) and no defaultLocale; give one, e.g. _setlocale=${locales[0]}`,
      400,
    ),
  indexChanging: (site: string) =>
    new VelaError(
      'index_changed',
      `the fields of site "${site}" changed several times while this search waited for its index; search again`,
      503,
    ).withHeaders({
      'Retry-After': '1',
    }),
  unknownSpellCheckLocale: (locale: string, known: string[]) =>
    new VelaError(
      'locale_not_found',
      `the spell checker has no dictionary for "${locale}" (it has: ${known.join(', ')})`,
      404,
    ),
} as const;
