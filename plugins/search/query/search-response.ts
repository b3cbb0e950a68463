import type { SemanticContext, SiteDefaultFields } from '../api.js';
import type { PaginationItem } from '../links/pagination.js';
import type { SpotlightDocument } from '../spotlights/spotlight-store.js';

/** The search response: self-describing navigation data, every link pre-built (spec "Search response"). */
export interface SearchResponse {
  pagination?: PaginationItem[];
  queryContext: QueryContext;
  results?: { document: ResultDocument[] };
  groups?: ResultGroup[];
  widget: Widget;
}

export interface QueryContext {
  count: number;
  index: string;
  limit: number;
  offset: number;
  page: number;
  pageCount: number;
  pageEnd: number;
  pageStart: number;
  responseTime: number;
  query: { queryString: string; sort: string; locale: string };
  defaultFields: SiteDefaultFields;
  facetType: string;
  facetItemType: string;
  /** The search mode asked for and the one that ran (query/semantic.ts). */
  semantic: SemanticContext;
  /** What of the request was ignored or changed, where the original takes it without an error; [] when nothing. */
  warnings: SearchWarning[];
}

/**
 * A part of the request answered otherwise than asked: the original takes these without an error (its Solr
 * matches nothing, or it falls back), so Vela answers too and says what it did.
 */
export interface SearchWarning {
  /** `unknown_field`, `sort_ignored`, `page_changed` or `rule_ignored`. */
  code: string;
  /** The parameter or body member, as sent. */
  parameter: string;
  message: string;
}

/** One facet field of a result and its values, each with the search filtered by it (the grouped form). */
export interface MetadataEntry {
  name: string;
  values: Array<{ label: string; link: string }>;
}

/** One facet value of a result and the search filtered by it (the flat form, the original's). */
export interface FlatMetadataEntry {
  href: string;
  text: string;
}

export interface ResultDocument {
  source: string | null;
  elevate: boolean;
  fields: Record<string, unknown>;
  metadata: MetadataEntry[] | FlatMetadataEntry[];
}

export interface ResultGroup {
  name: string;
  count: number;
  page: number;
  pageCount: number;
  pageEnd: number;
  pageStart: number;
  limit: number;
  results: { document: ResultDocument[] };
  pagination: PaginationItem[];
}

export interface FacetItem {
  count: number;
  link: string;
  label: string;
  filterQuery: string;
  selected: boolean;
}

export interface FacetGroup {
  facets: FacetItem[];
  label: { lang: string; text: string };
  name: string | null;
  description: string | null;
  type: string | null;
  multiValued: boolean;
  cleanUpLink: string | null;
  selectedFilterQueries: string[] | null;
  /** Operators in force for this facet (beyond the original: lets a UI show checkboxes or radios). */
  facetType?: string;
  facetItemType?: string;
}

/** widget.similar: More Like This (empty when the site's mlt is off). */
export interface SimilarDocument {
  id: string;
  title: string | null;
  type: string | null;
  url: string | null;
}

/** widget.spellCheck (the original's shape), present when the site's spellCheck is on. */
export interface SpellCheckWidget {
  /** Whether a correction was found (corrected.text holds it). */
  correctedText: boolean;
  /** Whether the results are those of the corrected text. */
  usingCorrectedText: boolean;
  original: { text: string; link: string };
  corrected: { text: string; link: string };
}

export interface Widget {
  cleanUpFacets: string;
  selectedFilterQueries: string[];
  facet: FacetGroup[];
  secondaryFacet: FacetGroup[];
  facetToRemove: FacetGroup;
  similar: SimilarDocument[];
  spellCheck?: SpellCheckWidget;
  locales: Array<{ locale: string; link: string }>;
  /** The matched spotlight documents, by position. */
  spotlights: SpotlightDocument[];
}
