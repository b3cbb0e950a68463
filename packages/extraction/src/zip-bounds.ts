import { ExtractionError } from './extraction-error.js';

const EOCD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;

/** What an Office file (a zip) may unpack to: more is a zip bomb, refused before any part is inflated. */
export interface ZipBounds {
  maxUncompressedBytes: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_BOUNDS: ZipBounds = { maxUncompressedBytes: 512 * 1024 * 1024, maxEntries: 10_000 };

/**
 * Reads a zip's central directory (never its data) and refuses one that would unpack to more than the
 * bounds: DOCX and XLSX readers inflate parts into memory, so a 25 MB file of repeated bytes could
 * otherwise take gigabytes. ZIP64 sizes count as over the bound. A zip without a directory is corrupt.
 */
export function checkZipBounds(bytes: Uint8Array, kind: string, bounds: ZipBounds = DEFAULT_ZIP_BOUNDS): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0)
    throw new ExtractionError('corrupt_content', `the ${kind} file cannot be read: it is not a complete zip archive`);
  const entries = view.getUint16(eocd + 10, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (entries > bounds.maxEntries)
    throw new ExtractionError(
      'too_large',
      `the ${kind} file holds ${entries} parts; at most ${bounds.maxEntries} are read`,
    );
  let total = 0;
  let at = directoryOffset;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL_ENTRY) {
      throw new ExtractionError('corrupt_content', `the ${kind} file cannot be read: its zip directory is damaged`);
    }
    const size = view.getUint32(at + 24, true);
    total += size === 0xffffffff ? Number.POSITIVE_INFINITY : size;
    if (total > bounds.maxUncompressedBytes) {
      throw new ExtractionError(
        'too_large',
        `the ${kind} file unpacks to more than ${bounds.maxUncompressedBytes} bytes; it is not read`,
      );
    }
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
}
