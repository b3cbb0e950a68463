// The search plugin's published contract: what other plugins may use, as types and service names only.
// Import it with `import type` (it has no values); at run time a plugin reaches the search plugin
// through the services named here, never through its files.
import type { AsyncSeriesHook, ConsoleExtensions, Principal, SyncHook } from 'vela/plugin';
import type { SearchEngineFactory } from './engine/search-engine.js';

// The engine interface (docs/ARCHITECTURE.md, "Search engines"): what an engine plugin implements and
// registers through the `search.engines` hook. Types only, like the rest of this file.
export type {
  EngineGroup,
  EngineHit,
  EngineQuery,
  EngineResult,
  EngineSchema,
  EngineScope,
  FacetRequest,
  FieldFilter,
  FilterCondition,
  FilterSpec,
  IndexableDocument,
  MaybePromise,
  PersistentEngines,
  RankedCandidate,
  SearchEngine,
  SearchEngineFactory,
  SortSpec,
  TermDictionary,
} from './engine/search-engine.js';

/** One document action of an import batch, in the original's job-item shape (the body of POST /api/sn/import). */
export interface ImportItem {
  locale?: unknown;
  /** CREATE (default), DELETE or COMMIT. */
  turSNJobAction?: unknown;
  siteNames?: unknown;
  /** The document: `id` (required to create), `type`, and the site's fields. */
  attributes?: unknown;
  /** Field specs (the original's attribute specs): fields the sites lack are created first. */
  specs?: unknown;
}

/** An item refused with its reason; the rest of the batch goes on. */
export interface ImportRejection {
  /** Position of the item in the batch. */
  index: number;
  id: string | null;
  site: string | null;
  reason: string;
}

/** The `details` of the importer's 400 when it refused every item (and the `rejected` of the HTTP API's 400). */
export interface AllRefusedDetails {
  rejected: ImportRejection[];
}

export interface ImportOptions {
  /** Answer only once the batch is searchable. */
  wait?: boolean;
  /** Every item is a DELETE (POST /api/sn/deindex). */
  deleteAll?: boolean;
}

export interface ImportResult {
  /** Items accepted (a document sent to two sites counts once). */
  accepted: number;
  rejected: ImportRejection[];
  commits: number;
  /** The change-log position of the batch; `wait` waits until the index has applied it. */
  seq: number;
  /** Whether the batch was searchable when the call returned. */
  indexed: boolean;
  /** Field specs that were not applied, with the reason. */
  ignoredSpecs?: string[];
}

/**
 * `search.importer`: the one import use case, behind both POST /api/sn/import and the connector. Each
 * item is checked on its own; fields named by specs are created; the accepted changes are stored
 * durably (documents and change log in one transaction) and indexed in order.
 */
export interface SearchImporter {
  /**
   * Rejects with a 400 VelaError (`invalid_parameter`) when every item of a non-empty batch was refused: its
   * message names the first reasons, its `details` (AllRefusedDetails) every item's.
   */
  import(items: readonly ImportItem[], options?: ImportOptions): Promise<ImportResult>;
  /** Every document id of a site and locale, a page at a time; nothing for an unknown site. */
  documentIds(site: string, locale: string): AsyncIterable<string[]>;
}

/** A site as other plugins see it. */
export interface SearchSite {
  id: string;
  name: string;
  description: string;
  locales: string[];
  /** Results per page when a search names no rows. */
  rowsPerPage: number;
}

/** What creating a site takes: its name, locales and fields, and any site setting (as POST /api/sn). */
export interface SiteDefinition {
  name: string;
  locales: string[];
  fields?: Array<Record<string, unknown>>;
  [setting: string]: unknown;
}

/** `search.sites`: the sites of this search service. */
export interface SearchSites {
  /** By name or id; null when there is none. */
  find(nameOrId: string): SearchSite | null;
  /** By name or id, and with a locale one the site has: 404 site_not_found, or locale_not_found naming its locales. */
  get(nameOrId: string, locale?: string): SearchSite;
  list(): SearchSite[];
  /** The site's default title, description, text... fields (as answers state them); null when there is no such site. */
  defaultFields(nameOrId: string): SiteDefaultFields | null;
  /** Rejects with 409 when the name is taken, 400 for a bad definition. */
  create(definition: SiteDefinition): Promise<SearchSite>;
}

/** `search.keys`: the search service's API tokens, for services that accept the same Key header. */
export interface SearchKeys {
  /** The token's principal, or null when the value is no token of this service. */
  verify(key: string): Principal | null;
}

/** The site fields that play a part in every result (the site's default*Field settings), or null when unset. */
export interface SiteDefaultFields {
  title: string | null;
  date: string | null;
  description: string | null;
  text: string | null;
  image: string | null;
  url: string | null;
}

/**
 * A search answer as GET /api/sn/{site}/search gives it (docs/search-reference.md, "The response"); the members other
 * plugins read are typed.
 */
