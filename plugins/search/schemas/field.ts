import {
  bodySchema,
  ignoredMembers,
  type JsonSchema,
  pathParams,
  recordSchema,
  siteRefSchema,
  withoutDefaults,
} from 'vela/plugin';
import { FIELD_NAME_PATTERN, fieldRefSchema, idSchema, LOCALE_PATTERN } from './common.js';

export const FIELD_TYPES = ['STRING', 'TEXT', 'INT', 'LONG', 'FLOAT', 'DATE', 'BOOL'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const operator = { enum: ['DEFAULT', 'AND', 'OR'] };

export const fieldSettingsProperties: Record<string, JsonSchema> = {
  description: { type: 'string', maxLength: 1000, default: '' },
  type: { enum: [...FIELD_TYPES], default: 'STRING' },
  multiValued: { type: 'boolean', default: false },
  enabled: { type: 'boolean', default: true },
  required: { type: 'boolean', default: false },
  defaultValue: {
    type: ['string', 'null'],
    maxLength: 200,
    default: null,
    description: 'value shown when a document lacks the field',
  },
  facet: { type: 'boolean', default: false, description: 'offer this field as a facet' },
  facetName: {
    type: ['string', 'null'],
    maxLength: 100,
    default: null,
    description: 'facet label when no locale label matches (default: the field name)',
  },
  facetLabels: {
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 100 },
    propertyNames: { pattern: LOCALE_PATTERN },
    default: {},
    description: 'facet label per locale, e.g. {"pt_BR": "Tipos"}',
  },
  facetPosition: {
    type: ['integer', 'null'],
    minimum: 1,
    default: null,
    description: 'order among facets (lower first; unset last)',
  },
  secondaryFacet: {
    type: 'boolean',
    default: false,
    description: 'show in widget.secondaryFacet instead of widget.facet',
  },
  facetType: { ...operator, default: 'DEFAULT', description: 'overrides the site facetType for this field' },
  facetItemType: { ...operator, default: 'DEFAULT', description: 'overrides the site facetItemType for this field' },
  facetSort: { enum: ['DEFAULT', 'COUNT', 'ALPHABETICAL'], default: 'DEFAULT' },
  showAllFacetItems: { type: 'boolean', default: false, description: 'show facet values with zero hits too' },
  hl: { type: 'boolean', default: false, description: 'highlight matched terms in this field' },
  mlt: { type: 'boolean', default: false, description: 'use this field for More Like This' },
  boost: {
    type: 'number',
    minimum: 0,
    maximum: 100,
    default: 1,
    description: "relevance weight of the field's text (BM25F); 0: its terms match without weight",
  },
};

const name = {
  type: 'string',
  maxLength: 100,
  pattern: FIELD_NAME_PATTERN,
  description: 'attribute name in imported documents',
};

const readOnly = ignoredMembers(['createdAt', 'updatedAt']);

export const fieldCreateSchema = bodySchema(['name'], { id: idSchema, name, ...fieldSettingsProperties, ...readOnly });

export const fieldUpdateSchema = bodySchema([], {
  id: idSchema,
  name,
  ...withoutDefaults(fieldSettingsProperties),
  ...readOnly,
});

export const fieldSchema = recordSchema({ id: 'string', name: 'string', ...fieldSettingsProperties });

export const fieldSiteParams = pathParams({ snSiteId: siteRefSchema });
export const fieldParams = pathParams({ snSiteId: siteRefSchema, id: fieldRefSchema });

/** The fields a new site gets unless it names its own (after the original's site template). */
export const TEMPLATE_FIELDS: Array<{
  name: string;
  type: FieldType;
  multiValued?: boolean;
  facetName: string;
  hl?: boolean;
  boost?: number;
}> = [
  { name: 'id', type: 'STRING', facetName: 'Ids' },
  // Relevance weighs a term in the title twice one in the body.
  { name: 'title', type: 'TEXT', facetName: 'Titles', hl: true, boost: 2 },
  { name: 'text', type: 'TEXT', facetName: 'Texts', hl: true },
  { name: 'abstract', type: 'TEXT', facetName: 'Abstracts', hl: true },
  { name: 'type', type: 'STRING', facetName: 'Types' },
  { name: 'image', type: 'STRING', facetName: 'Images' },
  { name: 'url', type: 'STRING', facetName: 'URLs' },
  { name: 'publication_date', type: 'DATE', facetName: 'Publication Dates' },
  { name: 'modification_date', type: 'DATE', facetName: 'Modification Dates' },
  { name: 'site', type: 'STRING', facetName: 'Sites' },
  { name: 'author', type: 'STRING', facetName: 'Authors' },
  { name: 'section', type: 'STRING', facetName: 'Sections' },
  { name: 'source_apps', type: 'STRING', multiValued: true, facetName: 'Source Apps' },
];
