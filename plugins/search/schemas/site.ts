import {
  bodySchema,
  ignoredMembers,
  type JsonSchema,
  pathParams,
  recordSchema,
  SITE_NAME_PATTERN,
  siteRefSchema,
  withoutDefaults,
} from 'vela/plugin';
import { spotlightExportSchema, spotlightSchema } from '../spotlights/spotlight-schemas.js';
import { idSchema, localeSchema } from './common.js';
import { fieldCreateSchema, fieldSchema } from './field.js';

const operator = { enum: ['AND', 'OR'] };
const fieldName = { type: ['string', 'null'], maxLength: 100 };

/** Settings of a site with their defaults: the same schema validates input and fills what is left out. */
export const siteSettingsProperties: Record<string, JsonSchema> = {
  description: { type: 'string', maxLength: 1000, default: '' },
  rowsPerPage: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 10,
    description: 'results per page when the request gives no rows',
  },
  facet: { type: 'boolean', default: true, description: 'compute widget.facet and widget.secondaryFacet' },
  itemsPerFacet: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: 'values shown per facet' },
  facetType: { ...operator, default: 'AND', description: 'operator between facets' },
  facetItemType: { ...operator, default: 'AND', description: 'operator between values of one facet' },
  facetSort: { enum: ['COUNT', 'ALPHABETICAL'], default: 'COUNT' },
  hl: { type: 'boolean', default: true, description: 'highlight matched terms in fields with hl' },
  hlPre: { type: 'string', maxLength: 50, default: '<mark>' },
  hlPost: { type: 'string', maxLength: 50, default: '</mark>' },
  mlt: { type: 'boolean', default: false, description: 'More Like This (widget.similar)' },
  spellCheck: {
    type: 'boolean',
    default: false,
    description: 'with spellCheckFixes: search the corrected text (widget.spellCheck offers it either way)',
  },
  spellCheckFixes: {
    type: 'boolean',
    default: false,
    description: 'with spellCheck: search the corrected text when the query finds nothing',
  },
  spotlightWithResults: { type: 'boolean', default: false, description: 'inject spotlight documents into the results' },
  metadataFormat: {
    enum: ['grouped', 'flat'],
    default: 'grouped',
    description:
      "results' metadata when the request names none: grouped by field ({name, values: [{label, link}]}), or flat ({href, text} per value, as the original sends it)",
  },
  defaultLocale: {
    type: ['string', 'null'],
    maxLength: 6,
    pattern: '^[a-z]{2,3}_[A-Z]{2}$',
    default: null,
    description:
      'the locale of a search without _setlocale, when the site has several (one of its locales; another value is ignored)',
  },
  wildcardAlways: {
    type: 'boolean',
    default: false,
    description: 'always match the last query word as a prefix too (search as you type)',
  },
  wildcardNoResults: {
    type: 'boolean',
    default: true,
    description: 'when a query finds nothing, retry it matching the last word as a prefix',
  },
  bm25K1: {
    type: 'number',
    minimum: 0,
    maximum: 10,
    default: 1.2,
    description: 'relevance (BM25F): how soon more occurrences of a term stop adding (0: a term counts once)',
  },
  bm25B: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0.75,
    description: "relevance (BM25F): how much a field's length dilutes its terms (0: not at all)",
  },
  defaultTitleField: { ...fieldName, default: 'title' },
  defaultTextField: { ...fieldName, default: 'text' },
  defaultDescriptionField: { ...fieldName, default: 'abstract' },
  defaultDateField: { ...fieldName, default: 'publication_date' },
  defaultImageField: { ...fieldName, default: 'image' },
  defaultURLField: { ...fieldName, default: 'url' },
};

export const siteSettingKeys = Object.keys(siteSettingsProperties);

const name = {
  type: 'string',
  maxLength: 100,
  pattern: SITE_NAME_PATTERN,
  description: 'used in search URLs: letters, digits, space, _ . -',
};

export const siteCreateSchema = bodySchema(['name'], {
  id: idSchema,
  name,
  ...siteSettingsProperties,
  locales: { type: 'array', items: localeSchema, uniqueItems: true, minItems: 1, maxItems: 100, default: ['en_US'] },
  fields: { type: 'array', description: 'fields to create instead of the template fields', items: fieldCreateSchema },
  ...ignoredMembers(['createdAt', 'updatedAt']),
});