export interface SiteSearchResult {
  queryContext: {
    count: number;
    page: number;
    pageCount: number;
    query: { queryString: string; sort: string; locale: string };
    defaultFields: SiteDefaultFields;
    semantic: SemanticContext;
  };
  results?: { document: Array<{ source: string | null; elevate: boolean; fields: Record<string, unknown> }> };
}

/** A stored document as it was imported: no highlighting, no defaults filled. */
export interface StoredDocument {
  id: string;
  fields: Record<string, unknown>;
}

/**
 * `search.service`: a site searched with the query string of GET /api/sn/{site}/search (q, _setlocale, rows, p, fq[],
 * sort...).
 */
export interface SiteSearch {
  /** Rejects with the same 4xx VelaErrors as the REST endpoint (unknown site or locale, bad parameters). */
  search(site: string, queryString: string): Promise<SiteSearchResult>;
  /** The most rows one search answers: a larger `rows` is taken as this many. */
  readonly maxRows: number;
  /**
   * Stored documents of a site and locale by id, in the order asked, the unknown ones left out (result
   * fields carry the site's highlight markers; these are the text as imported). Rejects with 404 for an
   * unknown site or locale.
   */
  documents(site: string, locale: string, ids: readonly string[]): Promise<StoredDocument[]>;
}

/** The registry the `search.engines` hook hands its taps: engine families by name, for the config's `engine`. */
export interface SearchEngines {
  /**
   * Add an engine family under a name (^[a-z][a-z0-9-]{0,39}$) that the search plugin's `"engine"` setting can
   * then choose; a name that is malformed or taken (`memory` is built in) throws, and so stops the start.
   */
  register(name: string, factory: SearchEngineFactory): void;
  /**
   * The name the search plugin's `"engine"` setting chooses: an engine plugin that cannot serve its engine in
   * this runtime (the search-postgres plugin over SQLite) throws with the reason when it is the one chosen.
   */
  readonly configured: string;
  has(name: string): boolean;
  /** Every registered name, sorted. */
  names(): string[];
}

/** The parameters of an answered search, as the search settled them: what a `search.searched` tap may read. */
export interface SearchedParams {
  /** As sent: `*` for every document. */
  readonly q: string;
  /** The locale the search ran in (the site's only or default one when the request named none). */
  readonly locale: string;
  readonly page: number;
  /** null: the site's rowsPerPage. */
  readonly rows: number | null;
  readonly sort: string;
  readonly fq: readonly string[];
  readonly fqAnd: readonly string[];
  readonly fqOr: readonly string[];
  readonly targetingRules: readonly string[];
  /** The userId of a POST body, else null. */
  readonly userId: string | null;
  /** false when a POST body asked that the search not be counted (populateMetrics: false). */
  readonly populateMetrics: boolean;
}

/** One answered REST search (GET or POST /api/sn/{site}/search), an answer from the answer cache included. */
export interface SearchedEvent {
  site: SearchSite;
  params: SearchedParams;
  /** Documents found (queryContext.count). */
  count: number;
  /** Who asked: the Key's or the session's principal, null for an anonymous search. */
  principal: Principal | null;
}

/** How a search finds its documents: `keyword` (the text index alone, the default), `hybrid` or `vector`. */
export type SemanticMode = 'keyword' | 'hybrid' | 'vector';

/**
 * queryContext.semantic of every search answer: the mode asked for and the one that ran; `reason` when it fell back
 * to keyword, `rrfK` when hybrid ran, `window` when hybrid or vector ran (docs/search-reference.md, "Semantic search").
 */
export interface SemanticContext {
  requested: SemanticMode;
  mode: SemanticMode;
  reason?: string;
  rrfK?: number;
  window?: number;
}

/** A document a retriever found near a text. `score`: cosine similarity, higher is better. */
export interface VectorMatch {
  id: string;
  score: number;
}

/**
 * Whether a site and locale can be searched by vectors now. When not, a `hybrid` or `vector` search runs as
 * `keyword` and says `reason` in its queryContext.semantic.
 */
export type VectorStatus =
  /** rrfK: the k of reciprocal rank fusion; window: how many results each side (keyword, vector) contributes. */
  { ready: true; rrfK: number; window: number } | { ready: false; reason: string };

/** What keeps vectors of a site's documents (the semantic plugin), as the search plugin asks it. */
export interface VectorRetriever {
  /** Synchronous and cheap (read from memory): asked by every `hybrid` and `vector` search. */
  status(siteId: string, locale: string): VectorStatus;
  /** The documents (their ids) nearest to a text, best first, at most k. */
  nearest(siteId: string, locale: string, text: string, k: number): Promise<VectorMatch[]>;
  /** More Like This by vectors: the documents nearest to these ones, best first, at most k, never these. */
  similar(siteId: string, locale: string, ids: string[], k: number): Promise<VectorMatch[]>;
}

/** The registry the `search.vectors` hook hands its taps: at most one retriever, a second `register` throws. */
export interface VectorRetrievers {
  register(name: string, retriever: VectorRetriever): void;
}

