import path from 'node:path';
import type { Format } from './types.js';

const BY_MEDIA_TYPE: Record<string, Format> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

const BY_EXTENSION: Record<string, Format> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.pdf': 'pdf',
  '.docx': 'docx',
};

/** `text/html; charset=utf-8` → `text/html`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type || undefined;
}

/** The `charset` parameter of a Content-Type, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * The format of a document: from its media type when that names one we read, else from its file
 * extension, else from its first bytes. A generic type (application/octet-stream) says nothing and
 * falls through; undefined means no format we read.
 */
export function detectFormat(bytes: Uint8Array, contentType?: string, fileName?: string): Format | undefined {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType && BY_MEDIA_TYPE[mediaType]) return BY_MEDIA_TYPE[mediaType];
  const extension = fileName ? path.extname(fileName).toLowerCase() : '';
  if (extension && BY_EXTENSION[extension]) return BY_EXTENSION[extension];
  return sniffFormat(bytes);
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((b, i) => bytes[i] === b);
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4

/** Magic bytes: PDF, a zip holding word/ parts (DOCX), markup, else text when it decodes as UTF-8. */
export function sniffFormat(bytes: Uint8Array): Format | undefined {
  if (startsWith(bytes, PDF)) return 'pdf';
  if (startsWith(bytes, ZIP)) return containsAscii(bytes, 'word/document.xml') ? 'docx' : undefined;
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return undefined; // binary
  const start = new TextDecoder('utf-8').decode(head).replace(/^\uFEFF/, '').trimStart().slice(0, 256).toLowerCase();
  if (/^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<!--)/.test(start)) return 'html';
  return isUtf8(bytes) ? 'text' : undefined;
}

function containsAscii(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(text, 0, 'latin1');
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
