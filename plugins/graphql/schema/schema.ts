import type { SearchSites, SiteSearch } from '@vela/plugin-search/api';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
} from 'graphql';
import { graphqlErrors } from '../errors.js';
import type { GraphqlContext } from '../operation/prepare-operation.js';
import { siteEnumValues } from './site-name-enum.js';

const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
});

const str = { type: GraphQLString };
const int = { type: GraphQLInt };
const list = <T extends import('graphql').GraphQLOutputType>(t: T) => ({ type: new GraphQLList(t) });

const Pagination = new GraphQLObjectType({
  name: 'SearchPagination',
  fields: { type: str, text: str, href: str, page: int },
});
const QueryInfo = new GraphQLObjectType({ name: 'SearchQuery', fields: { queryString: str, sort: str, locale: str } });
const DefaultFields = new GraphQLObjectType({
  name: 'SearchDefaultFields',
  fields: { title: str, date: str, description: str, text: str, image: str, url: str },
});
const SemanticInfo = new GraphQLObjectType({
  name: 'SearchSemantic',
  description: 'The search mode asked for and the one that ran',
  fields: {
    requested: str,
    mode: str,
    reason: { type: GraphQLString, description: 'why a hybrid or vector search ran as keyword' },
    rrfK: { type: GraphQLFloat, description: 'the k of reciprocal rank fusion (hybrid)' },
    window: { type: GraphQLInt, description: 'documents each side contributed (hybrid, vector)' },
  },
});
const SemanticMode = new GraphQLEnumType({
  name: 'SearchSemanticMode',
  description: 'How a search finds its documents (the REST semantic parameter)',
  values: {
    keyword: { description: 'the text index alone (default)' },
    hybrid: { description: 'the text index fused with the documents nearest in meaning' },
    vector: { description: 'the documents nearest in meaning alone' },
  },
});
const Warning = new GraphQLObjectType({
  name: 'SearchWarning',
  description: 'A part of the request ignored or changed, where the original takes it without an error',
  fields: { code: str, parameter: str, message: str },
});
const QueryContext = new GraphQLObjectType({
  name: 'SearchQueryContext',
  fields: {
    count: int,
    index: str,
    limit: int,
    offset: int,
    page: int,
    pageCount: int,
    pageEnd: int,
    pageStart: int,
    responseTime: int,
    query: { type: QueryInfo },
    defaultFields: { type: DefaultFields },
    facetType: str,
    facetItemType: str,
    semantic: { type: SemanticInfo },
    warnings: { type: new GraphQLList(Warning), description: '[] when nothing was ignored or changed' },
  },
});
const MetadataValue = new GraphQLObjectType({ name: 'SearchMetadataValue', fields: { label: str, link: str } });
const MetadataFormat = new GraphQLEnumType({
  name: 'SearchMetadataFormat',
  description: "How a result lists the facet values it carries (the REST metadata parameter; default: the site's)",
  values: {
    grouped: { description: 'one entry per facet field: name and values' },
    flat: { description: "one entry per value: href and text (value too), as the original's" },
  },
});
/** One entry of either form: the members of the other form are null. */
const Metadata = new GraphQLObjectType({
  name: 'SearchDocumentMetadata',
  description: 'A facet field and its values (grouped), or one value (flat)',
  fields: {
    name: { type: GraphQLString, description: 'grouped: the facet field' },
    values: { ...list(MetadataValue), description: 'grouped: its values, each with the search filtered by it' },
    href: { type: GraphQLString, description: 'flat: the search filtered by this value' },
    text: { type: GraphQLString, description: 'flat: the value' },
    value: {
      type: GraphQLString,
      description: "flat: the value, as text (the member the original's schema names)",
      resolve: (entry: { text?: string }) => entry.text ?? null,
    },
  },
});
const Document = new GraphQLObjectType({
  name: 'SearchDocument',
  fields: {
    source: str,
    elevate: { type: GraphQLBoolean },
    fields: { type: JSONScalar, description: 'stored fields (only those of fl when given)' },
    metadata: list(Metadata),
  },
});
const Results = new GraphQLObjectType({ name: 'SearchResults', fields: { document: list(Document) } });
const FacetItem = new GraphQLObjectType({
  name: 'SearchFacetItem',
  fields: { count: int, link: str, label: str, filterQuery: str, selected: { type: GraphQLBoolean } },
});
const FacetLabel = new GraphQLObjectType({ name: 'SearchFacetLabel', fields: { lang: str, text: str } });
const Facet = new GraphQLObjectType({
  name: 'SearchFacet',
  fields: {
    facets: list(FacetItem),
    label: { type: FacetLabel },
    name: str,
    description: str,
    type: str,
    multiValued: { type: GraphQLBoolean },
    cleanUpLink: str,
    selectedFilterQueries: list(GraphQLString),
    facetType: str,
    facetItemType: str,
  },
});
const Locale = new GraphQLObjectType({ name: 'SearchLocale', fields: { locale: str, link: str } });
const Similar = new GraphQLObjectType({
  name: 'SearchSimilar',
  description: 'More Like This',
  fields: { id: str, title: str, type: str, url: str },
});
const SpellCheckText = new GraphQLObjectType({ name: 'SearchSpellCheckText', fields: { text: str, link: str } });
const SpellCheck = new GraphQLObjectType({
  name: 'SearchSpellCheck',
  fields: {
    correctedText: { type: GraphQLBoolean, description: 'whether a correction was found (corrected.text)' },
    usingCorrectedText: { type: GraphQLBoolean, description: 'whether the results are those of the corrected text' },
    original: { type: SpellCheckText },
    corrected: { type: SpellCheckText },
  },
});
const Spotlight = new GraphQLObjectType({
  name: 'SearchSpotlight',
  fields: { id: str, position: int, title: str, type: str, referenceId: str, content: str, link: str },
});
const Widget = new GraphQLObjectType({
  name: 'SearchWidget',
  fields: {
    cleanUpFacets: str,
    selectedFilterQueries: list(GraphQLString),
    facet: list(Facet),
    secondaryFacet: list(Facet),
    facetToRemove: { type: Facet },
    similar: list(Similar),
    spellCheck: { type: SpellCheck },
    locales: list(Locale),
    spotlights: list(Spotlight),
  },
});
const Group = new GraphQLObjectType({
  name: 'SearchGroup',
  fields: {
    name: str,
    count: int,
    page: int,
    pageCount: int,
    pageEnd: int,
    pageStart: int,
    limit: int,
    results: { type: Results },
    pagination: list(Pagination),
  },
});
const Result = new GraphQLObjectType({
  name: 'SiteSearchResult',
  fields: {
    pagination: list(Pagination),
    queryContext: { type: QueryContext },
    results: { type: Results },
    widget: { type: Widget },
    groups: list(Group),
  },
});
const SearchParamsInput = new GraphQLInputObjectType({
  name: 'SearchParamsInput',
  fields: {
    q: str,
    rows: int,
    p: int,
    sort: str,
    group: str,
    fq: { type: new GraphQLList(GraphQLString) },
    fqAnd: { type: new GraphQLList(GraphQLString) },
    fqOr: { type: new GraphQLList(GraphQLString) },
    fqOp: str,
    fqiOp: str,
    locale: str,
    fl: { type: new GraphQLList(GraphQLString) },
    nfpr: { type: GraphQLInt, description: '1: never search the spell-corrected text instead' },
  },
});

