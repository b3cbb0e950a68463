import type { Logger } from '../../../runtime/index.js';
import type { ExtractedContent, ExtractInput } from '../extraction/types.js';

// The contract between the connector's pipeline and the kinds of source it can read. Built-in kinds
// (jsonl, filesystem, web) and kinds from other plugins (cms, through the connector's source-kind hook)
// implement it; the pipeline does everything after reading (rules, checksums, batching, statuses).

/** One document as a source yields it, before indexing rules and checksums. */
export interface SourceDocument {
  /** Stable id within the source: the same content always comes back with the same id. */
  id: string;
  /** Attributes sent to the search service as they are (title, text, url, date, facets, ...). */
  attributes: Record<string, unknown>;
  /** Overrides the source's locale for this document (xx_XX). */
  locale?: string;
}

// What extraction of one file or page gives back, and what it takes: declared by the extraction module,
// which imports nothing from the connector so that the search service's OCR endpoint can reuse it.
export type { ExtractedContent, ExtractInput };

export interface SourceReadContext<Settings> {
  source: { name: string; locale: string; settings: Settings };
  /** Aborted when the run is cancelled or the runtime stops: stop reading and return or throw. */
  signal: AbortSignal;
  logger: Logger;
  /** Runs the extraction module on the worker pool (never on the HTTP event loop). */
  extract(input: ExtractInput): Promise<ExtractedContent>;
  /** When set (index or reindex by ids), yield only these documents if the kind can find them one by one. */
  onlyIds?: readonly string[];
}

export interface SourceKind<Settings = Record<string, unknown>> {
  /** Unique name, used as a source's `kind`: jsonl, filesystem, web, ... */
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
   * Yields every document of the source (or the `onlyIds` ones). Throwing ends the run as failed, and a
   * failed run de-indexes nothing; a document the kind cannot read is yielded as an error instead.
   */
  read(ctx: SourceReadContext<Settings>): AsyncIterable<SourceDocument | SourceReadError>;
}

/** A document the source could not read: recorded in monitoring with the error, retried next run. */
export interface SourceReadError {
  id: string;
  error: string;
}

export function isReadError(item: SourceDocument | SourceReadError): item is SourceReadError {
  return 'error' in item && !('attributes' in item);
}
