import { OCR_LANGUAGES, SUPPORTED_MEDIA_TYPES } from '@vela/extraction';
import { type ApiRouter, addressKey, answers, type Request, type Response } from 'vela/plugin';
import type { OcrService } from '../recognition/ocr-service.js';
import { readUpload } from '../upload/multipart.js';

const tags = ['ocr'];

const attributesSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'the file name (for a URL, its last path segment)' },
    contentType: { type: 'string', description: 'the media type that was read' },
    size: { type: 'integer', description: 'bytes' },
    text: { type: 'string', description: 'the extracted or recognized text' },
    metadata: {
      type: 'object',
      properties: {
        pages: { type: ['integer', 'null'] },
        language: {
          type: ['string', 'null'],
          description: "the document's declared language, else the OCR languages (eng+por)",
        },
        title: { type: ['string', 'null'] },
        author: { type: ['string', 'null'] },
        created: { type: ['string', 'null'], format: 'date-time' },
        modified: { type: ['string', 'null'], format: 'date-time' },
      },
    },
  },
};

const languageQuery = {
  type: 'object',
  properties: {
    language: {
      type: 'string',
      maxLength: 100,
      description: `OCR languages joined with + (${OCR_LANGUAGES.join(', ')}); default plugins.ocr.languages`,
    },
  },
};

const description = `Images (PNG, JPEG, TIFF, WebP) are recognized with tesseract; PDFs are read from their text layer, and pages without one are rendered and recognized; DOCX, XLSX, HTML, Markdown and plain text are read as text. Media types: ${SUPPORTED_MEDIA_TYPES.join(', ')}. Errors: 400, 403 (URL refused by the outbound guard), 408 (an upload too slow), 429 with Retry-After (too many uploads or fetches at once from one client address), 413 (too large), 415 (unsupported type), 422 (corrupt, encrypted, or over the time limit), 502 (the URL did not answer a document), 503 with Retry-After (the OCR queue is full, or the document waited too long for a worker thread).`;

/** The refusals both routes answer, besides the runtime's own (see the description). */
const refusals = {
  400: { description: 'the request is not valid (no file part, an unknown language)' },
  408: { description: 'the upload was too slow' },
  429: {
    description: 'this client address already has plugins.ocr.maxTransfersPerClient documents arriving (Retry-After)',
  },
  413: { description: 'the document is larger than plugins.ocr.maxBytes' },
  415: { description: 'a media type the service cannot read' },
  422: { description: 'the document is corrupt or encrypted, or took longer than the time limit' },
  503: { description: 'the OCR queue is full, or the document waited too long for a worker thread (Retry-After)' },
};

/**
 * POST /api/ocr/file (multipart, part `file`) and POST /api/ocr/url (`{"url"}`): public, as the specification lists
 * them.
 */
export function mountOcrRoutes(router: ApiRouter, ocr: OcrService): void {
  // Both take a ?language and answer a document's attributes, or one of the refusals.
  const recognition = router.withDefaults({ access: 'public', tags, description, query: languageQuery });
  recognition.post(
    '/api/ocr/file',
    {
      summary: 'Text and attributes of an uploaded document or image (OCR)',
      rawBody: true,
      validate: false,
      bodyContentTypes: ['multipart/form-data'],
      body: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary' }, language: { type: 'string' } },
      },
      responses: answers('the file attributes', attributesSchema, refusals),
    },
    async (req: Request, res: Response) => {
      let release = () => {};
      try {
        const languages = ocr.languagesOf(queryLanguage(req));
        const { maxBytes, uploadIdleMs, uploadTimeoutMs, uploadMinBytesPerSecond, uploadRateWindowMs } = ocr.config;
        const upload = await ocr.transfer(clientOf(req), () =>
          readUpload(req, {
            maxBytes,
            idleMs: uploadIdleMs,
            totalMs: uploadTimeoutMs,
            minBytesPerSecond: uploadMinBytesPerSecond,
            rateWindowMs: uploadRateWindowMs,
          }),
        );
        const chosen = upload.fields.language ? ocr.languagesOf(upload.fields.language) : languages;
        release = ocr.admit();
        res.json(
          await ocr.recognize({ bytes: upload.bytes, name: upload.fileName, contentType: upload.contentType }, chosen),
        );
      } catch (error) {
        closeAfterRefusal(req, res);
        throw error;
      } finally {
        release();
      }
    },
  );
  recognition.post(
    '/api/ocr/url',
    {
      summary: 'Text and attributes of a document fetched from a URL (OCR), through the outbound guard',
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: {
          url: {
            type: 'string',
            minLength: 1,
            maxLength: 2048,
            description: 'an http or https URL; internal addresses are refused',
          },
          language: { type: 'string', maxLength: 100 },
        },
      },
      responses: answers('the file attributes', attributesSchema, {
        ...refusals,
        403: { description: 'the outbound guard refused the URL (an internal address)' },
        502: { description: 'the URL did not answer a document' },
      }),
    },
    async (req: Request, res: Response) => {
      const { url, language } = req.body as { url: string; language?: string };
      const languages = ocr.languagesOf(language ?? queryLanguage(req));
      const document = await ocr.transfer(clientOf(req), () => ocr.fetchDocument(url));
      const release = ocr.admit();
      try {
        res.json(await ocr.recognize(document, languages));
      } finally {
        release();
      }
    },
  );
}

function queryLanguage(req: Request): string | undefined {
  const value = req.query.language;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The client a per-client limit counts by: the address the runtime's proxy settings give, else the socket's
 * peer; an IPv6 address by its /64, which one subscriber usually holds whole.
 */
function clientOf(req: Request): string {
  return addressKey(req.ip ?? req.socket.remoteAddress);
}

// Past this many unread bytes after a refusal, the connection is cut rather than drained.
const MAX_DRAIN = 64 * 1024 * 1024;

/**
 * A refusal before the upload was read whole: the answer goes out at once with Connection: close, and the
 * rest of the body is read and dropped (so the client, still sending, receives the answer), up to a bound.
 */
function closeAfterRefusal(req: Request, res: Response): void {
  if (req.readableEnded || req.complete) return;
  res.setHeader('Connection', 'close');
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN) req.socket.destroy();
  });
  req.resume();
}
