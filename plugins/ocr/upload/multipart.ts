import type { IncomingMessage } from 'node:http';
import { Busboy } from '@fastify/busboy';
import { ocrErrors } from '../errors.js';

export interface UploadedFile {
  bytes: Buffer;
  fileName: string;
  contentType: string | undefined;
  /** Text fields sent beside the file (language). */
  fields: Record<string, string>;
}

export interface UploadLimits {
  maxBytes: number;
  /** Longest time without a byte of the body (408). */
  idleMs: number;
  /** Longest time for the whole body (408). */
  totalMs: number;
  /** Fewest bytes a second the body must bring, averaged over each `rateWindowMs` (408 below it). */
  minBytesPerSecond: number;
  rateWindowMs: number;
}

/**
 * The one file of a multipart/form-data request (part `file`), read with busboy as it streams in and
 * refused as soon as it passes `maxBytes` (413): a large upload is never held whole. A slow one is refused
 * too (408): one that stops, one that brings less than `minBytesPerSecond` over a window (a byte now and then
 * would otherwise hold a socket and its buffer for `totalMs`), and one that takes longer than `totalMs`. Other
 * file parts are skipped; a few short text fields are kept.
 */
export function readUpload(req: IncomingMessage, limits: UploadLimits, field = 'file'): Promise<UploadedFile> {
  const { maxBytes } = limits;
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    return Promise.reject(ocrErrors.notMultipart(type.split(';')[0]?.trim() || 'none'));
  }
  return new Promise((resolve, reject) => {
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: req.headers as never,
        limits: { fileSize: maxBytes, files: 4, fields: 8, fieldSize: 1024, parts: 12, headerPairs: 20 },
      });
    } catch (error) {
      reject(ocrErrors.badMultipart((error as Error).message));
      return;
    }
    let settled = false;
    const idle = setTimeout(() => fail(ocrErrors.uploadIdle(limits.idleMs)), limits.idleMs);
    const total = setTimeout(() => fail(ocrErrors.uploadTooSlow(limits.totalMs)), limits.totalMs);
    let windowBytes = 0;
    const rate = setInterval(() => {
      if (windowBytes < (limits.minBytesPerSecond * limits.rateWindowMs) / 1000) {
        fail(ocrErrors.uploadBelowRate(limits.minBytesPerSecond, limits.rateWindowMs));
      }
      windowBytes = 0;
    }, limits.rateWindowMs);
    const stopTimers = () => {
      clearTimeout(idle);
      clearTimeout(total);
      clearInterval(rate);
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stopTimers();
      req.unpipe(parser);
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      windowBytes += chunk.length;
      idle.refresh();
    });
    const fields: Record<string, string> = {};
    let file: Omit<UploadedFile, 'fields'> | undefined;
    let reading: Promise<void> | undefined;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, fileName, _encoding, mimeType) => {
      if (name !== field || file || reading) {
        stream.resume();
        return;
      }
      reading = new Promise<void>((done) => {
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          chunks.push(chunk);
        });
        stream.on('limit', () => fail(ocrErrors.tooLarge(maxBytes)));
        stream.on('end', () => {
          if (!stream.truncated)
            file = {
              bytes: Buffer.concat(chunks, size),
              fileName: fileName || 'upload',
              contentType: mimeType || undefined,
            };
          done();
        });
        stream.on('error', fail);
      });
    });
    parser.on('error', (error) => fail(ocrErrors.badMultipart((error as Error).message ?? String(error))));
    parser.on('finish', () => {
      void (reading ?? Promise.resolve()).then(() => {
        if (settled) return;
        if (!file) return fail(ocrErrors.missingFile(field));
        settled = true;
        stopTimers();
        resolve({ ...file, fields });
      });
    });
    req.on('aborted', () => fail(ocrErrors.aborted()));
    req.pipe(parser);
  });
}
