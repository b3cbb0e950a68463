import type { ApiRouter, JsonSchema, TaskRunner } from 'vela/plugin';
import { checkTypedText, itemRoute, normalizeLocale, pathParams, siteRefSchema, VelaError } from 'vela/plugin';
import type { SpellCheckerInput } from '../cognitive/spell-checker-task.js';
import { searchErrors } from '../errors.js';
import type { IndexManager } from '../indexing/index-manager.js';
import { replaceParam, toLink } from '../links/query-string.js';
import type { SearchService } from '../query/search-service.js';
import type { SiteConfig } from '../store/site-types.js';
import {
  AUTOCOMPLETE_DEFAULT_ROWS,
  AUTOCOMPLETE_MAX_ROWS,
  autocomplete,
  autocompleteFiltered,
} from '../suggest/autocomplete.js';
import { autocompleteFilters, countFiltered } from '../suggest/autocomplete-filters.js';
import { correctText } from '../suggest/spell-check.js';
import { stopWordsOf } from '../suggest/stop-words.js';
import { rawQuery } from './search.js';

const tags = ['search'];
const strings: JsonSchema = { type: 'array', items: { type: 'string' } };
const localeQuery: JsonSchema = {
  type: 'string',
  maxLength: 16,
  description: "locale, e.g. en_US (default: the site's only locale, or its defaultLocale)",
};
/**
 * A locale in a path, read like `_setlocale` (normalizeLocale: en_US, en-US, en-us); one the spell checker lacks
 * is a 404, as an unknown `_setlocale` is (one a site lacks is answered as the original does, see knownSite).
 */
const localePath: JsonSchema = { type: 'string', maxLength: 16, description: 'en_US (en-US, en-us work too)' };

export interface SuggestDomain {
  search: SearchService;
  indexes: IndexManager;
}

/** The locale a request names (`_setlocale`, or `locale`), normalised; '' when none. */
const localeOf = (query: Record<string, unknown>) => {
  const given = query._setlocale ?? query.locale;
  return typeof given === 'string' ? normalizeLocale(given) : '';
};

/**
 * The site and locale of a suggestion, or null when no site has that name or the site lacks that locale: the
 * original answers those with nothing (200), not with a 404 as the search does.
 */
function knownSite(search: SearchService, siteName: string, locale: string): SiteConfig | null {
  try {
    return search.resolve(siteName, locale);
  } catch (error) {
    if (error instanceof VelaError && (error.code === 'site_not_found' || error.code === 'locale_not_found'))
      return null;
    throw error;
  }
}

/** Autocomplete and the site spell check: public, like the search (the spec's list). */
export function mountSuggestRoutes(router: ApiRouter, { search, indexes }: SuggestDomain): void {
  const suggest = router.withDefaults({ access: 'public', tags });
  suggest.item(
    'get',
    '/api/sn/:siteName/ac',
    {
      summary:
        'Autocomplete: the query completed from the words and title phrases of the site, most documents first ([] for an unknown site or locale)',
      params: pathParams({ siteName: siteRefSchema }),
      query: {
        type: 'object',
        properties: {
          q: {
            type: 'string',
            maxLength: 200,
            default: '',
            description: 'what was typed; one character or none gives []',
          },
          _setlocale: localeQuery,
          locale: localeQuery,
          rows: {
            type: 'integer',
            minimum: 0,
            maximum: AUTOCOMPLETE_MAX_ROWS,
            default: AUTOCOMPLETE_DEFAULT_ROWS,
            description: 'most suggestions',
          },
          'fq[]': {
            type: 'array',
            items: { type: 'string' },
            description: 'filter field:value, as the search takes it: only documents that pass complete the query',
          },
          'fq.and[]': { type: 'array', items: { type: 'string' } },
          'fq.or[]': { type: 'array', items: { type: 'string' } },
        },
      },
      description: 'suggestions, each the whole query completed',
      schema: strings,
    },
    (req) => {
      const config = knownSite(search, String(req.params.siteName), localeOf(req.query));
      if (!config) return [];
      const locale = search.localeOf(config, localeOf(req.query));
      const engine = indexes.engine(config.site.id, locale);
      const typed = checkTypedText('q', String(req.query.q));
      const filter = autocompleteFilters(config, locale, req.path, rawQuery(req.originalUrl));
      if (filter)
        return autocompleteFiltered(engine.terms, typed, Number(req.query.rows), stopWordsOf(locale), (text) =>
          countFiltered(engine, filter, text),
        );
      return autocomplete(engine.terms, typed, Number(req.query.rows), stopWordsOf(locale));
    },
  );

  suggest.item(
    'get',
    '/api/sn/:siteName/:locale/spell-check',
    {
      summary:
        "Spell check against the site's own vocabulary: widget.spellCheck for this text ({} for an unknown site or locale)",
      params: pathParams({ siteName: siteRefSchema, locale: localePath }),
      query: {
        type: 'object',
        required: ['q'],
        properties: {
          q: { type: 'string', maxLength: 2000, description: 'the text to check' },
          rows: { type: 'integer', description: 'accepted and ignored, as the original ignores it' },
          _setlocale: { type: 'string', maxLength: 16, description: 'accepted and ignored: the path names the locale' },
        },
      },
      description:
        'correctedText, usingCorrectedText (false here), original and corrected, each {text, link to the search}',
      schema: { type: 'object' },
    },
    (req) => {
      const locale = normalizeLocale(String(req.params.locale));
      const q = checkTypedText('q', String(req.query.q));
      const config = knownSite(search, String(req.params.siteName), locale);
      if (!config) return {};
      const correction = correctText(indexes.engine(config.site.id, locale).terms, q);
      const base = {
        path: `/api/sn/${encodeURIComponent(config.site.name)}/search`,
        params: [['_setlocale', locale] as const],
      };
      const corrected = correction.corrected ? correction.text : '';
      return {
        correctedText: correction.corrected,
        usingCorrectedText: false,
        original: { text: q, link: toLink(replaceParam(replaceParam(base, 'q', q), 'nfpr', '1')) },
        corrected: { text: corrected, link: toLink(replaceParam(base, 'q', corrected)) },
      };
    },
  );
}

/** The language spell checker (not tied to a site): dictionaries from npm, run on the worker pool. */
export function mountCognitiveRoutes(
  router: ApiRouter,
  check: TaskRunner<SpellCheckerInput, string[]>,
  locales: readonly string[],
): void {
  itemRoute(
    router,
    'get',
    '/api/cognitive/spell-checker/:locale',
    {
      access: 'key',
      scope: 'search',
      tags: ['cognitive'],
      summary:
        'Spelling suggestions for a text in a language (en_US, pt_BR): the text with its misspelled words replaced',
      params: pathParams({ locale: localePath }),
      query: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 1000 } } },
      description: 'candidate sentences; [] when every word is spelled right',
      schema: strings,
    },
    (req) => {
      const locale = normalizeLocale(String(req.params.locale));
      if (!locales.includes(locale))
        throw searchErrors.unknownSpellCheckLocale(String(req.params.locale), [...locales]);
      return check({ locale, text: String(req.query.text) });
    },
  );
}
