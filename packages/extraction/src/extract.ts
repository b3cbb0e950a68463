import { decodeText, normalizeText } from './decode-text.js';
import { detectFormat, mediaTypeOf } from './detect-format.js';
import { extractDocx } from './docx.js';
import { ExtractionError } from './extraction-error.js';
import { extractHtml } from './html.js';
import { extractImage } from './image.js';
import { extractMarkdown } from './markdown.js';
import { resolveOcr } from './ocr-options.js';
import { extractPdf } from './pdf.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  type ExtractedContent,
  type ExtractInput,
  MEDIA_TYPES,
} from './types.js';
import { extractXlsx } from './xlsx.js';

export { ExtractionError, type ExtractionErrorCode } from './extraction-error.js';
export type { ExtractedContent, ExtractInput } from './types.js';

/**
 * Text and metadata of one document: HTML, Markdown, plain text, PDF (scanned pages recognized), DOCX, XLSX,
 * or an image (PNG, JPEG, TIFF, WebP) by OCR, recognised by magic bytes, media type, file extension, then
 * content. Bad input throws an ExtractionError with a code; CPU-heavy, so callers on an HTTP event loop run
 * it on the worker pool (extract-task.ts), where OCR keeps its tesseract workers warm per thread.
 */
export async function extractContent(input: ExtractInput): Promise<ExtractedContent> {
  const { bytes, contentType, fileName, url } = input;
  if (!(bytes instanceof Uint8Array)) throw new ExtractionError('unsupported_type', 'bytes must be a Uint8Array');
  const maxBytes = input.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.byteLength > maxBytes) {
    throw new ExtractionError(
      'too_large',
      `the document is ${bytes.byteLength} bytes, over the limit of ${maxBytes} bytes`,
    );
  }
  const ocr = resolveOcr(input.ocr);
  const deadline = Date.now() + (input.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const format = detectFormat(bytes, contentType, fileName);
  switch (format) {
    case 'html':
      return extractHtml(decodeText(bytes, contentType, true), url);
    case 'markdown':
      return extractMarkdown(decodeText(bytes, contentType));
    case 'text':
      return { text: normalizeText(decodeText(bytes, contentType)), contentType: MEDIA_TYPES.text, metadata: {} };
    case 'pdf':
      return extractPdf(bytes, deadline, ocr);
    case 'docx':
      return extractDocx(bytes);
    case 'xlsx':
      return extractXlsx(bytes);
    case 'png':
    case 'jpeg':
    case 'tiff':
    case 'webp':
      return extractImage(bytes, format, ocr, deadline);
    default:
      throw new ExtractionError(
        'unsupported_type',
        `cannot extract text from ${describe(contentType, fileName)}: the formats read are HTML, Markdown, plain text, PDF, DOCX, XLSX and images (PNG, JPEG, TIFF, WebP)`,
      );
  }
}

function describe(contentType: string | undefined, fileName: string | undefined): string {
  const parts = [
    mediaTypeOf(contentType) && `content type ${mediaTypeOf(contentType)}`,
    fileName && `file "${fileName}"`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'this content (its first bytes match no known format)';
}
