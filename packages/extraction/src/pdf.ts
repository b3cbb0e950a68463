import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeDeadline } from './deadline.js';
import { normalizeText } from './decode-text.js';
import { ExtractionError } from './extraction-error.js';
import { imageSize } from './image-info.js';
import { recognize } from './ocr/tesseract.js';
import type { ResolvedOcr } from './ocr-options.js';
import { overPixelLimit } from './pixel-limit.js';
import { type ExtractedContent, MEDIA_TYPES } from './types.js';

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

/** A page whose text layer has fewer non-space characters than this is a scan: it is rendered and recognized. */
const MIN_TEXT_CHARS = 10;

/** The lowest resolution a page too large for the pixel limit at `pdfDpi` is rendered at: below it, it is refused. */
const MIN_RENDER_DPI = 72;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
let assetUrls: { wasmUrl: string; standardFontDataUrl: string; cMapUrl: string } | undefined;

/** pdfjs's own data (fonts, character maps, image decoders) as local folders: in Node it reads them with fs. */
function assets() {
  if (!assetUrls) {
    const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    assetUrls = {
      wasmUrl: `${path.join(root, 'wasm')}${path.sep}`,
      standardFontDataUrl: `${path.join(root, 'standard_fonts')}${path.sep}`,
      cMapUrl: `${path.join(root, 'cmaps')}${path.sep}`,
    };
  }
  return assetUrls;
}

/**
 * The text layer of every page, and title, author, subject, keywords and dates from the document info,
 * with pdfjs-dist's legacy build (Node 20). Pages without a text layer (scans) are rendered with
 * @napi-rs/canvas at `ocr.pdfDpi` and recognized with tesseract, up to `ocr.maxPdfPages` of them. No worker
 * of pdfjs's own: this already runs on a pool thread, and pdfjs then parses in the same thread.
 */
export async function extractPdf(bytes: Uint8Array, deadline: number, ocr: ResolvedOcr): Promise<ExtractedContent> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const { getDocument, PDFDateString } = await pdfjs;
  // pdfjs takes ownership of (and may detach) the buffer it is given: hand it a copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    // An image over the limit is left out of a rendered page without being decoded (pdfjs reads its size from
    // the image's dictionary); those whose size is written plainly are refused before any page is rendered.
    maxImageSize: ocr.maxImagePixels,
    ...assets(),
  });
  const stop = () => task.destroy();
  try {
    const pdf = await beforeDeadline(task.promise, deadline, 'PDF', stop);
    const pages: string[] = [];
    let ocrPages = 0;
    let confidence = 0;
    let imagesChecked = false;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await beforeDeadline(pdf.getPage(n), deadline, 'PDF', stop);
      const content = await beforeDeadline(page.getTextContent(), deadline, 'PDF', stop);
      let text = (content.items as TextPiece[]).map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : '')).join('');
      if (ocr.enabled && ocrPages < ocr.maxPdfPages && text.replace(/\s+/g, '').length < MIN_TEXT_CHARS) {
        if (!imagesChecked) {
          checkPdfImages(bytes, ocr.maxImagePixels);
          imagesChecked = true;
        }
        const image = await beforeDeadline(renderPage(pdf, page, n, ocr), deadline, 'PDF', stop);
        const recognized = await recognize(image.pgm, ocr.languages, deadline, image.pixels);
        text = recognized.text;
        confidence += recognized.confidence;
        ocrPages += 1;
      }
      pages.push(text);
      page.cleanup();
    }
    const { info, metadata: xmp } = await beforeDeadline(pdf.getMetadata(), deadline, 'PDF', stop);
    const docInfo = (info ?? {}) as PdfInfo;
    const metadata: Record<string, unknown> = { pageCount: pdf.numPages };
    const title = text(docInfo.Title) ?? text(xmp?.get('dc:title'));
    const author = text(docInfo.Author) ?? text(xmp?.get('dc:creator'));
    if (author) metadata.author = author;
    const description = text(docInfo.Subject);
    if (description) metadata.description = description;
    const keywords = text(docInfo.Keywords)
      ?.split(/[,;]/)
      .map((k) => k.trim())
      .filter(Boolean);
    if (keywords?.length) metadata.keywords = keywords;
    const language = text(docInfo.Language);
    if (language) metadata.language = language;
    const created = isoDate(docInfo.CreationDate, PDFDateString);
    if (created) metadata.creationDate = created;
    const modified = isoDate(docInfo.ModDate, PDFDateString);
    if (modified) metadata.modificationDate = modified;
    if (ocrPages > 0) {
      metadata.ocrPages = ocrPages;
      metadata.ocrLanguages = ocr.languages.join('+');
      metadata.ocrConfidence = Math.round(confidence / ocrPages);
      metadata.language ??= ocr.languages.join('+');
    }
    return {
      ...(title ? { title } : {}),
      text: normalizeText(pages.join('\n')),
      contentType: MEDIA_TYPES.pdf,
      metadata,
    };
  } catch (error) {
    throw asExtractionError(error);
  } finally {
    await task.destroy();
  }
}

interface RenderablePage {
  getViewport(options: { scale: number }): { width: number; height: number };
  render(options: Record<string, unknown>): { promise: Promise<void> };
}