/** PUT replaces the settings it names; members left out keep their values. */
export const siteUpdateSchema = bodySchema([], {
  id: idSchema,
  name,
  ...withoutDefaults(siteSettingsProperties),
  locales: { type: 'array', items: localeSchema, uniqueItems: true, minItems: 1, maxItems: 100 },
  ...ignoredMembers(['createdAt', 'updatedAt']),
});

/** Switches the original's site form sends as integers 0/1 (and its exports as booleans). */
const ORIGINAL_FLAGS = [
  'facet',
  'hl',
  'mlt',
  'spellCheck',
  'spellCheckFixes',
  'spotlightWithResults',
  'wildcardAlways',
  'wildcardNoResults',
];
/** Members of the original's site form that name no setting of Vela: accepted and ignored. */
const ORIGINAL_ONLY = [
  'thesaurus',
  'defaultField',
  'exactMatch',
  'exactMatchField',
  'turSEInstance',
  'turSNSiteGenAi',
  'turSNSiteLocales',
  'createdBy',
  'creationDate',
  'lastModifiedBy',
  'lastModifiedDate',
].filter((member) => !siteSettingKeys.includes(member));

const allowsNull = (schema: JsonSchema) =>
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (schema.enum as unknown[] | undefined)?.includes(null);

/** Settings the original's site form leaves null until they are set (its entity gives them no default). */
const ORIGINAL_NULLS = ['description', 'hlPre', 'hlPost', 'itemsPerFacet'];

/**
 * A setting as the original's site form may send it: a switch as 0 or 1 too, an operator or sort as DEFAULT, and
 * null for those it may leave unset (then left out: the default, or the value before an update).
 */
function originalFormOf(setting: string, schema: JsonSchema): JsonSchema {
  if (ORIGINAL_FLAGS.includes(setting))
    return {
      ...schema,
      type: ['boolean', 'integer', 'null'],
      minimum: 0,
      maximum: 1,
      description: `${schema.description ?? setting} (true or 1)`,
    };
  if (schema.enum) return { ...schema, enum: [...(schema.enum as unknown[]), 'DEFAULT'] };
  if (allowsNull(schema) || !ORIGINAL_NULLS.includes(setting)) return schema;
  return { ...schema, type: [...[schema.type ?? []].flat(), 'null'] as string[] };
}

const originalForm = (members: Record<string, JsonSchema>) =>
  Object.fromEntries(Object.entries(members).map(([setting, schema]) => [setting, originalFormOf(setting, schema)]));

const ignoredOriginalMembers = ignoredMembers(
  ORIGINAL_ONLY,
  "a member of the original's site form Vela has no setting for: ignored",
);

/** POST /api/sn's body: a site as siteCreateSchema takes it, or as the original's site form sends it. */
export const siteCreateBodySchema = bodySchema(['name'], {
  ...ignoredOriginalMembers,
  ...(siteCreateSchema.properties as Record<string, JsonSchema>),
  id: { ...idSchema, type: ['string', 'null'] },
  ...originalForm(siteSettingsProperties),
});

/** PUT /api/sn/{id}'s body: as siteUpdateSchema takes it, or as the original's site form sends it. */
export const siteUpdateBodySchema = bodySchema([], {
  ...ignoredOriginalMembers,
  ...(siteUpdateSchema.properties as Record<string, JsonSchema>),
  id: { ...idSchema, type: ['string', 'null'] },
  ...withoutDefaults(originalForm(siteSettingsProperties)),
});

/** A site body in Vela's terms: the original's switches as booleans, its other members and the nulls left out. */
export function fromOriginalForm(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(body)) {
    if (ORIGINAL_ONLY.includes(member) || value === 'DEFAULT') continue;
    const schema = siteSettingsProperties[member] ?? (member === 'id' ? idSchema : undefined);
    if (value === null && schema && !allowsNull(schema)) continue;
    out[member] = ORIGINAL_FLAGS.includes(member) && typeof value === 'number' ? value === 1 : value;
  }
  return out;
}

