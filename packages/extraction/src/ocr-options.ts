import { ExtractionError } from './extraction-error.js';
import { isOcrLanguage, OCR_LANGUAGES, type OcrLanguage } from './ocr/languages.js';
import { DEFAULT_OCR, type OcrOptions } from './types.js';

/** OcrOptions with every default filled and the languages checked. */
export interface ResolvedOcr {
  enabled: boolean;
  languages: OcrLanguage[];
  pdfDpi: number;
  maxPdfPages: number;
  maxImagePixels: number;
}

export function resolveOcr(options: OcrOptions | undefined): ResolvedOcr {
  const languages = [...(options?.languages?.length ? options.languages : DEFAULT_OCR.languages)];
  for (const code of languages) {
    if (!isOcrLanguage(code)) {
      throw new ExtractionError(
        'unsupported_type',
        `there is no OCR data for the language "${code}" (available: ${OCR_LANGUAGES.join(', ')})`,
      );
    }
  }
  return {
    enabled: options?.enabled ?? DEFAULT_OCR.enabled,
    languages: [...new Set(languages)] as OcrLanguage[],
    pdfDpi: Math.min(600, Math.max(50, options?.pdfDpi ?? DEFAULT_OCR.pdfDpi)),
    maxPdfPages: Math.max(0, options?.maxPdfPages ?? DEFAULT_OCR.maxPdfPages),
    maxImagePixels: Math.max(1, options?.maxImagePixels ?? DEFAULT_OCR.maxImagePixels),
  };
}
