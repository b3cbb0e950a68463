import { getDocument, PDFDateString } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractionError } from './extraction-error.js';
import { normalizeText } from './decode-text.js';
import { MEDIA_TYPES, type ExtractedContent } from './types.js';

interface PdfInfo {
  Title?: unknown;
  Author?: unknown;
  Subject?: unknown;
  Keywords?: unknown;
  Language?: unknown;
  CreationDate?: unknown;
  ModDate?: unknown;
}

interface TextPiece {
  str?: string;
  hasEOL?: boolean;
}

/**
 * The text layer of every page, and title, author, subject, keywords and dates from the document info,
 * with pdfjs-dist's legacy build (Node 20). No worker of pdfjs's own: this already runs on a pool thread,
 * and pdfjs then parses in the same thread (its "fake worker").
 */
export async function extractPdf(bytes: Uint8Array, deadline: number): Promise<ExtractedContent> {
  // pdfjs takes ownership of (and may detach) the buffer it is given: hand it a copy.
  const task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  try {
    const pdf = await beforeDeadline(task.promise, deadline, () => task.destroy());
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await beforeDeadline(pdf.getPage(n), deadline, () => task.destroy());
      const content = await beforeDeadline(page.getTextContent(), deadline, () => task.destroy());
      pages.push((content.items as TextPiece[]).map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : '')).join(''));
      page.cleanup();
    }
    const { info, metadata: xmp } = await beforeDeadline(pdf.getMetadata(), deadline, () => task.destroy());
    const docInfo = (info ?? {}) as PdfInfo;
    const metadata: Record<string, unknown> = { pageCount: pdf.numPages };
    const title = text(docInfo.Title) ?? text(xmp?.get('dc:title'));
    const author = text(docInfo.Author) ?? text(xmp?.get('dc:creator'));
    if (author) metadata.author = author;
    const description = text(docInfo.Subject);
    if (description) metadata.description = description;
    const keywords = text(docInfo.Keywords)?.split(/[,;]/).map((k) => k.trim()).filter(Boolean);
    if (keywords?.length) metadata.keywords = keywords;
    const language = text(docInfo.Language);
    if (language) metadata.language = language;
    const created = isoDate(docInfo.CreationDate);
    if (created) metadata.creationDate = created;
    const modified = isoDate(docInfo.ModDate);
    if (modified) metadata.modificationDate = modified;
    return { ...(title ? { title } : {}), text: normalizeText(pages.join('\n')), contentType: MEDIA_TYPES.pdf, metadata };
  } catch (error) {
    throw asExtractionError(error);
  } finally {
    await task.destroy();
  }
}

function asExtractionError(error: unknown): unknown {
  if (error instanceof ExtractionError) return error;
  const name = (error as Error | null)?.name;
  const message = (error as Error | null)?.message ?? String(error);
  if (name === 'PasswordException') return new ExtractionError('encrypted_content', `the PDF is password-protected: ${message}`);
  return new ExtractionError('corrupt_content', `the PDF cannot be read: ${message}`);
}

/** pdfjs works asynchronously, so a deadline can stop a document with endless pages. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number, onTimeout: () => unknown): Promise<T> {
  const left = deadline - Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void onTimeout();
      reject(new ExtractionError('timeout', 'the PDF took longer than the time limit to extract'));
    }, Math.max(0, left));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function text(value: unknown): string | undefined {
  const s = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : undefined;
  const trimmed = s?.replace(/\s+/g, ' ').trim();
  return trimmed || undefined;
}

/** PDF dates (D:20240131120000Z) as ISO 8601. */
function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const date = PDFDateString.toDateObject(value);
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}
