import { normalizeText } from './decode-text.js';
import { ExtractionError } from './extraction-error.js';
import { imageSize } from './image-info.js';
import { recognize } from './ocr/tesseract.js';
import type { ResolvedOcr } from './ocr-options.js';
import { overPixelLimit } from './pixel-limit.js';
import { type ExtractedContent, type ImageFormat, MEDIA_TYPES } from './types.js';

/** Text of a PNG, JPEG, TIFF (its first page) or WebP image, recognized with tesseract on this thread's warm worker. */
export async function extractImage(
  bytes: Uint8Array,
  format: ImageFormat,
  ocr: ResolvedOcr,
  deadline: number,
): Promise<ExtractedContent> {
  if (!ocr.enabled)
    throw new ExtractionError(
      'unsupported_type',
      `${MEDIA_TYPES[format]} images are read by OCR, which is turned off here`,
    );
  const { width, height } = imageSize(bytes, format);
  if (width * height > ocr.maxImagePixels) throw overPixelLimit('the image', width, height, ocr.maxImagePixels);
  const { text, confidence } = await recognize(bytes, ocr.languages, deadline, width * height);
  const language = ocr.languages.join('+');
  return {
    text: normalizeText(text),
    contentType: MEDIA_TYPES[format],
    metadata: { width, height, language, ocrLanguages: language, ocrPages: 1, ocrConfidence: confidence },
  };
}
