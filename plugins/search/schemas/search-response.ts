import type { JsonSchema } from 'vela/plugin';

// The search response (query/search-response.ts) as JSON Schema, for the API description of the search
// routes. Members the types mark optional are left out of `required`.

const string: JsonSchema = { type: 'string' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const integer: JsonSchema = { type: 'integer' };
const strings: JsonSchema = { type: 'array', items: string };

const link = (description: string): JsonSchema => ({ type: 'string', description });

const paginationItem: JsonSchema = {
  type: 'object',
  required: ['type', 'text', 'href', 'page'],
  properties: {
    type: { type: 'string', enum: ['FIRST', 'PREVIOUS', 'PAGE', 'CURRENT', 'NEXT', 'LAST'] },
    text: string,
    href: link('the search of that page'),
    page: integer,
  },
};

const resultDocument: JsonSchema = {
  type: 'object',
  required: ['source', 'elevate', 'fields', 'metadata'],
  properties: {
    source: nullableString,
    elevate: { type: 'boolean', description: 'placed first by a spotlight or a targeting rule' },
    fields: {
      type: 'object',
      additionalProperties: true,
      description: 'the fields asked for (fl), highlighted where the query matched',
    },
    metadata: {
      type: 'array',
      description:
        "the facet values the document carries, each with the search filtered by it: grouped by field, or flat (the metadata parameter, else the site's metadataFormat)",
      items: {
        oneOf: [
          {
            type: 'object',
            description: 'grouped: one facet field and its values',
            required: ['name', 'values'],
            properties: {
              name: string,
              values: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['label', 'link'],
                  properties: { label: string, link: link('the search filtered by this value') },
                },
              },
            },
          },
          {
            type: 'object',
            description: "flat: one value, as the original's",
            required: ['href', 'text'],
            properties: { href: link('the search filtered by this value'), text: string },
          },
        ],
      },
    },
  },
};

const results: JsonSchema = {
  type: 'object',
  required: ['document'],
  properties: { document: { type: 'array', items: resultDocument } },
};

const facetGroup: JsonSchema = {
  type: 'object',
  required: ['facets', 'label', 'name', 'description', 'type', 'multiValued', 'cleanUpLink', 'selectedFilterQueries'],
  properties: {
    facets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['count', 'link', 'label', 'filterQuery', 'selected'],
        properties: {
          count: integer,
          link: link('the search with this value chosen (or, when chosen, without it)'),
          label: string,
          filterQuery: { type: 'string', description: 'field:value' },
          selected: { type: 'boolean' },
        },
      },
    },
    label: { type: 'object', required: ['lang', 'text'], properties: { lang: string, text: string } },
    name: nullableString,
    description: nullableString,
    type: nullableString,
    multiValued: { type: 'boolean' },
    cleanUpLink: { type: ['string', 'null'], description: 'the search without any value of this facet' },
    selectedFilterQueries: { type: ['array', 'null'], items: string },
    facetType: { type: 'string', description: 'AND | OR between facets, as in force' },
    facetItemType: { type: 'string', description: 'AND | OR between values of this facet, as in force' },
  },
};

const textAndLink: JsonSchema = {
  type: 'object',
  required: ['text', 'link'],
  properties: { text: string, link: string },
};

