import { readFileSync } from 'node:fs';
import test from 'ava';
import { ExtractionError, extractContent } from '../src/extract.js';
import { makeDocx, makePdf } from './fixtures/documents.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

test('HTML gives title, meta description, keywords, author, language and canonical URL', async (t) => {
  const content = await extractContent({
    bytes: fixture('article.html'),
    contentType: 'text/html; charset=utf-8',
    url: 'https://example.org/docs/tidal.html',
  });
  t.is(content.contentType, 'text/html');
  t.is(content.title, 'Tidal Energy Basics');
  t.deepEqual(content.metadata, {
    description: 'How tides turn turbines.',
    keywords: ['tides', 'turbines', 'energy'],
    author: 'Ada Lovelace',
    language: 'en-GB',
    canonical: 'https://example.org/docs/tidal-energy',
  });
});

test('HTML text keeps visible content, one line per block, without script, style, nav, hidden or noscript text', async (t) => {
  const { text } = await extractContent({ bytes: fixture('article.html'), fileName: 'article.html' });
  t.is(
    text,
    [
      'Tidal energy',
      'Tides move enormous volumes of water.',
      'Turbines & barrages capture it.',
      'Read about turbines, elsewhere, mail and nothing.',
    ].join('\n'),
  );
  for (const noise of ['script text', 'Menu link text', 'Hidden paragraph', 'Enable scripts', 'display: none'])
    t.false(text.includes(noise), noise);
});

test('HTML links are resolved against <base href>, and mailto and javascript links are dropped', async (t) => {
  const { links } = await extractContent({
    bytes: fixture('article.html'),
    url: 'https://example.org/other/place.html',
  });
  t.deepEqual(links, [
    'https://example.org/',
    'https://example.org/docs/menu.html',
    'https://example.org/docs/turbines.html#blades',
    'https://other.example.com/x',
  ]);
});

test('HTML links resolve against the page URL without <base>, and stay as written without a URL', async (t) => {
  const html = Buffer.from(
    '<html><body><a href="b/c.html">x</a><a href="/d">y</a><a href="b/c.html">again</a></body></html>',
  );
  t.deepEqual(
    (await extractContent({ bytes: html, contentType: 'text/html', url: 'http://127.0.0.1:8080/a/index.html' })).links,
    ['http://127.0.0.1:8080/a/b/c.html', 'http://127.0.0.1:8080/d'],
  );
  t.deepEqual((await extractContent({ bytes: html, contentType: 'text/html' })).links, ['b/c.html', '/d']);
});

test('HTML in a legacy charset is decoded from <meta charset> or the Content-Type parameter', async (t) => {
  const latin1 = Buffer.concat([
    Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf'),
    Buffer.from([0xe9]),
    Buffer.from('</title></head><body>na'),
    Buffer.from([0xef]),
    Buffer.from('ve</body></html>'),
  ]);
  const fromMeta = await extractContent({ bytes: latin1, contentType: 'text/html' });
  t.is(fromMeta.title, 'Café');
  t.is(fromMeta.text, 'naïve');
  const noMeta = Buffer.concat([Buffer.from('<p>caf'), Buffer.from([0xe9]), Buffer.from('</p>')]);
  t.is((await extractContent({ bytes: noMeta, contentType: 'text/html; charset=ISO-8859-1' })).text, 'café');
});

test('Markdown gives the first heading as title and text without markup', async (t) => {
  const content = await extractContent({ bytes: fixture('guide.md'), fileName: 'guide.md' });
  t.is(content.contentType, 'text/markdown');
  t.is(content.title, 'Getting started with vela');
  t.is(
    content.text,
    [
      'Some intro line before any heading.',
      'Getting started with vela',
      'Install it with npm and run one command.',
      'Steps',
      'Clone the repository',
      'Run npm start',
      'Quoted advice stays as text.',
      'echo "code stays too"',
      'diagram of the flow',
      'column a column b',
      'cell one cell two',
    ].join('\n'),
  );
});

test('Markdown front matter gives title, description and keywords, and is not text', async (t) => {
  const md = Buffer.from(
    '---\ntitle: "Release notes"\ndescription: What changed\ntags: [alpha, beta]\n---\nSetext heading\n==============\n\nBody __bold__ text.\n',
  );
  const content = await extractContent({ bytes: md, contentType: 'text/markdown' });
  t.is(content.title, 'Release notes');
  t.deepEqual(content.metadata, { description: 'What changed', keywords: ['alpha', 'beta'] });
  t.is(content.text, 'Setext heading\nBody bold text.');
  t.is(
    (await extractContent({ bytes: Buffer.from('Setext heading\n===\n\nbody'), fileName: 'x.markdown' })).title,
    'Setext heading',
  );
});

test('plain text is normalized: spaces collapsed, blank lines dropped, a byte-order mark removed', async (t) => {
  const content = await extractContent({ bytes: fixture('notes.txt'), fileName: 'notes.txt' });
  t.deepEqual(content, {
    text: 'Plain notes\nsecond line with spaces\nlast line',
    contentType: 'text/plain',
    metadata: {},
  });
  t.is((await extractContent({ bytes: Buffer.from('\uFEFFbom text'), contentType: 'text/plain' })).text, 'bom text');
});

test('PDF text comes from the text layer of every page, with title, author, subject and page count', async (t) => {
  const pdf = await makePdf({
    title: 'Annual report',
    author: 'Grace Hopper',
    subject: 'Numbers of the year',
    pages: [['Revenue grew steadily', 'across all regions'], ['Outlook remains positive']],
  });
  const content = await extractContent({ bytes: pdf, fileName: 'report.pdf' });
  t.is(content.contentType, 'application/pdf');
  t.is(content.title, 'Annual report');
  t.is(content.text, 'Revenue grew steadily\nacross all regions\nOutlook remains positive');
  t.is(content.metadata.author, 'Grace Hopper');
  t.is(content.metadata.description, 'Numbers of the year');
  t.is(content.metadata.pageCount, 2);
  t.regex(String(content.metadata.creationDate), /^\d{4}-\d\d-\d\dT/);
  t.is(pdf.byteLength > 0 && pdf[0], 0x25, 'the input is left usable (pdfjs got a copy)');
});