/**
 * What one indexer step changed in a site and locale's index, in this process: the ids it upserted and those it
 * removed. `rebuilt`: the index was built, restored or opened as a whole (at start, after a field change, after
 * another process pruned changes this one had not read) or dropped (the locale or site is gone); the ids are then
 * empty and a tap reconciles what it keeps for the site and locale with the stored documents.
 */
export interface IndexedChanges {
  siteId: string;
  locale: string;
  upserted: string[];
  removed: string[];
  rebuilt: boolean;
}

/** Every hook the search plugin owns. */
export interface SearchHooks {
  /**
   * Called once at the search plugin's start, before its indexes load, with the engine registry (the built-in
   * engines already in it): an engine plugin adds its factory here
   * (`ctx.hooks.tap('search.engines', 'opensearch', (engines) => engines.register('opensearch', factory))`).
   * Only the configured engine's factory is used, from then on: its engines are created and written to during
   * the search plugin's start, which runs before the start of a plugin that depends on search, so a factory
   * opens its connections lazily (the engine's methods may return promises).
   */
  engines: SyncHook<[SearchEngines]>;
  /**
   * Called after each REST search was answered (the answer is already sent), with what it searched and found.
   * A tap runs on the request path: it only queues what it wants to keep (the search-metrics plugin records
   * it off the request path). Nothing is built for it while nobody taps it.
   */
  searched: SyncHook<[SearchedEvent]>;
  /**
   * Called once a site is deleted (in this process, or by another process sharing the database): a tap forgets what it
   * kept about it.
   */
  siteDeleted: AsyncSeriesHook<[{ siteId: string }]>;
  /**
   * Called once at the search plugin's start, after `engines`, with the registry of vector retrievers: the plugin
   * that keeps vectors (semantic) registers its retriever, and `hybrid` and `vector` searches ask it.
   */
  vectors: SyncHook<[VectorRetrievers]>;
  /**
   * Called after each step the index manager applied (the ids upserted and removed per site and locale), each
   * rebuild and each drop (`rebuilt`), in this process. A tap runs on the indexer's path: it only queues what it
   * wants to do; one that throws is logged and indexing goes on. Nothing is built for it while nobody taps it.
   */
  indexed: SyncHook<[IndexedChanges]>;
  /**
   * Called by `GET /api/sn/{id}/monitoring` before it answers: a tap adds a member of its own to the report (the
   * semantic plugin: `semantic`, the embedding progress). Nothing is called while nobody taps it.
   */
  monitoring: AsyncSeriesHook<[SiteMonitoring]>;
  /**
   * Called by the site exports (`GET /api/sn/export`, `GET /api/sn/{id}/export`) for each site: a tap adds the
   * site's settings it keeps as one member named after itself (the genai plugin: `genai`), never a secret, and
   * none while the site has only the defaults. Not called while untapped.
   */
  siteExport: AsyncSeriesHook<[SiteExport]>;
  /**
   * Called by `POST /api/sn/import-config` after each site of the file was restored (settings, locales, fields,
   * spotlights): a tap reads its member of the entry and replaces what it keeps for the site with it (its defaults
   * when the member is absent: the site is restored whole). What it cannot restore as exported (a reference to
   * something this install lacks) it restores as best it can and says in `warnings`; it throws only on a failure.
   */
  siteImport: AsyncSeriesHook<[SiteImport]>;
}

/** One site of an export, which `search.siteExport` taps add their members to. */
export interface SiteExport {
  siteId: string;
  /** The site's entry of the export file: its settings, locales, fields and spotlights are the search plugin's. */
  entry: Record<string, unknown>;
}

/** One site of an imported export file, restored: what `search.siteImport` taps read. */
export interface SiteImport {
  /** The restored site's id on this install (a new one when the file's site was created here). */
  siteId: string;
  /** The site's entry of the file, as sent. */
  entry: Readonly<Record<string, unknown>>;
  /** What could not be restored as exported, each a sentence: the import answers them with the site. */
  warnings: string[];
}

/** The monitoring report of one site, which `search.monitoring` taps add their members to. */
export interface SiteMonitoring {
  siteId: string;
  /** `documents`, `queue` and `locales` are the search plugin's; a tap adds one member named after itself. */
  report: Record<string, unknown>;
}

declare module 'vela/plugin' {
  interface HookRegistry {
    'search.engines': SearchHooks['engines'];
    'search.searched': SearchHooks['searched'];
    'search.siteDeleted': SearchHooks['siteDeleted'];
    'search.vectors': SearchHooks['vectors'];
    'search.indexed': SearchHooks['indexed'];
    'search.monitoring': SearchHooks['monitoring'];
    'search.siteExport': SearchHooks['siteExport'];
    'search.siteImport': SearchHooks['siteImport'];
  }
  interface ServiceRegistry {
    'search.service': SiteSearch;
    'search.importer': SearchImporter;
    'search.sites': SearchSites;
    'search.keys': SearchKeys;
    /** The console at /console/: plugins on the search service add their pages (and site tabs) to it. */
    'search.console': ConsoleExtensions;
  }
}
