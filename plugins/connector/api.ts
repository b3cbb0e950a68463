// The connector's published contract: what other plugins may use, as types and service names only.
// Import it with `import type` (it has no values); at run time a plugin reaches the connector through
// the services and hooks named here, never through the connector's files.
import type { Logger, OutboundFetch, SyncHook } from 'vela/plugin';

// One file or page handed to extraction, and what comes back: the shared extraction library's types
// (@vela/extraction), which the search plugin's OCR API uses too.
export type { ExtractedContent, ExtractInput } from '@vela/extraction';

import type { ExtractedContent, ExtractInput } from '@vela/extraction';

/** One document as a source yields it, before indexing rules and checksums. */
export interface SourceDocument {
  /** Stable id within the source: the same content always comes back with the same id. */
  id: string;
  /** Attributes sent to the search service as they are (title, text, url, date, facets, ...). */
  attributes: Record<string, unknown>;
  /** Overrides the source's locale for this document (xx_XX). */
  locale?: string;
  /**
   * The document's version as the source knows it (a last-modified date): when given, the checksum that
   * decides whether to send it again is made from it (with locale and sites) instead of from the attributes.
   */
  version?: string;
}

/** A document the source could not read: recorded in monitoring with the error, retried next run. */
export interface SourceReadError {
  id: string;
  error: string;
}

export interface SourceReadContext<Settings> {
  source: { name: string; locale: string; settings: Settings };
  /** Aborted when the run is cancelled or the runtime stops: stop reading and return or throw. */
  signal: AbortSignal;
  logger: Logger;
  /** Runs the connector's extraction on the worker pool (never on the HTTP event loop). */
  extract(input: ExtractInput): Promise<ExtractedContent>;
  /**
   * HTTP for reading the source, through the runtime's outbound guard: internal addresses are refused
   * (403 `address_refused`) unless the operator allows the host (`runtime.network.allowHosts`), and
   * redirects are never followed (check each Location's rules, then fetch it again).
   */
  fetch: OutboundFetch;
  /** When set (index or reindex by ids), yield only these documents if the kind can find them one by one. */
  onlyIds?: readonly string[];
  /**
   * Say something about the run as a whole, for its statistics' `notes` (a host left out, and why): what the
   * documents' own errors cannot say. The same note twice is kept once.
   */
  note?(message: string): void;
}

/**
 * A kind of source the connector can read (jsonl, filesystem, web are built in; plugins add theirs
 * through the `connector.sourceKinds` hook). The pipeline does everything after reading: rules,
 * checksums, batches, statuses, de-indexing of what vanished.
 */
export interface SourceKind<Settings = Record<string, unknown>> {
  /** Unique name, used as a source's `kind`: ^[a-z][a-z0-9-]{0,39}$. */
  name: string;
  description: string;
  /** JSON Schema of the kind-specific `settings` of a source; validated on create, update and config load. */
  settingsSchema: Record<string, unknown>;
  /**
   * Checks the schema cannot express, on settings that passed it (defaults filled): each problem names its
   * member (`settings.deny[0] ...`). A source with problems is refused with 400 when it is saved.
   */
  checkSettings?(settings: Settings): string[];
  /**
   * The URLs a source of this kind reads from (members named as in its settings: `settings.seeds[0]`),
   * checked against the outbound guard when the source is saved, so an internal address is refused then.
   */
  fetchesFrom?(settings: Settings): Array<{ member: string; url: string }>;
  /**
   * Sources of this kind are made only by the plugin that adds it, through `connector.sources` (their settings
   * name records of that plugin): the connector's API refuses to create one, or to change a source to it (400).
   */
  pluginOnly?: boolean;
  /**
   * Yields every document of the source (or the `onlyIds` ones). Throwing ends the run as failed, and a
   * failed run de-indexes nothing; a document the kind cannot read is yielded as an error instead.
   */
  read(ctx: SourceReadContext<Settings>): AsyncIterable<SourceDocument | SourceReadError>;
}

/** The registry the `connector.sourceKinds` hook hands its taps. */
export interface SourceKinds {
  /** Add a kind; a name that is taken or malformed throws. */
  register<Settings>(kind: SourceKind<Settings>): void;
  has(name: string): boolean;
  names(): string[];
}

