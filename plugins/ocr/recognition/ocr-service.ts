import { MessageChannel, type MessagePort } from 'node:worker_threads';
import {
  checkImagePixels,
  type ExtractedContent,
  type ExtractInput,
  ExtractionError,
  isOcrLanguage,
  OCR_LANGUAGES,
} from '@vela/extraction';
import { type OutboundGuard, VelaError } from 'vela/plugin';
import { ocrErrors } from '../errors.js';
import type { OcrTaskInput } from './ocr-task.js';

/** The OCR task on the worker pool (ocr-task.ts), as ctx.task returns it. */
export type OcrTaskRunner = (
  payload: OcrTaskInput,
  options?: { signal?: AbortSignal; transferList?: Transferable[] },
) => Promise<ExtractedContent>;

/** A thread still busy this long after the task's own deadline is ended (a parser caught in a long loop). */
const STUCK_GRACE_MS = 5000;

/** `plugins.ocr`. */
export interface OcrConfig {
  /** Largest document taken, uploaded or fetched (bytes). */
  maxBytes: number;
  /** OCR requests in progress at once (extracting on the pool, or waiting for it); past it 503 with Retry-After. */
  maxPending: number;
  /** Longest one document may take to extract, from when a pool thread starts it. */
  timeoutMs: number;
  /** Longest a document may wait for a pool thread before it is answered 503 with Retry-After. */
  queueTimeoutMs: number;
  /** An upload that sends nothing for this long is answered 408 (it would hold a place of maxPending). */
  uploadIdleMs: number;
  /** An upload that takes longer than this in all is answered 408. */
  uploadTimeoutMs: number;
  /** An upload that brings fewer bytes a second than this, over each `uploadRateWindowMs`, is answered 408. */
  uploadMinBytesPerSecond: number;
  uploadRateWindowMs: number;
  /** Documents one client address may be uploading, or having fetched by URL, at once (429 past it). */
  maxTransfersPerClient: number;
  /** Languages recognized when a request names none. */
  languages: string[];
  pdfDpi: number;
  maxPdfPages: number;
  maxImagePixels: number;
  /** Longest fetching a document by URL may take, and the redirects followed (each checked by the guard). */
  urlTimeoutMs: number;
  maxRedirects: number;
}

/** What Retry-After is estimated from: the worker pool's size and its queue (WorkerPool.stats()). */
export interface PoolLoad {
  maxThreads: number;
  queueSize: number;
}

/** The answer of both OCR endpoints: the document's attributes and its text. */
export interface FileAttributes {
  name: string;
  contentType: string;
  size: number;
  text: string;
  metadata: {
    pages: number | null;
    language: string | null;
    title: string | null;
    author: string | null;
    created: string | null;
    modified: string | null;
  };
}

export interface DocumentInput {
  bytes: Uint8Array;
  name: string;
  contentType?: string;
  /** The Last-Modified of a fetched document, used when the document itself has no modification date. */
  lastModified?: string;
}

/**
 * OCR and text extraction on the runtime's worker pool (the @vela/extraction library, whose threads keep their
 * tesseract workers warm), behind a bounded admission: at most `maxPending` documents in progress, the rest
 * answered 503 with a Retry-After estimated from recent durations and the pool's threads. A document takes its
 * place only once all its bytes are here, so clients that upload slowly (or not at all) hold none; they are
 * bounded apart, per client address (`maxTransfersPerClient`) and by the upload's minimum rate. A document's time
 * limit starts when a thread takes it; one that waits longer than `queueTimeoutMs` for a thread is answered 503.
 */
export class OcrService {
  private pending = 0;
  /** Uploads and fetches in progress, by client address. */
  private readonly transfers = new Map<string, number>();
  /** Moving average of recent extraction times (running, not waiting), for Retry-After. */
  private averageMs = 1000;

  constructor(
    private readonly run: OcrTaskRunner,
    readonly config: OcrConfig,
    private readonly outbound: () => OutboundGuard,
    /** The worker pool's size (the threads it grows to) and the tasks in its queue now, every plugin's. */
    private readonly pool: () => PoolLoad,
  ) {}

  get inProgress(): number {
    return this.pending;
  }

  /**
   * `receive` (an upload or a fetch), counted for `client` (its address) while its bytes arrive, or refused with
   * 429 past `maxTransfersPerClient`. Retry-After is the window in which a stalled upload is ended.
   */
  async transfer<T>(client: string, receive: () => Promise<T>): Promise<T> {
    const count = this.transfers.get(client) ?? 0;
    if (count >= this.config.maxTransfersPerClient) {
      throw ocrErrors.tooManyTransfers(count, Math.max(1, Math.ceil(this.config.uploadRateWindowMs / 1000)));
    }
    this.transfers.set(client, count + 1);
    try {
      return await receive();
    } finally {
      const left = (this.transfers.get(client) ?? 1) - 1;
      if (left > 0) this.transfers.set(client, left);
      else this.transfers.delete(client);
    }
  }

