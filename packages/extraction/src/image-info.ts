import { ExtractionError } from './extraction-error.js';
import type { ImageFormat } from './types.js';

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height of a PNG, JPEG, TIFF or WebP from its header, without decoding it: an image is checked
 * against the pixel limit before any decoder allocates it (a few kilobytes of PNG can claim 100,000 ×
 * 100,000 pixels). A header that cannot be read means a corrupt file.
 */
export function imageSize(bytes: Uint8Array, format: ImageFormat): ImageSize {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size: ImageSize | null = null;
  try {
    if (format === 'png') size = pngSize(view);
    else if (format === 'jpeg') size = jpegSize(view);
    else if (format === 'tiff') size = tiffSize(view);
    else size = webpSize(view);
  } catch {
    size = null; // a read past the end: truncated
  }
  if (!size || size.width <= 0 || size.height <= 0) {
    throw new ExtractionError(
      'corrupt_content',
      `the ${format.toUpperCase()} image cannot be read: its header is damaged or cut short`,
    );
  }
  return size;
}

function pngSize(view: DataView): ImageSize | null {
  // Signature (8), IHDR length (4), "IHDR" (4), width, height.
  if (view.getUint32(12) !== 0x49484452) return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function jpegSize(view: DataView): ImageSize | null {
  let at = 2;
  while (at + 9 < view.byteLength) {
    if (view.getUint8(at) !== 0xff) return null;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = view.getUint16(at + 2);
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame header
    at += 2 + length;
  }
  return null;
}

function tiffSize(view: DataView): ImageSize | null {
  const little = view.getUint16(0) === 0x4949;
  const ifd = view.getUint32(4, little);
  const count = view.getUint16(ifd, little);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    const tag = view.getUint16(entry, little);
    const type = view.getUint16(entry + 2, little);
    const value = type === 3 ? view.getUint16(entry + 8, little) : view.getUint32(entry + 8, little);
    if (tag === 256) width = value;
    else if (tag === 257) height = value;
  }
  return { width, height };
}

function webpSize(view: DataView): ImageSize | null {
  const chunk = String.fromCharCode(view.getUint8(12), view.getUint8(13), view.getUint8(14), view.getUint8(15));
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const u24 = (at: number) => view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
    return { width: u24(24) + 1, height: u24(27) + 1 };
  }
  return null;
}
