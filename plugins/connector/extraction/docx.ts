import * as cheerio from 'cheerio';
import mammoth from 'mammoth';
import { ExtractionError } from './extraction-error.js';
import { blockText } from './html-text.js';
import { normalizeText } from './decode-text.js';
import { MEDIA_TYPES, type ExtractedContent } from './types.js';

/** Text of a Word document through mammoth's HTML (which keeps paragraphs apart), title from its first heading. */
export async function extractDocx(bytes: Uint8Array): Promise<ExtractedContent> {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }));
  } catch (error) {
    throw new ExtractionError('corrupt_content', `the DOCX file cannot be read: ${(error as Error).message}`);
  }
  const $ = cheerio.load(html);
  const title = $('h1').first().text().replace(/\s+/g, ' ').trim() || undefined;
  return { ...(title ? { title } : {}), text: normalizeText(blockText($.root().toArray())), contentType: MEDIA_TYPES.docx, metadata: {} };
}
