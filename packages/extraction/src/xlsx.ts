import { normalizeText } from './decode-text.js';
import { ExtractionError } from './extraction-error.js';
import { type ExtractedContent, MEDIA_TYPES } from './types.js';
import { checkZipBounds } from './zip-bounds.js';

// Text past this many characters is cut: a spreadsheet of a million rows is no document to index whole.
const MAX_TEXT = 5_000_000;

/**
 * The cells of every sheet (a line per row, the sheet's name first), and title, author and dates from its properties,
 * with exceljs.
 */
export async function extractXlsx(bytes: Uint8Array): Promise<ExtractedContent> {
  checkZipBounds(bytes, 'XLSX');
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  // A new workbook is dated now; a file without dates must not report them.
  Object.assign(workbook, { created: undefined, modified: undefined });
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (error) {
    throw new ExtractionError('corrupt_content', `the XLSX file cannot be read: ${(error as Error).message}`);
  }
  const lines: string[] = [];
  let length = 0;
  const push = (line: string) => {
    if (length >= MAX_TEXT) return;
    lines.push(line);
    length += line.length + 1;
  };
  workbook.eachSheet((sheet) => {
    push(sheet.name);
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell((cell) => {
        const text = cell.text;
        if (text) cells.push(text);
      });
      if (cells.length) push(cells.join(' '));
    });
  });
  const metadata: Record<string, unknown> = { sheetCount: workbook.worksheets.length };
  if (workbook.creator) metadata.author = workbook.creator;
  if (workbook.subject) metadata.description = workbook.subject;
  if (workbook.keywords)
    metadata.keywords = workbook.keywords
      .split(/[,;]/)
      .map((k) => k.trim())
      .filter(Boolean);
  const created = isoDate(workbook.created);
  if (created) metadata.creationDate = created;
  const modified = isoDate(workbook.modified);
  if (modified) metadata.modificationDate = modified;
  const title = workbook.title?.trim();
  return {
    ...(title ? { title } : {}),
    text: normalizeText(lines.join('\n')).slice(0, MAX_TEXT),
    contentType: MEDIA_TYPES.xlsx,
    metadata,
  };
}

function isoDate(value: unknown): string | undefined {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
}
