import type { SiteDefaultFields } from '../api.js';
import type { FieldType } from '../schemas/field.js';

export type Operator = 'AND' | 'OR';

/**
 * How a result lists the facet values it carries: `grouped` by field (`{name, values: [{label, link}]}`), or `flat`,
 * one `{href, text}` per value, as the original sends them.
 */
export type MetadataFormat = 'grouped' | 'flat';

export interface SiteSettings {
  description: string;
  rowsPerPage: number;
  facet: boolean;
  itemsPerFacet: number;
  facetType: Operator;
  facetItemType: Operator;
  facetSort: 'COUNT' | 'ALPHABETICAL';
  hl: boolean;
  hlPre: string;
  hlPost: string;
  mlt: boolean;
  spellCheck: boolean;
  spellCheckFixes: boolean;
  spotlightWithResults: boolean;
  /** The form of results' metadata when the request names none (the metadata parameter). */
  metadataFormat: MetadataFormat;
  /** The locale of a search that names none, when the site has several. */
  defaultLocale: string | null;
  wildcardAlways: boolean;
  wildcardNoResults: boolean;
  /** BM25 saturation of relevance (k1). */
  bm25K1: number;
  /** BM25 length normalisation of relevance (b), for every field. */
  bm25B: number;
  defaultTitleField: string | null;
  defaultTextField: string | null;
  defaultDescriptionField: string | null;
  defaultDateField: string | null;
  defaultImageField: string | null;
  defaultURLField: string | null;
}

export interface FieldSettings {
  description: string;
  type: FieldType;
  multiValued: boolean;
  enabled: boolean;
  required: boolean;
  defaultValue: string | null;
  facet: boolean;
  facetName: string | null;
  facetLabels: Record<string, string>;
  facetPosition: number | null;
  secondaryFacet: boolean;
  facetType: Operator | 'DEFAULT';
  facetItemType: Operator | 'DEFAULT';
  facetSort: 'DEFAULT' | 'COUNT' | 'ALPHABETICAL';
  showAllFacetItems: boolean;
  hl: boolean;
  mlt: boolean;
  boost: number;
}

export interface Field extends FieldSettings {
  id: string;
  siteId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface Site extends SiteSettings {
  id: string;
  name: string;
  locales: string[];
  createdAt: string;
  updatedAt: string;
}

/** A site with its fields, as the search path reads it (from memory). */
export interface SiteConfig {
  site: Site;
  fields: Field[];
  fieldsByName: Map<string, Field>;
}

/** The site fields that play a part in every result, as answers and other plugins name them. */
export function defaultFieldsOf(site: SiteSettings): SiteDefaultFields {
  return {
    title: site.defaultTitleField,
    date: site.defaultDateField,
    description: site.defaultDescriptionField,
    text: site.defaultTextField,
    image: site.defaultImageField,
    url: site.defaultURLField,
  };
}
