// The byte layout every index kind persists in: a header naming the kind, then a JSON section and a binary payload.
//
//   "VVIX" | version u8 | kind u8 | 0 u16 | dimensions u32 | CRC-32 u32 | JSON length u32 | JSON | payload length u32 | payload
// Integers are little-endian; the payload is the kind's own (float32 rows for exact, the library's file for ann). The
// CRC-32 covers everything after it: a native library would load a damaged graph without complaint.

import { crc32 } from 'node:zlib';
import type { VectorIndexKind } from './vector-index.js';

const MAGIC = [0x56, 0x56, 0x49, 0x58]; // "VVIX"
const VERSION = 1;
const HEADER = 20;
const KIND_CODES: Record<VectorIndexKind, number> = { exact: 1, ann: 2 };

export interface SerializedIndex {
  kind: VectorIndexKind;
  dimensions: number;
  meta: unknown;
  payload: Uint8Array;
}

export function encodeIndex(index: SerializedIndex): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(index.meta));
  const bytes = new Uint8Array(HEADER + json.length + 4 + index.payload.length);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  view.setUint8(4, VERSION);
  view.setUint8(5, KIND_CODES[index.kind]);
  view.setUint32(8, index.dimensions, true);
  view.setUint32(16, json.length, true);
  bytes.set(json, HEADER);
  view.setUint32(HEADER + json.length, index.payload.length, true);
  bytes.set(index.payload, HEADER + json.length + 4);
  view.setUint32(12, crc32(bytes.subarray(16)), true);
  return bytes;
}

/** The parts of bytes `encodeIndex` wrote; throws on any other bytes. */
export function decodeIndex(bytes: Uint8Array): SerializedIndex {
  const foreign = (why: string) => new Error(`not a serialized vector index: ${why}`);
  if (!(bytes instanceof Uint8Array) || bytes.length < HEADER + 4) throw foreign('too short');
  if (MAGIC.some((byte, i) => bytes[i] !== byte)) throw foreign('bad magic');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(4) !== VERSION) throw foreign(`unknown version ${view.getUint8(4)}`);
  const kind = (Object.keys(KIND_CODES) as VectorIndexKind[]).find((name) => KIND_CODES[name] === view.getUint8(5));
  if (kind === undefined) throw foreign('unknown kind');
  const dimensions = view.getUint32(8, true);
  const jsonLength = view.getUint32(16, true);
  if (dimensions === 0 || HEADER + jsonLength + 4 > bytes.length) throw foreign('truncated');
  const payloadLength = view.getUint32(HEADER + jsonLength, true);
  if (HEADER + jsonLength + 4 + payloadLength !== bytes.length) throw foreign('truncated');
  if (view.getUint32(12, true) !== crc32(bytes.subarray(16))) throw foreign('checksum mismatch');
  let meta: unknown;
  try {
    meta = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER, HEADER + jsonLength)));
  } catch {
    throw foreign('bad key map');
  }
  return { kind, dimensions, meta, payload: bytes.subarray(HEADER + jsonLength + 4) };
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
