/** How images and PDF pages without a text layer are recognized. */
export interface OcrOptions {
  /** false: images are refused as unsupported and scanned PDF pages give no text (default true). */
  enabled?: boolean;
  /** Tesseract language codes, from those whose data ships with this package (OCR_LANGUAGES; default ['eng']). */
  languages?: readonly string[];
  /** Resolution PDF pages without text are rendered at before recognition (default 200). */
  pdfDpi?: number;
  /** PDF pages recognized at most per document; pages after that keep their (empty) text layer (default 50). */
  maxPdfPages?: number;
  /**
   * Largest image recognized, in pixels, read from its header before any decoding (default 25 megapixels); also
   * the largest image decoded inside a PDF, and the largest a page may be rendered at (a larger page is rendered
   * at a lower resolution, down to 72 dpi; past that it is refused). Larger ones are refused as too large.
   */
  maxImagePixels?: number;
}

/** One file or page handed to extraction. */
export interface ExtractInput {
  bytes: Uint8Array;
  /** Media type as the source reported it (an HTTP Content-Type, with or without parameters). */
  contentType?: string;
  fileName?: string;
  /** Base for resolving relative links in HTML. */
  url?: string;
  /** Refuse inputs larger than this many bytes (default 50 MiB). */
  maxBytes?: number;
  /** Give up on a document (a PDF with thousands of pages) after this long (default 60 s). */
  timeoutMs?: number;
  /** OCR of images and scanned PDF pages (on by default, in English). */
  ocr?: OcrOptions;
}

/** What extraction gives back. */
export interface ExtractedContent {
  title?: string;
  text: string;
  /** The media type that was extracted: text/html, application/pdf, image/png, ... */
  contentType: string;
  /** Links found in the content, absolute where a base URL was known (HTML only). */
  links?: string[];
  /**
   * Other fields the format carries: description, keywords, author, language, pageCount, creationDate,
   * modificationDate; for recognized text also ocrLanguages, ocrPages and ocrConfidence (0 to 100).
   */
  metadata: Record<string, unknown>;
}

export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_OCR = {
  enabled: true,
  languages: ['eng'],
  pdfDpi: 200,
  maxPdfPages: 50,
  maxImagePixels: 25_000_000,
} as const;

/** The formats this module reads, by the media type it reports for each. */
export const MEDIA_TYPES = {
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  webp: 'image/webp',
} as const;

export type Format = keyof typeof MEDIA_TYPES;
export type ImageFormat = 'png' | 'jpeg' | 'tiff' | 'webp';
export const IMAGE_FORMATS: ReadonlySet<Format> = new Set<Format>(['png', 'jpeg', 'tiff', 'webp']);
