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
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/tiff': 'tiff',
  'image/tiff-fx': 'tiff',
  'image/webp': 'webp',
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
  '.xlsx': 'xlsx',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.jpe': 'jpeg',
  '.tif': 'tiff',
  '.tiff': 'tiff',
  '.webp': 'webp',
};

/** The media types extraction reads (what a 415 answer lists). */
export const SUPPORTED_MEDIA_TYPES: readonly string[] = Object.keys(BY_MEDIA_TYPE);
/** The file extensions extraction recognizes. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

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
 * The format of a document. Magic bytes of a binary format (PDF, an Office zip, PNG, JPEG, TIFF, WebP) win,
 * so a scan served as text/plain or named .txt is still read as what it is; then the media type when it
 * names one we read, then the file extension, then the first bytes as text or markup. A generic type
 * (application/octet-stream) says nothing and falls through; undefined means no format we read.
 */
export function detectFormat(bytes: Uint8Array, contentType?: string, fileName?: string): Format | undefined {
  const binary = sniffBinary(bytes);
  if (binary) return binary;
  const mediaType = mediaTypeOf(contentType);
  if (mediaType && BY_MEDIA_TYPE[mediaType]) return BY_MEDIA_TYPE[mediaType];
  const extension = fileName ? path.extname(fileName).toLowerCase() : '';
  if (extension && BY_EXTENSION[extension]) return BY_EXTENSION[extension];
  return sniffFormat(bytes);
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const TIFF_LE = [0x49, 0x49, 0x2a, 0x00];
const TIFF_BE = [0x4d, 0x4d, 0x00, 0x2a];
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

/** A binary format recognized by its signature, or undefined. */
export function sniffBinary(bytes: Uint8Array): Format | undefined {
  if (startsWith(bytes, PDF)) return 'pdf';
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, TIFF_LE) || startsWith(bytes, TIFF_BE)) return 'tiff';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  if (startsWith(bytes, ZIP)) {
    if (containsAscii(bytes, 'word/document.xml')) return 'docx';
    if (containsAscii(bytes, 'xl/workbook.xml')) return 'xlsx';
  }
  return undefined;
}

/** Magic bytes: the binary formats, markup, else text when it decodes as UTF-8. */
export function sniffFormat(bytes: Uint8Array): Format | undefined {
  const binary = sniffBinary(bytes);
  if (binary) return binary;
  if (startsWith(bytes, ZIP)) return undefined;
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return undefined; // binary
  const start = new TextDecoder('utf-8')
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 256)
    .toLowerCase();
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
