import test from 'ava';
import { ExtractionError, extractContent } from '../src/extract.js';
import { endWarmWorkers } from '../src/ocr/tesseract.js';
import {
  characterAccuracy,
  makePdf,
  makeScannedPdf,
  makeXlsx,
  type RenderFormat,
  renderText,
} from './fixtures/documents.js';

// The images are drawn here with known text, so what OCR reads is measured, not just that it read something.
const LINES = ['Invoice 2024-117 for Ada Lovelace', 'Total due: 1,250.00 EUR by March 31'];
const EXPECTED = LINES.join('\n');

test.after.always(() => endWarmWorkers());

for (const format of ['png', 'jpeg', 'webp', 'tiff'] as RenderFormat[]) {
  test(`a ${format.toUpperCase()} image is recognized with tesseract, its text at least 95% right`, async (t) => {
    const image = await renderText(LINES, format);
    const content = await extractContent({
      bytes: image,
      fileName: `scan.${format === 'jpeg' ? 'jpg' : format === 'tiff' ? 'tif' : format}`,
    });
    t.is(content.contentType, `image/${format}`);
    const accuracy = characterAccuracy(EXPECTED, content.text);
    t.true(accuracy >= 0.95, `accuracy ${accuracy.toFixed(3)}: ${JSON.stringify(content.text)}`);
    t.is(content.metadata.width, 1000);
    t.is(content.metadata.language, 'eng');
    t.is(content.metadata.ocrPages, 1);
    t.true(Number(content.metadata.ocrConfidence) > 60, String(content.metadata.ocrConfidence));
  });
}

test('Portuguese text is read with the por language data, accents included', async (t) => {
  const lines = ['Ação rápida não é só informação', 'Relatório anual de São Paulo'];
  const image = await renderText(lines, 'png');
  const content = await extractContent({ bytes: image, ocr: { languages: ['por'] } });
  const accuracy = characterAccuracy(lines.join('\n'), content.text);
  t.true(accuracy >= 0.9, `accuracy ${accuracy.toFixed(3)}: ${JSON.stringify(content.text)}`);
  t.is(content.metadata.language, 'por');
});

test('a PDF without a text layer (a scan) is rendered and recognized page by page; a PDF with one is read from it, without OCR', async (t) => {
  const scanned = await makeScannedPdf([LINES, ['Second page of the scan']]);
  const content = await extractContent({ bytes: scanned, fileName: 'scan.pdf' });
  t.is(content.contentType, 'application/pdf');
  t.is(content.metadata.pageCount, 2);
  t.is(content.metadata.ocrPages, 2);
  const accuracy = characterAccuracy(`${EXPECTED}\nSecond page of the scan`, content.text);
  t.true(accuracy >= 0.95, `accuracy ${accuracy.toFixed(3)}: ${JSON.stringify(content.text)}`);

  const mixed = await makeScannedPdf([['Scanned appendix page']], {
    textLayerPages: [['A typed first page with its own text layer']],
  });
  const both = await extractContent({ bytes: mixed });
  t.is(both.metadata.ocrPages, 1, 'only the page without text is recognized');
  t.true(both.text.startsWith('A typed first page with its own text layer\n'), both.text);
  t.true(characterAccuracy('Scanned appendix page', both.text.split('\n').slice(1).join(' ')) >= 0.9, both.text);

  const typed = await extractContent({ bytes: await makePdf({ pages: [['Only typed text here']] }) });
  t.is(typed.text, 'Only typed text here');
  t.is(typed.metadata.ocrPages, undefined, 'no OCR for a page with a text layer');
  const off = await extractContent({ bytes: scanned, ocr: { enabled: false } });
  t.is(off.text, '', 'with OCR off, a scan has no text');
});

test('XLSX gives the cells of every sheet, a line per row, with title, author and dates', async (t) => {
  const xlsx = await makeXlsx({
    title: 'Quarterly figures',
    creator: 'Grace Hopper',
    sheets: {
      Revenue: [
        ['Region', 'Q1', 'Q2'],
        ['North', 120, 140],
        ['South', 90, 95],
      ],
      Notes: [['Figures are in thousands']],
    },
  });
  const content = await extractContent({ bytes: xlsx, fileName: 'figures.xlsx' });
  t.is(content.contentType, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.is(content.title, 'Quarterly figures');
  t.is(content.text, 'Revenue\nRegion Q1 Q2\nNorth 120 140\nSouth 90 95\nNotes\nFigures are in thousands');
  t.is(content.metadata.author, 'Grace Hopper');
  t.is(content.metadata.sheetCount, 2);
  t.is(content.metadata.creationDate, '2024-03-01T10:00:00.000Z');
  t.is(content.metadata.modificationDate, '2024-03-02T11:30:00.000Z');
  t.is(
    (await extractContent({ bytes: xlsx, contentType: 'application/octet-stream' })).title,
    'Quarterly figures',
    'XLSX by the zip part names',
  );
});

/** A zip with one stored entry whose directory claims `size` bytes: what a zip bomb looks like before inflating. */
function zipClaiming(name: string, size: number): Uint8Array {
  const file = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt32LE(0, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(file.length, 28);
  const directoryAt = local.length + file.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(directoryAt, 16);
  return new Uint8Array(Buffer.concat([local, file, central, file, end]));
}

test('an Office file that would unpack to more than 512 MiB is refused as too large before anything is inflated', async (t) => {
  for (const [name, kind] of [
    ['word/document.xml', 'DOCX'],
    ['xl/workbook.xml', 'XLSX'],
  ]) {
    const error = await t.throwsAsync(extractContent({ bytes: zipClaiming(name!, 0x30000000) }), {
      instanceOf: ExtractionError,
    });
    t.is(error?.code, 'too_large', kind);
    t.regex(error!.message, new RegExp(`the ${kind} file unpacks to more than`));
  }
});

test('images: a cut header is corrupt, a header claiming too many pixels is too large, and both are refused before any decoding', async (t) => {
  const png = await renderText(['short'], 'png');
  const cut = await t.throwsAsync(extractContent({ bytes: png.subarray(0, 20) }), { instanceOf: ExtractionError });
  t.is(cut?.code, 'corrupt_content');
  const huge = new Uint8Array(png);
  new DataView(huge.buffer).setUint32(16, 100_000);
  new DataView(huge.buffer).setUint32(20, 100_000);
  const tooLarge = await t.throwsAsync(extractContent({ bytes: huge }), { instanceOf: ExtractionError });
  t.is(tooLarge?.code, 'too_large');
  t.regex(tooLarge!.message, /100000 × 100000 pixels \(10000000000\), over the limit of 25000000 pixels/);
  const garbage = Buffer.concat([Buffer.from(png.subarray(0, 33)), Buffer.alloc(200, 7)]);
  t.is(
    (await t.throwsAsync(extractContent({ bytes: garbage }), { instanceOf: ExtractionError }))?.code,
    'corrupt_content',
    'a damaged body',
  );
});

test('OCR turned off refuses images as unsupported; a language without data is refused', async (t) => {
  const png = await renderText(['x'], 'png');
  t.is(
    (await t.throwsAsync(extractContent({ bytes: png, ocr: { enabled: false } }), { instanceOf: ExtractionError }))
      ?.code,
    'unsupported_type',
  );
  const unknown = await t.throwsAsync(extractContent({ bytes: png, ocr: { languages: ['xyz'] } }), {
    instanceOf: ExtractionError,
  });
  t.is(unknown?.code, 'unsupported_type');
  t.regex(unknown!.message, /no OCR data for the language "xyz" \(available: eng, por\)/);
});