export const siteSchema = recordSchema({
  id: 'string',
  name: 'string',
  ...siteSettingsProperties,
  locales: 'string[]',
  createdAt: 'date-time',
  updatedAt: 'date-time',
});

export const siteParams = pathParams({ id: siteRefSchema });
export const siteLocaleParams = pathParams({ id: siteRefSchema, locale: localeSchema });

export const localeBodySchema = bodySchema(['locale'], { locale: localeSchema, id: {}, createdAt: {} });

/**
 * One site of an export: its settings, fields and spotlights, as GET /api/sn/export writes them, and the members
 * plugins add (objects: `genai`, `semantic`), which they read back on import.
 */
export const siteExportSchema: JsonSchema = {
  ...siteCreateSchema,
  additionalProperties: { type: 'object', description: "a plugin's settings for the site, named after the plugin" },
  properties: {
    ...siteCreateSchema.properties,
    fields: {
      type: 'array',
      items: { ...fieldCreateSchema, properties: { ...fieldCreateSchema.properties, siteId: {} } },
    },
    spotlights: { type: 'array', items: spotlightExportSchema },
  },
};

/** An export file, as GET /api/sn/export and GET /api/sn/{id}/export answer it (and import-config takes it). */
export const configExportSchema = recordSchema(
  {
    version: { type: 'integer', enum: [1] },
    exportedAt: 'date-time',
    sites: {
      type: 'array',
      items: {
        ...siteSchema,
        properties: {
          ...siteSchema.properties,
          fields: { type: 'array', items: fieldSchema },
          spotlights: { type: 'array', items: spotlightSchema },
        },
      },
    },
  },
  { required: ['version', 'exportedAt', 'sites'] },
);

/** What POST /api/sn/import-config did with each site of the file. */
const restoredSchema = recordSchema(
  {
    name: 'string',
    action: { type: 'string', enum: ['created', 'replaced'] },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'what could not be restored as exported (a plugin setting naming what this install lacks); absent when none',
    },
  },
  { required: ['name', 'action'] },
);
export const importConfigResultSchema = recordSchema(
  { restored: { type: 'array', items: restoredSchema } },
  { required: ['restored'] },
);

export const importConfigSchema = recordSchema(
  { version: 'integer', exportedAt: {}, sites: { type: 'array', items: siteExportSchema } },
  { required: ['sites'] },
);

/**
 * What the schema cannot say about an import-config file: a site named twice (names ignore case) or a
 * field named twice in one site. Checked before anything is written, so a bad file changes nothing.
 */
export function importConfigProblems(
  sites: Array<{ name?: unknown; fields?: unknown; locales?: unknown; spotlights?: unknown }>,
): string[] {
  const problems: string[] = [];
  const siteAt = new Map<string, number>();
  sites.forEach((site, i) => {
    const name = String(site.name).toLowerCase();
    const first = siteAt.get(name);
    if (first !== undefined)
      problems.push(`body.sites[${i}].name ${JSON.stringify(site.name)} names the site of body.sites[${first}] again`);
    else siteAt.set(name, i);
    const fieldAt = new Map<string, number>();
    (Array.isArray(site.fields) ? (site.fields as Array<{ name?: unknown }>) : []).forEach((field, j) => {
      const earlier = fieldAt.get(String(field.name));
      if (earlier !== undefined)
        problems.push(
          `body.sites[${i}].fields[${j}].name ${JSON.stringify(field.name)} repeats body.sites[${i}].fields[${earlier}]`,
        );
      else fieldAt.set(String(field.name), j);
    });
    const locales = Array.isArray(site.locales) ? (site.locales as string[]) : ['en_US'];
    (Array.isArray(site.spotlights) ? (site.spotlights as Array<{ locale?: unknown }>) : []).forEach((spotlight, j) => {
      if (spotlight.locale !== undefined && !locales.includes(String(spotlight.locale)))
        problems.push(
          `body.sites[${i}].spotlights[${j}].locale ${JSON.stringify(spotlight.locale)} is not one of the site's locales (${locales.join(', ')})`,
        );
    });
  });
  return problems;
}