  /** Take a slot for one document whose bytes are all here, or refuse with 503 ocr_busy. Release exactly once. */
  admit(): () => void {
    if (this.pending >= this.config.maxPending) throw ocrErrors.busy(this.pending, this.retryAfterSeconds());
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
    try {
      // An image over the pixel limit is refused from its header here, not after a wait for a pool thread.
      checkImagePixels(input);
    } catch (error) {
      throw this.asHttpError(error);
    }
    const { port1: started, port2 } = new MessageChannel();
    const cancel = new AbortController();
    const task = this.run({ input, started: port2 }, { signal: cancel.signal, transferList: [port2] });
    task.catch(() => {}); // awaited below, possibly only after the document started
    let stuck: NodeJS.Timeout | undefined;
    try {
      await this.untilStarted(started, task, cancel);
      // The task keeps its own deadline from when it started; this ends a thread stuck past it.
      stuck = setTimeout(
        () => cancel.abort(ocrErrors.timeout(this.config.timeoutMs)),
        this.config.timeoutMs + STUCK_GRACE_MS,
      );
      const began = performance.now();
      const content = await task.finally(() => {
        this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - began);
      });
      return attributesOf(document, content);
    } catch (error) {
      throw this.asHttpError(error, cancel.signal);
    } finally {
      clearTimeout(stuck);
    }
  }

  /**
   * Resolves when a pool thread starts the task. Past `queueTimeoutMs` without one, the task is taken out of the
   * pool's queue and the answer is 503 with Retry-After: the document never ran, so it is no extraction timeout.
   */
  private async untilStarted(started: MessagePort, task: Promise<unknown>, cancel: AbortController): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, this.config.queueTimeoutMs, 'late');
    });
    const begun = new Promise<'started'>((resolve) => started.once('message', () => resolve('started')));
    try {
      if ((await Promise.race([begun, late, task])) === 'late') {
        const refusal = ocrErrors.queueTimeout(this.config.queueTimeoutMs, this.retryAfterSeconds());
        cancel.abort(refusal);
        throw refusal;
      }
    } finally {
      clearTimeout(timer);
      started.close();
    }
  }

  /**
   * Seconds until a place is likely free: the work ahead (the documents in progress, or the pool's queue when
   * other tasks make it longer: it is first come, first served) shared among the pool's threads, times the
   * average running time of a document. Between 1 and 120.
   */
  retryAfterSeconds(): number {
    const { maxThreads, queueSize } = this.pool();
    const ahead = Math.max(this.pending, queueSize);
    return Math.min(120, Math.max(1, Math.ceil(((ahead / Math.max(1, maxThreads)) * this.averageMs) / 1000)));
  }

  /**
   * Fetch a document through the outbound guard (internal addresses refused, 403 naming the rule), following
   * at most `maxRedirects` redirects, each checked again, within `maxBytes` and `urlTimeoutMs`.
   */
  async fetchDocument(url: string): Promise<DocumentInput> {
    const guard = this.outbound();
    let target = guard.parse(clientUrl(url)).url;
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
        let next: URL;
        try {
          next = new URL(String(headers.location), target);
        } catch {
          throw ocrErrors.badRedirect(`${target.origin}${target.pathname}`);
        }
        target = guard.parse(next).url;
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
      const name = lastSegment(target);
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
    if (error instanceof VelaError && error.code === 'upstream_response_too_large')
      return ocrErrors.tooLarge(this.config.maxBytes);
    return error;
  }

  private asHttpError(error: unknown, signal?: AbortSignal): unknown {
    if (error instanceof VelaError) return error;
    const known = ExtractionError.fromTransported(error);
    if (known instanceof ExtractionError) {
      if (known.code === 'unsupported_type') return ocrErrors.unsupported(known.message);
      if (known.code === 'too_large') {
        // Over the byte limit, or an image (a page) of too many pixels, or an Office file that unpacks to too much.
        if (known.message.includes('bytes, over the limit')) return ocrErrors.tooLarge(this.config.maxBytes);
        if (/ pixels \(\d+\), over the limit of \d+ pixels$/.test(known.message))
          return ocrErrors.tooLargeContent(`${known.message} (plugins.ocr.maxImagePixels)`);
        return ocrErrors.tooLargeContent(known.message);
      }
      if (known.code === 'encrypted_content') return ocrErrors.encrypted(known.message);
      if (known.code === 'timeout') return ocrErrors.timeout(this.config.timeoutMs);
      return ocrErrors.corrupt(known.message);
    }
    if (signal?.aborted)
      return signal.reason instanceof VelaError ? signal.reason : ocrErrors.timeout(this.config.timeoutMs);
    return error;
  }
}

/**
 * The URL a client gives, refused with 400 when it is not one: WHATWG URL parsing lets a `%` without two hex
 * digits through, but such a URL is malformed (RFC 3986) and its meaning differs between servers.
 */
function clientUrl(url: string): string {
  if (/%(?![0-9A-Fa-f]{2})/.test(url))
    throw ocrErrors.badUrl('has a % that is not followed by two hex digits (a literal % is written %25)');
  if (!URL.canParse(url)) throw ocrErrors.badUrl('is not an absolute URL');
  return url;
}

/**
 * A fetched document's name: its URL's last path segment, decoded when it decodes (`%E0%A4%A` does not), else the host.
 */
function lastSegment(url: URL): string {
  const raw = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    name = raw;
  }
  return name || url.hostname;
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
