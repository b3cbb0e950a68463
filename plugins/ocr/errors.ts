import { VelaError } from 'vela/plugin';

/** Every error the OCR endpoints answer with, in the one JSON shape. */
export const ocrErrors = {
  notMultipart: (given: string) =>
    new VelaError(
      'unsupported_media_type',
      `POST /api/ocr/file takes multipart/form-data with the document in the part "file", not ${given}`,
      415,
    ),
  badMultipart: (reason: string) => new VelaError('bad_request', `the multipart body cannot be read: ${reason}`, 400),
  missingFile: (field: string) =>
    new VelaError('missing_file', `the multipart body has no file part named "${field}"`, 400),
  aborted: () => new VelaError('request_aborted', 'the client aborted the upload', 400),
  tooLarge: (maxBytes: number) =>
    new VelaError(
      'payload_too_large',
      `the document is larger than the OCR limit of ${maxBytes} bytes (plugins.ocr.maxBytes)`,
      413,
    ),
  tooLargeContent: (message: string) => new VelaError('payload_too_large', message, 413),
  unsupported: (message: string) => new VelaError('unsupported_media_type', message, 415),
  corrupt: (message: string) => new VelaError('unprocessable_document', message, 422),
  encrypted: (message: string) => new VelaError('encrypted_document', message, 422),
  timeout: (ms: number) =>
    new VelaError(
      'extraction_timeout',
      `the document took longer than the OCR time limit of ${ms} ms (plugins.ocr.timeoutMs)`,
      422,
    ),
  badLanguage: (given: string, known: readonly string[]) =>
    new VelaError(
      'invalid_parameter',
      `language "${given}" has no OCR data; use one or more of ${known.join(', ')}, joined with +`,
      400,
    ),
  busy: (pending: number, retryAfterSeconds: number) =>
    new VelaError(
      'ocr_busy',
      `the OCR queue is full (${pending} documents in progress, plugins.ocr.maxPending); try again in ${retryAfterSeconds} s`,
      503,
    ).withHeaders({ 'Retry-After': String(retryAfterSeconds) }),
  queueTimeout: (waitedMs: number, retryAfterSeconds: number) =>
    new VelaError(
      'ocr_busy',
      `the document waited ${waitedMs} ms for a worker thread without starting (plugins.ocr.queueTimeoutMs); try again in ${retryAfterSeconds} s`,
      503,
    ).withHeaders({ 'Retry-After': String(retryAfterSeconds) }),
  uploadIdle: (ms: number) =>
    new VelaError('request_timeout', `the upload sent nothing for ${ms} ms (plugins.ocr.uploadIdleMs)`, 408),
  uploadTooSlow: (ms: number) =>
    new VelaError('request_timeout', `the upload took longer than ${ms} ms (plugins.ocr.uploadTimeoutMs)`, 408),
  uploadBelowRate: (bytesPerSecond: number, windowMs: number) =>
    new VelaError(
      'request_timeout',
      `the upload brought less than ${bytesPerSecond} bytes a second over ${windowMs} ms (plugins.ocr.uploadMinBytesPerSecond)`,
      408,
    ),
  tooManyTransfers: (limit: number, retryAfterSeconds: number) =>
    new VelaError(
      'too_many_requests',
      `this client address already has ${limit} documents being uploaded or fetched (plugins.ocr.maxTransfersPerClient); try again in ${retryAfterSeconds} s`,
      429,
    ).withHeaders({ 'Retry-After': String(retryAfterSeconds) }),
  badUrl: (problem: string) => new VelaError('invalid_parameter', `body.url ${problem}`, 400),
  badRedirect: (url: string) =>
    new VelaError('upstream_error', `${url} redirected to a Location that is not a URL`, 502),
  urlStatus: (url: string, status: number) =>
    new VelaError('upstream_error', `${url} answered HTTP ${status}, not a document`, 502),
  tooManyRedirects: (url: string, max: number) =>
    new VelaError('upstream_error', `${url} redirected more than ${max} times`, 502),
} as const;
