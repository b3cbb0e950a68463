import { httpErrors, normalizeLocale } from 'vela/plugin';
import type { SiteConfig } from '../store/site-types.js';
import { DEFAULT_PROVIDER, type Spotlight, type SpotlightInput } from './spotlight-store.js';

type Term = string | { name: string };
interface DocumentBody {
  id?: string | null;
  position: number;
  title?: string | null;
  type?: string | null;
  referenceId?: string | null;
  content?: string | null;
  link?: string | null;
}

/** A spotlight body: Vela's members, or the original's bean names (`language`, `turSNSiteSpotlight*`), or both. */
export interface SpotlightBody {
  name?: string;
  description?: string | null;
  locale?: string;
  language?: string;
  terms?: Term[];
  turSNSiteSpotlightTerms?: Array<{ name: string }>;
  documents?: DocumentBody[];
  turSNSiteSpotlightDocuments?: DocumentBody[];
  provider?: string | null;
  modificationDate?: string | null;
}

type Documents = NonNullable<SpotlightInput['documents']>;

const termsOf = (terms: readonly Term[]) => terms.map((t) => (typeof t === 'string' ? t : t.name));
const documentsOf = (documents: readonly DocumentBody[]): Documents =>
  documents.map((d) => ({
    id: d.id ?? null,
    position: d.position,
    title: d.title ?? '',
    type: d.type || 'Page',
    referenceId: d.referenceId || null,
    content: d.content ?? '',
    link: d.link || null,
  }));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One member given under Vela's name, the original's, or both. Answers carry both spellings, so a client sends back
 * both, having changed one: the one that differs from the stored spotlight is the change. Both different (or both
 * given to a create, differing) is a 400 naming them.
 */
function either<T>(name: string, alias: string, mine: T | undefined, theirs: T | undefined, stored?: T): T | undefined {
  if (mine === undefined || theirs === undefined || same(mine, theirs)) return mine ?? theirs;
  if (stored !== undefined && same(mine, stored)) return theirs;
  if (stored !== undefined && same(theirs, stored)) return mine;
  throw httpErrors.invalidParameter(
    `body.${name}`,
    `and body.${alias} (its name in the original) differ: send one of them, or the same value in both`,
  );
}

/** The members a client may set, read from Vela's names or the original's; `current` is absent for a create. */
export function spotlightInput(body: SpotlightBody, config: SiteConfig, current?: Spotlight): SpotlightInput {
  const { site } = config;
  const asked = either(
    'locale',
    'language',
    body.locale,
    body.language === undefined ? undefined : normalizeLocale(body.language),
    current?.locale,
  );
  const locale = asked ?? (current ? undefined : (site.defaultLocale ?? site.locales[0]!));
  if (locale !== undefined && !site.locales.includes(locale))
    throw httpErrors.invalidParameter(
      body.locale === undefined ? 'body.language' : 'body.locale',
      `must be one of the locales of site "${site.name}" (${site.locales.join(', ')}), got "${locale}"`,
    );
  const terms = either(
    'terms',
    'turSNSiteSpotlightTerms',
    body.terms && termsOf(body.terms),
    body.turSNSiteSpotlightTerms && termsOf(body.turSNSiteSpotlightTerms),
    current?.terms,
  );
  const documents = either(
    'documents',
    'turSNSiteSpotlightDocuments',
    body.documents && documentsOf(body.documents),
    body.turSNSiteSpotlightDocuments && documentsOf(body.turSNSiteSpotlightDocuments),
    current && documentsOf(current.documents),
  );
  if (body.modificationDate && Number.isNaN(Date.parse(body.modificationDate)))
    throw httpErrors.invalidParameter(
      'body.modificationDate',
      `must be a date-time like 2026-03-01T10:00:00, got ${JSON.stringify(body.modificationDate)}`,
    );
  const out: SpotlightInput = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description ?? '';
  if (locale !== undefined) out.locale = locale;
  if (body.provider !== undefined) out.provider = body.provider ?? DEFAULT_PROVIDER;
  if (body.modificationDate !== undefined) out.modificationDate = body.modificationDate;
  if (terms !== undefined) out.terms = terms;
  if (documents !== undefined) out.documents = documents;
  return out;
}

/** A spotlight as the API answers it: Vela's members, then the original's names for those it names otherwise. */
export function spotlightView(spotlight: Spotlight, config: SiteConfig) {
  return {
    ...spotlight,
    language: spotlight.locale,
    turSNSiteSpotlightTerms: spotlight.terms.map((name) => ({ name })),
    turSNSiteSpotlightDocuments: spotlight.documents,
    turSNSite: { id: config.site.id, name: config.site.name },
  };
}