interface SearchArgs {
  siteName: string;
  locale?: string | null;
  semantic?: string | null;
  metadata?: string | null;
  searchParams?: {
    q?: string | null;
    rows?: number | null;
    p?: number | null;
    sort?: string | null;
    group?: string | null;
    fq?: string[] | null;
    fqAnd?: string[] | null;
    fqOr?: string[] | null;
    fqOp?: string | null;
    fqiOp?: string | null;
    locale?: string | null;
    fl?: string[] | null;
    nfpr?: number | null;
  } | null;
}

type Param = readonly [name: string, value: string];

/** The GraphQL arguments as the query string of the equivalent REST search (so links are REST links). */
function toQueryString(args: SearchArgs): string {
  const sp = args.searchParams ?? {};
  const params: Param[] = [['q', sp.q ?? '*']];
  const locale = sp.locale ?? args.locale;
  if (locale) params.push(['_setlocale', locale]);
  params.push(['p', String(sp.p ?? 1)]);
  if (sp.rows != null) params.push(['rows', String(sp.rows)]);
  if (sp.sort) params.push(['sort', sp.sort]);
  if (sp.group) params.push(['group', sp.group]);
  if (sp.fqOp) params.push(['fq.op', sp.fqOp]);
  if (sp.fqiOp) params.push(['fqi.op', sp.fqiOp]);
  for (const fq of sp.fq ?? []) params.push(['fq[]', fq]);
  for (const fq of sp.fqAnd ?? []) params.push(['fq.and[]', fq]);
  for (const fq of sp.fqOr ?? []) params.push(['fq.or[]', fq]);
  if (sp.fl && sp.fl.length > 0) params.push(['fl', sp.fl.join(',')]);
  if (sp.nfpr === 1) params.push(['nfpr', '1']);
  if (args.semantic) params.push(['semantic', args.semantic]);
  if (args.metadata) params.push(['metadata', args.metadata]);
  return params.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&');
}

