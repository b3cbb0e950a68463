// The extraction module's own boundary types. They match plugins/connector/sources/source-kind.ts
// structurally, and are declared here so that this folder imports nothing from the connector: the
// search service's OCR endpoint reuses it as it is.

export interface ExtractInput {
  bytes: Uint8Array;
  /** Media type as the source reported it (an HTTP Content-Type, with or without parameters). */
  contentType?: string;
  fileName?: string;
  /** Base for resolving relative links in HTML. */
  url?: string;
  /** Refuse inputs larger than this many bytes (default DEFAULT_MAX_BYTES). */
  maxBytes?: number;
  /** Give up on a document (a PDF with thousands of pages) after this long (default DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface ExtractedContent {
  title?: string;
  text: string;
  /** The media type that was extracted: text/html, application/pdf, ... */
  contentType: string;
  /** Links found in the content, absolute where a base URL was known (HTML only). */
  links?: string[];
  /** Other fields the format carries: description, keywords, author, language, pageCount, ... */
  metadata: Record<string, unknown>;
}

export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The formats this module reads, by the media type it reports for each. */
export const MEDIA_TYPES = {
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

export type Format = keyof typeof MEDIA_TYPES;