const widget: JsonSchema = {
  type: 'object',
  required: [
    'cleanUpFacets',
    'selectedFilterQueries',
    'facet',
    'secondaryFacet',
    'facetToRemove',
    'similar',
    'locales',
    'spotlights',
  ],
  properties: {
    cleanUpFacets: link('the search without any filter'),
    selectedFilterQueries: strings,
    facet: { type: 'array', items: facetGroup },
    secondaryFacet: { type: 'array', items: facetGroup },
    facetToRemove: facetGroup,
    similar: {
      type: 'array',
      description: 'More Like This (empty when the site has it off)',
      items: {
        type: 'object',
        required: ['id', 'title', 'type', 'url'],
        properties: { id: string, title: nullableString, type: nullableString, url: nullableString },
      },
    },
    spellCheck: {
      type: 'object',
      description: "present when the site's spellCheck is on",
      required: ['correctedText', 'usingCorrectedText', 'original', 'corrected'],
      properties: {
        correctedText: { type: 'boolean', description: 'a correction was found (corrected.text)' },
        usingCorrectedText: { type: 'boolean', description: 'the results are those of the corrected text' },
        original: textAndLink,
        corrected: textAndLink,
      },
    },
    locales: {
      type: 'array',
      items: { type: 'object', required: ['locale', 'link'], properties: { locale: string, link: string } },
    },
    spotlights: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'position', 'title', 'type', 'referenceId', 'content', 'link'],
        properties: {
          id: string,
          position: integer,
          title: string,
          type: string,
          referenceId: nullableString,
          content: string,
          link: nullableString,
        },
      },
    },
  },
};

const pagination: JsonSchema = { type: 'array', items: paginationItem };

export const searchResponseSchema: JsonSchema = {
  type: 'object',
  required: ['queryContext', 'widget'],
  properties: {
    pagination,
    queryContext: {
      type: 'object',
      required: [
        'count',
        'index',
        'limit',
        'offset',
        'page',
        'pageCount',
        'pageEnd',
        'pageStart',
        'responseTime',
        'query',
        'defaultFields',
        'facetType',
        'facetItemType',
        'semantic',
        'warnings',
      ],
      properties: {
        count: { type: 'integer', description: 'documents found' },
        index: string,
        limit: integer,
        offset: integer,
        page: integer,
        pageCount: integer,
        pageEnd: integer,
        pageStart: integer,
        responseTime: { type: 'integer', description: 'milliseconds' },
        query: {
          type: 'object',
          required: ['queryString', 'sort', 'locale'],
          properties: { queryString: string, sort: string, locale: string },
        },
        defaultFields: {
          type: 'object',
          description: "the fields holding each document's title, date, description, text, image and url",
          properties: {
            title: nullableString,
            date: nullableString,
            description: nullableString,
            text: nullableString,
            image: nullableString,
            url: nullableString,
          },
        },
        facetType: string,
        facetItemType: string,
        semantic: {
          type: 'object',
          description:
            'the search mode asked for (the semantic parameter) and the one that ran; reason when it fell back to keyword',
          required: ['requested', 'mode'],
          properties: {
            requested: { type: 'string', enum: ['keyword', 'hybrid', 'vector'] },
            mode: { type: 'string', enum: ['keyword', 'hybrid', 'vector'] },
            reason: { type: 'string', description: 'why a hybrid or vector search ran as keyword' },
            rrfK: { type: 'number', description: 'the k of reciprocal rank fusion (hybrid)' },
            window: { type: 'integer', description: 'documents each side contributed (hybrid, vector)' },
          },
        },
        warnings: {
          type: 'array',
          description:
            'what of the request was ignored or changed where the original takes it without an error (a filter on a field the site does not have, a sort it cannot use, p below 1, a rule not field:value); [] when nothing',
          items: {
            type: 'object',
            required: ['code', 'parameter', 'message'],
            properties: {
              code: { type: 'string', enum: ['unknown_field', 'sort_ignored', 'page_changed', 'rule_ignored'] },
              parameter: { type: 'string', description: 'the parameter or body member, as sent' },
              message: string,
            },
          },
        },
      },
    },
    results,
    groups: {
      type: 'array',
      description: 'with group=<field>: the results of each value',
      items: {
        type: 'object',
        required: ['name', 'count', 'page', 'pageCount', 'pageEnd', 'pageStart', 'limit', 'results', 'pagination'],
        properties: {
          name: string,
          count: integer,
          page: integer,
          pageCount: integer,
          pageEnd: integer,
          pageStart: integer,
          limit: integer,
          results,
          pagination,
        },
      },
    },
    widget,
  },
};
