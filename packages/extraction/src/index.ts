// @vela/extraction: text and metadata of documents and images, shared by the search plugin (its OCR API)
// and the connector (its filesystem and web sources). Both run it on the runtime's worker pool through the
// task module EXTRACT_TASK_FILE; this entry stays light (the format readers load on first use).
import type { ExtractedContent, ExtractInput } from './types.js';

export { mediaTypeOf, SUPPORTED_EXTENSIONS, SUPPORTED_MEDIA_TYPES } from './detect-format.js';
export { ExtractionError, type ExtractionErrorCode } from './extraction-error.js';
export { isOcrLanguage, OCR_LANGUAGES, type OcrLanguage } from './ocr/languages.js';
export { checkImagePixels } from './pixel-limit.js';
export {
  createPooledExtract,
  EXTRACT_TASK_FILE,
  type ExtractTaskRunner,
  type PooledExtract,
} from './pooled-extract.js';
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_OCR,
  DEFAULT_TIMEOUT_MS,
  type ExtractedContent,
  type ExtractInput,
  MEDIA_TYPES,
  type OcrOptions,
} from './types.js';

/** Extraction in the calling thread (tests, scripts); servers use the pool (createPooledExtract). */
export async function extractContent(input: ExtractInput): Promise<ExtractedContent> {
  const { extractContent: extract } = await import('./extract.js');
  return extract(input);
}