interface CanvasAndContext {
  canvas: unknown;
  context: { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}

/**
 * One page as a grayscale PGM image at the OCR resolution, or lower when that would pass the pixel limit (down
 * to MIN_RENDER_DPI). The size comes from the page's boxes and UserUnit (the viewport) before anything is drawn:
 * a page of 14,400 × 14,400 points, a few hundred bytes of PDF, would be gigapixels at 200 dpi.
 */
async function renderPage(
  pdf: unknown,
  page: unknown,
  n: number,
  ocr: ResolvedOcr,
): Promise<{ pgm: Uint8Array; pixels: number }> {
  const p = page as RenderablePage;
  const base = p.getViewport({ scale: 1 });
  const area = base.width * base.height;
  const floor = MIN_RENDER_DPI / 72;
  if (area * floor * floor > ocr.maxImagePixels) {
    throw overPixelLimit(
      `page ${n} of the PDF, rendered at ${MIN_RENDER_DPI} dpi,`,
      base.width * floor,
      base.height * floor,
      ocr.maxImagePixels,
    );
  }
  let scale = ocr.pdfDpi / 72;
  if (area * scale * scale > ocr.maxImagePixels) scale = Math.max(floor, Math.sqrt(ocr.maxImagePixels / area));
  const viewport = p.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const factory = (
    pdf as { canvasFactory: { create(w: number, h: number): CanvasAndContext; destroy(c: CanvasAndContext): void } }
  ).canvasFactory;
  const target = factory.create(width, height);
  try {
    await p.render({ canvasContext: target.context, canvas: target.canvas, viewport, background: 'white' }).promise;
    return { pgm: toPgm(target.context.getImageData(0, 0, width, height).data, width, height), pixels: width * height };
  } finally {
    factory.destroy(target);
  }
}

/** RGBA pixels as an 8-bit grayscale PGM (P5), which tesseract reads without any decoding work. */
function toPgm(rgba: Uint8ClampedArray, width: number, height: number): Uint8Array {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const out = new Uint8Array(header.length + width * height);
  out.set(header, 0);
  for (let i = 0, j = header.length; i < rgba.length; i += 4, j++) {
    // Luma of the pixel composited on white (a transparent page area is paper).
    const alpha = rgba[i + 3]! / 255;
    const luma = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
    out[j] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return out;
}

/**
 * Refuses a PDF holding an image XObject over the pixel limit, before a page is rendered (rendering decodes
 * the images a page draws). A stream's dictionary is never compressed (streams cannot sit in object streams),
 * so the sizes written as numbers are read from the file's bytes, and a JPEG's frame header from its stream. A
 * size given by reference is not found here; pdfjs's maxImageSize still leaves such an image out without
 * decoding it.
 */
function checkPdfImages(bytes: Uint8Array, limit: number): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const subtype = /\/Subtype\s*\/Image(?![A-Za-z0-9#])/g;
  for (let match = subtype.exec(text); match; match = subtype.exec(text)) {
    // The dictionary around the match, from its object's start to its stream, within 4 KiB either side (so a
    // file of many images is read in linear time).
    const before = text.slice(Math.max(0, match.index - 4096), match.index);
    const after = text.slice(match.index, match.index + 4096);
    const objectStart = Math.max(before.lastIndexOf(' obj'), before.lastIndexOf('\nobj'));
    const streamAt = after.indexOf('stream');
    const dictionary = before.slice(Math.max(objectStart, 0)) + (streamAt < 0 ? after : after.slice(0, streamAt));
    const width = Number(/\/Width\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
    const height = Number(/\/Height\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
    if (width * height > limit) throw overPixelLimit('an image in the PDF', width, height, limit);
    // A JPEG stream is decoded at the size of its own frame header, whatever its dictionary says.
    if (streamAt >= 0 && /\/Filter\s*(\[\s*)?\/DCTDecode\s*\]?\s*(\/|>>)/.test(dictionary)) {
      let data = match.index + streamAt + 'stream'.length;
      if (text[data] === '\r') data += 1;
      if (text[data] === '\n') data += 1;
      let frame: { width: number; height: number } | undefined;
      try {
        frame = imageSize(bytes.subarray(data), 'jpeg');
      } catch {
        frame = undefined; // not a JPEG pdfjs could decode either
      }
      if (frame && frame.width * frame.height > limit)
        throw overPixelLimit('an image in the PDF', frame.width, frame.height, limit);
    }
  }
}

function asExtractionError(error: unknown): unknown {
  if (error instanceof ExtractionError) return error;
  const name = (error as Error | null)?.name;
  const message = (error as Error | null)?.message ?? String(error);
  if (name === 'PasswordException')
    return new ExtractionError('encrypted_content', `the PDF is password-protected: ${message}`);
  return new ExtractionError('corrupt_content', `the PDF cannot be read: ${message}`);
}

function text(value: unknown): string | undefined {
  const s = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : undefined;
  const trimmed = s?.replace(/\s+/g, ' ').trim();
  return trimmed || undefined;
}

/** PDF dates (D:20240131120000Z) as ISO 8601. */
function isoDate(value: unknown, dates: PdfJs['PDFDateString']): string | undefined {
  if (typeof value !== 'string') return undefined;
  const date = dates.toDateObject(value);
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}