test('DOCX text comes through mammoth, with the first heading as title', async (t) => {
  const docx = await makeDocx({
    heading: 'Meeting minutes',
    paragraphs: ['Attendees agreed on the plan.', 'Next meeting on Monday.'],
  });
  const content = await extractContent({ bytes: docx, contentType: DOCX_TYPE });
  t.deepEqual(content, {
    title: 'Meeting minutes',
    text: 'Meeting minutes\nAttendees agreed on the plan.\nNext meeting on Monday.',
    contentType: DOCX_TYPE,
    metadata: {},
  });
});

test('the format is detected from the content type first, then the extension, then the magic bytes', async (t) => {
  const pdf = await makePdf({ pages: [['sniffed pdf']] });
  const docx = await makeDocx({ heading: 'Sniffed docx', paragraphs: [] });
  t.is((await extractContent({ bytes: pdf })).contentType, 'application/pdf', 'PDF by magic bytes');
  t.is(
    (await extractContent({ bytes: pdf, contentType: 'application/octet-stream', fileName: 'blob' })).text,
    'sniffed pdf',
    'a generic type falls through',
  );
  t.is(
    (await extractContent({ bytes: docx, fileName: 'download' })).title,
    'Sniffed docx',
    'DOCX by the zip part names',
  );
  t.is(
    (await extractContent({ bytes: Buffer.from('  <!DOCTYPE html><title>T</title>') })).contentType,
    'text/html',
    'HTML by its doctype',
  );
  t.is(
    (await extractContent({ bytes: Buffer.from('# Heading'), fileName: 'x.md', contentType: 'text/plain' }))
      .contentType,
    'text/plain',
    'the content type wins over the extension',
  );
  t.is(
    (await extractContent({ bytes: Buffer.from('# Heading'), fileName: 'x.md' })).title,
    'Heading',
    'the extension wins over sniffing',
  );
});

test('corrupt PDF and DOCX input is refused with corrupt_content', async (t) => {
  const pdf = await makePdf({ pages: [['some text']] });
  const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]);
  const pdfError = await t.throwsAsync(extractContent({ bytes: broken }), { instanceOf: ExtractionError });
  t.is(pdfError?.code, 'corrupt_content');
  t.regex(pdfError!.message, /PDF cannot be read/);
  const truncated = pdf.subarray(0, 40);
  t.is(
    (await t.throwsAsync(extractContent({ bytes: truncated, fileName: 'cut.pdf' }), { instanceOf: ExtractionError }))
      ?.code,
    'corrupt_content',
  );
  const docxError = await t.throwsAsync(
    extractContent({ bytes: Buffer.from('not a zip at all'), fileName: 'letter.docx' }),
    { instanceOf: ExtractionError },
  );
  t.is(docxError?.code, 'corrupt_content');
  t.regex(docxError!.message, /DOCX file cannot be read/);
});

test('unsupported input is refused with unsupported_type, naming what was given', async (t) => {
  const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');
  const byType = await t.throwsAsync(extractContent({ bytes: gif, contentType: 'image/gif', fileName: 'logo.gif' }), {
    instanceOf: ExtractionError,
  });
  t.is(byType?.code, 'unsupported_type');
  t.regex(byType!.message, /content type image\/gif, file "logo\.gif"/);
  t.is(
    (await t.throwsAsync(extractContent({ bytes: gif }), { instanceOf: ExtractionError }))?.code,
    'unsupported_type',
  );
  const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.from('content.xml other zip')]);
  t.is(
    (await t.throwsAsync(extractContent({ bytes: zip }), { instanceOf: ExtractionError }))?.code,
    'unsupported_type',
    'a zip that is not DOCX',
  );
});

test('input over the caller size limit is refused with too_large before any parsing', async (t) => {
  const error = await t.throwsAsync(
    extractContent({ bytes: Buffer.alloc(2048, 0x61), contentType: 'text/plain', maxBytes: 1024 }),
    {
      instanceOf: ExtractionError,
    },
  );
  t.is(error?.code, 'too_large');
  t.regex(error!.message, /2048 bytes, over the limit of 1024 bytes/);
  t.is(
    (await extractContent({ bytes: Buffer.alloc(1024, 0x61), contentType: 'text/plain', maxBytes: 1024 })).text.length,
    1024,
  );
});

test('Markdown with pathological emphasis and unclosed fences is stripped in linear time', async (t) => {
  const longLine = '**a '.repeat(50_000);
  const fences = `~~~\n${'```\n# inside a fence that never closes\n'.repeat(2_000)}`;
  const content = await extractContent({
    bytes: Buffer.from(`${longLine}\n\n${fences}`),
    contentType: 'text/markdown',
  });
  t.true(content.text.startsWith('a a a'));
  t.is(content.title, undefined, 'a # inside a code fence is no heading');
});

test('a PDF that takes longer than the caller time limit is abandoned with timeout', async (t) => {
  const pdf = await makePdf({ pages: Array.from({ length: 300 }, (_, i) => [`page number ${i}`]) });
  const error = await t.throwsAsync(extractContent({ bytes: pdf, timeoutMs: 1 }), { instanceOf: ExtractionError });
  t.is(error?.code, 'timeout');
  t.is(
    (await extractContent({ bytes: pdf })).metadata.pageCount,
    300,
    'the same file with the default limit is read in full',
  );
});