/** DEINDEX_IDS: remove the given documents from where the source sent them, and forget them (nothing is read). */
export type RunOperation = 'INDEX_ALL' | 'REINDEX_ALL' | 'INDEX_IDS' | 'REINDEX_IDS' | 'DEINDEX_IDS';
export type RunTrigger = 'api' | 'schedule' | 'seed';
/** RUNNING until it ends; INTERRUPTED when the process stopped or died during the run. */
export type RunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'INTERRUPTED';

export interface RunCounts {
  /** Documents the source yielded (read errors included). */
  documents: number;
  indexed: number;
  unchanged: number;
  ignored: number;
  deindexed: number;
  errors: number;
}

/** The statistics of one run, as the monitoring endpoints answer them. */
export interface RunStats extends RunCounts {
  id: string;
  source: string;
  provider: string;
  operationType: RunOperation;
  trigger: RunTrigger;
  status: RunStatus;
  startTime: string;
  endTime: string | null;
  /** The document count of the run (as the original's statistics name it). */
  documentCount: number;
  durationMs: number | null;
  documentsPerSecond: number | null;
  documentsPerMinute: number | null;
  error: string | null;
  /** What the source said about the run as a whole (a web host whose robots.txt could not be read, say). */
  notes: string[];
}

export interface RunTicket {
  runId: string;
  /** Settles when the run has ended (never rejects: the outcome is in the statistics). */
  done: Promise<RunStats>;
}

/** `connector.runs`: the pipeline, for plugins that trigger runs of their sources (as the HTTP API does). */
export interface ConnectorRuns {
  /**
   * Queue a run; resolves as soon as it is queued. Rejects with 404 for an unknown source, 409 for a
   * second full run (here or in another process), 503 when there is no search service to send to.
   */
  trigger(source: string, operation: RunOperation, trigger: RunTrigger, ids?: string[]): Promise<RunTicket>;
}

/**
 * A source a plugin keeps in step with its own records (the cms plugin: one per content repository and environment).
 */
export interface PluginSourceInput {
  name: string;
  /** Also its owner: a source made through `connector.sources` belongs to the plugin whose kind it is. */
  kind: string;
  description?: string;
  sites: string[];
  locale?: string;
  /** Other locales its documents may carry (`SourceDocument.locale`): each must be one of every site's, as `locale`. */
  locales?: string[];
  schedule?: string | null;
  settings: Record<string, unknown>;
}

/** Which of a source's tracked documents to list: ids starting with `prefix`, or those of `ids`, or both at once. */
export interface TrackedIdQuery {
  prefix?: string;
  ids?: readonly string[];
  /** At most this many, in id order. */
  limit: number;
}

/**
 * `connector.sources`: the sources plugins own. They run, show in monitoring and take rules like every other
 * source, but the connector's API cannot change or delete them (409): their plugin does, through this. A
 * source belongs to the kind it was made with (each kind is one plugin's), so a plugin never replaces or
 * deletes a source the user, the configuration or another plugin made.
 */
export interface ConnectorSources {
  /**
   * Create the source (true), or replace it (false) when it was made through this service with the same kind.
   * Rejects with 400 naming the member (the kind's settings, the schedule, `sites[i]` unknown to the search
   * service, `locale` or `locales[j]` not one of a site's), 409 when the name is taken by any other source.
   */
  put(source: PluginSourceInput): Promise<boolean>;
  /**
   * Delete the source of this name made through this service with this kind, with its status records and
   * statistics (its documents stay in the search index); false when there is no such source (one of the same
   * name that someone else made is left alone); 409 while one of its runs goes or waits.
   */
  remove(name: string, kind: string): Promise<boolean>;
  /**
   * Ids of the documents the connector tracks for a source (indexed, ignored or failed; none for an unknown
   * source), so that a removal can reach documents the source itself no longer lists.
   */
  trackedIds(name: string, query: TrackedIdQuery): Promise<string[]>;
}

/** Every hook the connector owns. */
export interface ConnectorHooks {
  /**
   * Called once at start with the registry of source kinds: a plugin adds its kinds here
   * (`ctx.hooks.tap('connector.sourceKinds', 'cms', (kinds) => kinds.register(cmsKind))`), as webpack
   * plugins tap a compiler hook. The built-in kinds are registered before the taps run.
   */
  sourceKinds: SyncHook<[SourceKinds]>;
}

declare module 'vela/plugin' {
  interface HookRegistry {
    'connector.sourceKinds': ConnectorHooks['sourceKinds'];
  }
  interface ServiceRegistry {
    'connector.runs': ConnectorRuns;
    'connector.sources': ConnectorSources;
  }
}
