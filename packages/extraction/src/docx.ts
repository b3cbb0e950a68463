import { normalizeText } from './decode-text.js';
import { ExtractionError } from './extraction-error.js';
import { blockText } from './html-text.js';
import { type ExtractedContent, MEDIA_TYPES } from './types.js';
import { checkZipBounds } from './zip-bounds.js';

/**
 * Text of a Word document through mammoth's HTML (which keeps paragraphs apart), title from its first heading.
 * Embedded images are neither read nor decoded.
 */
export async function extractDocx(bytes: Uint8Array): Promise<ExtractedContent> {
  checkZipBounds(bytes, 'DOCX');
  const [{ default: mammoth }, cheerio] = await Promise.all([import('mammoth'), import('cheerio')]);
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // Only the text is kept: an embedded image is never read (mammoth's default inlines each as a data URI,
      // hundreds of megabytes of base64 for a large one), so its size costs nothing.
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    ));
  } catch (error) {
    throw new ExtractionError('corrupt_content', `the DOCX file cannot be read: ${(error as Error).message}`);
  }
  const $ = cheerio.load(html);
  const title = $('h1').first().text().replace(/\s+/g, ' ').trim() || undefined;
  return {
    ...(title ? { title } : {}),
    text: normalizeText(blockText($.root().toArray())),
    contentType: MEDIA_TYPES.docx,
    metadata: {},
  };
}