/**
 * A site: its name (or id) as a string, `siteName: "News Site"`, or the unquoted identifier clients of the
 * original write, `siteName: NEWS_SITE` (the name in upper case, other characters as _; see
 * site-name-enum.ts). A scalar rather than an enum, so the schema stays the same when sites come and go.
 */
function siteNameScalar(sites: () => SearchSites): GraphQLScalarType {
  const byIdentifier = (identifier: string): string | undefined => {
    if (identifier === 'UNKNOWN') return '';
    for (const [name, value] of siteEnumValues(
      sites()
        .list()
        .map((s) => s.name),
    ))
      if (value === identifier) return name;
    return undefined;
  };
  const fromString = (value: string) => (sites().find(value) ? value : (byIdentifier(value) ?? value));
  return new GraphQLScalarType({
    name: 'SiteName',
    description:
      'A site: its name as a string ("News Site"), or as an unquoted identifier (NEWS_SITE: the name in upper case, other characters as _)',
    serialize: (value) => value,
    parseValue: (value) => {
      if (typeof value !== 'string')
        throw new TypeError('SiteName must be a string: the site name, or its identifier form (NEWS_SITE)');
      return fromString(value);
    },
    parseLiteral: (node) => {
      if (node.kind === Kind.STRING) return fromString(node.value);
      if (node.kind === Kind.ENUM) return byIdentifier(node.value) ?? node.value;
      throw new TypeError('SiteName must be a site name in quotes, or its identifier form (NEWS_SITE)');
    },
  });
}

/**
 * The schema (siteName takes the name of any site, existing now or later), over the search plugin's
 * `search.sites` and `search.service`, resolved when a query needs them.
 */
export function buildSchema(sites: () => SearchSites, search: () => SiteSearch): GraphQLSchema {
  const SiteName = siteNameScalar(sites);
  const fields: GraphQLFieldConfigMap<unknown, Partial<GraphqlContext> | undefined> = {
    siteNames: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
      resolve: () =>
        sites()
          .list()
          .map((s) => s.name),
    },
    siteSearch: {
      type: Result,
      args: {
        siteName: { type: new GraphQLNonNull(SiteName) },
        searchParams: { type: SearchParamsInput },
        locale: { type: GraphQLString },
        semantic: { type: SemanticMode, description: 'keyword (default), hybrid or vector' },
        metadata: { type: MetadataFormat, description: "grouped or flat (default: the site's metadataFormat)" },
      },
      resolve: (_root, args, context) => {
        const a = args as SearchArgs;
        if (a.siteName === '') throw graphqlErrors.unknownSiteName();
        const budget = context?.budget;
        const run = async () => {
          budget?.checkTime();
          const response = await search().search(a.siteName, toQueryString(a));
          // A search that ran past the budget is not written out: that is the expensive part left.
          budget?.checkTime();
          budget?.charge(response);
          return response;
        };
        return budget ? budget.inTurn(run) : run();
      },
    },
  };
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields }) });
}
