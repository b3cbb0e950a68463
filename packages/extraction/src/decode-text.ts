import { charsetOf } from './detect-format.js';

const BOMS: ReadonlyArray<[number[], string]> = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/**
 * Bytes to a string: a byte-order mark wins, then the Content-Type's charset, then (for HTML) a
 * <meta charset> in the first kilobyte, then UTF-8. Bytes that are not valid in the encoding become
 * U+FFFD rather than failing the document.
 */
export function decodeText(bytes: Uint8Array, contentType?: string, sniffMetaCharset = false): string {
  for (const [bom, encoding] of BOMS) {
    if (bom.every((b, i) => bytes[i] === b)) return decoder(encoding).decode(bytes.subarray(bom.length));
  }
  const declared = charsetOf(contentType) ?? (sniffMetaCharset ? metaCharset(bytes) : undefined);
  return decoder(declared ?? 'utf-8').decode(bytes);
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
}

function decoder(encoding: string): TextDecoder {
  try {
    return new TextDecoder(encoding);
  } catch {
    return new TextDecoder('utf-8'); // an unknown label: UTF-8 is the best guess on the web
  }
}

/** Collapse runs of spaces inside lines, trim lines and drop blank ones: text fit for indexing. */
export function normalizeText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}
