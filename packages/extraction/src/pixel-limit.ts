import { sniffBinary } from './detect-format.js';
import { ExtractionError } from './extraction-error.js';
import { imageSize } from './image-info.js';
import { DEFAULT_OCR, type ExtractInput, IMAGE_FORMATS, type ImageFormat } from './types.js';

/** The refusal of an image (or a page as it would be rendered) over the pixel limit, naming both. */
export function overPixelLimit(what: string, width: number, height: number, limit: number): ExtractionError {
  return new ExtractionError(
    'too_large',
    `${what} is ${Math.round(width)} × ${Math.round(height)} pixels (${Math.round(width * height)}), over the limit of ${limit} pixels`,
  );
}

/**
 * The pixel limit checked from an image's header, on the calling thread before the document is queued for a
 * pool thread: a few kilobytes that claim tens of megapixels are refused at once, whatever the pool is busy
 * with. Only a signature and a header are read (no decoding, no pass over the whole file); a damaged header
 * is left to extraction, which answers it as corrupt.
 */
export function checkImagePixels(input: Pick<ExtractInput, 'bytes' | 'ocr'>): void {
  const { bytes } = input;
  if (!(bytes instanceof Uint8Array) || input.ocr?.enabled === false) return;
  const format = sniffBinary(bytes);
  if (!format || !IMAGE_FORMATS.has(format)) return;
  const limit = Math.max(1, input.ocr?.maxImagePixels ?? DEFAULT_OCR.maxImagePixels);
  let size: { width: number; height: number };
  try {
    size = imageSize(bytes, format as ImageFormat);
  } catch {
    return;
  }
  if (size.width * size.height > limit) throw overPixelLimit('the image', size.width, size.height, limit);
}
