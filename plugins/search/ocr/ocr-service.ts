import { type ExtractedContent, type ExtractInput, ExtractionError, isOcrLanguage, OCR_LANGUAGES, type PooledExtract } from '@vela/extraction';
import { type OutboundGuard, VelaError } from 'vela/plugin';
import { ocrErrors } from './ocr-errors.js';

/** `plugins.search.ocr`. */
export interface OcrConfig {
  /** Largest document taken, uploaded or fetched (bytes). */
  maxBytes: number;
  /** OCR requests in progress at once (extracting on the pool, or waiting for it); past it 503 with Retry-After. */
  maxPending: number;
  /** Longest one document may take to extract. */
  timeoutMs: number;
  /** Languages recognized when a request names none. */
  languages: string[];
  pdfDpi: number;
  maxPdfPages: number;
  maxImagePixels: number;
  /** Longest fetching a document by URL may take, and the redirects followed (each checked by the guard). */
  urlTimeoutMs: number;
  maxRedirects: number;
}

/** The answer of both OCR endpoints: the document's attributes and its text. */
export interface FileAttributes {
  name: string;
  contentType: string;
  size: number;
  text: string;
  metadata: { pages: number | null; language: string | null; title: string | null; author: string | null; created: string | null; modified: string | null };
}

export interface DocumentInput {
  bytes: Uint8Array;
  name: string;
  contentType?: string;
  /** The Last-Modified of a fetched document, used when the document itself has no modification date. */
  lastModified?: string;
}

/**
 * OCR and text extraction on the runtime's worker pool (the @vela/extraction task, whose threads keep their
 * tesseract workers warm), behind a bounded admission: at most `maxPending` documents in progress, the rest
 * answered 503 with a Retry-After estimated from recent durations.
 */
export class OcrService {
  private pending = 0;
  /** Moving average of recent extraction times, for Retry-After. */
  private averageMs = 1000;

  constructor(
    private readonly extract: PooledExtract,
    readonly config: OcrConfig,
    private readonly outbound: () => OutboundGuard,
  ) {}

  get inProgress(): number {
    return this.pending;
  }

  /** Take a slot for one document (before its upload is read), or refuse with 503 ocr_busy. Release exactly once. */
  admit(): () => void {
    if (this.pending >= this.config.maxPending) {
      // Slots free at about (in progress ÷ the two pool threads) × the average time.
      const seconds = Math.min(120, Math.max(1, Math.ceil(((this.pending / 2) * this.averageMs) / 1000)));
      throw ocrErrors.busy(this.pending, seconds);
    }
    this.pending += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.pending -= 1;
    };
  }

  /** `language` as a request gives it (`eng`, `eng+por`), or the configured default. */
  languagesOf(language: string | undefined): string[] {
    if (!language) return this.config.languages;
    const codes = language.split(/[+,\s]+/).filter(Boolean);
    for (const code of codes) if (!isOcrLanguage(code)) throw ocrErrors.badLanguage(code, OCR_LANGUAGES);
    if (codes.length === 0) throw ocrErrors.badLanguage(language, OCR_LANGUAGES);
    return codes;
  }

  async recognize(document: DocumentInput, languages: string[]): Promise<FileAttributes> {
    const began = performance.now();
    const input: ExtractInput = {
      bytes: document.bytes,
      fileName: document.name,
      contentType: document.contentType,
      maxBytes: this.config.maxBytes,
      timeoutMs: this.config.timeoutMs,
      ocr: {
        languages,
        pdfDpi: this.config.pdfDpi,
        maxPdfPages: this.config.maxPdfPages,
        maxImagePixels: this.config.maxImagePixels,
      },
    };
    // The task keeps its own deadline; the signal ends a thread stuck past it (a parser in a long loop).
    const signal = AbortSignal.timeout(this.config.timeoutMs + 5000);
    let content: ExtractedContent;
    try {
      content = await this.extract(input, { signal });
    } catch (error) {
      throw this.asHttpError(error, signal);
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - began);
    }
    return attributesOf(document, content);
  }

  /**
   * Fetch a document through the outbound guard (internal addresses refused, 403 naming the rule), following
   * at most `maxRedirects` redirects, each checked again, within `maxBytes` and `urlTimeoutMs`.
   */
  async fetchDocument(url: string): Promise<DocumentInput> {
    const guard = this.outbound();
    let target = guard.parse(url).url;
    for (let redirects = 0; ; redirects++) {
      let response: Awaited<ReturnType<OutboundGuard['request']>>;
      try {
        response = await guard.request(target, {
          method: 'GET',
          headers: { accept: '*/*', 'user-agent': 'Vela-OCR/1.0' },
          timeoutMs: this.config.urlTimeoutMs,
          maxResponseBytes: this.config.maxBytes,
        });
      } catch (error) {
        throw this.asFetchError(error);
      }
      const { status, headers, body } = response;
      if (status >= 300 && status < 400 && headers.location) {
        body.destroy();
        if (redirects >= this.config.maxRedirects) throw ocrErrors.tooManyRedirects(url, this.config.maxRedirects);
        target = guard.parse(new URL(String(headers.location), target)).url;
        continue;
      }
      if (status < 200 || status >= 300) {
        body.destroy();
        throw ocrErrors.urlStatus(`${target.origin}${target.pathname}`, status);
      }
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of body) chunks.push(chunk as Buffer);
      } catch (error) {
        throw this.asFetchError(error);
      }
      const name = decodeURIComponent(target.pathname.split('/').filter(Boolean).pop() ?? '') || target.hostname;
      const lastModified = headers['last-modified'] ? new Date(String(headers['last-modified'])) : undefined;
      return {
        bytes: Buffer.concat(chunks),
        name,
        contentType: headers['content-type'] ? String(headers['content-type']) : undefined,
        ...(lastModified && !Number.isNaN(lastModified.getTime()) ? { lastModified: lastModified.toISOString() } : {}),
      };
    }
  }

  private asFetchError(error: unknown): unknown {
    if (error instanceof VelaError && error.code === 'upstream_response_too_large') return ocrErrors.tooLarge(this.config.maxBytes);
    return error;
  }

  private asHttpError(error: unknown, signal: AbortSignal): unknown {
    const known = ExtractionError.fromTransported(error);
    if (known instanceof ExtractionError) {
      if (known.code === 'unsupported_type') return ocrErrors.unsupported(known.message);
      if (known.code === 'too_large') {
        // Over the byte limit, or an image of too many pixels, or an Office file that unpacks to too much.
        return known.message.includes('bytes, over the limit') ? ocrErrors.tooLarge(this.config.maxBytes) : ocrErrors.tooLargeContent(known.message);
      }
      if (known.code === 'encrypted_content') return ocrErrors.encrypted(known.message);
      if (known.code === 'timeout') return ocrErrors.timeout(this.config.timeoutMs);
      return ocrErrors.corrupt(known.message);
    }
    if (signal.aborted) return ocrErrors.timeout(this.config.timeoutMs);
    return error;
  }
}

function attributesOf(document: DocumentInput, content: ExtractedContent): FileAttributes {
  const m = content.metadata;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const image = content.contentType.startsWith('image/');
  return {
    name: document.name,
    contentType: content.contentType,
    size: document.bytes.byteLength,
    text: content.text,
    metadata: {
      pages: typeof m.pageCount === 'number' ? m.pageCount : image ? 1 : null,
      language: text(m.language),
      title: content.title ?? null,
      author: text(m.author),
      created: text(m.creationDate),
      modified: text(m.modificationDate) ?? document.lastModified ?? null,
    },
  };
}
