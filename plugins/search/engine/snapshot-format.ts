import { crc32 } from 'node:zlib';

/**
 * The snapshot container: magic, format version, a JSON header (metadata and a table of binary sections),
 * the sections (typed array bytes, each 8-byte aligned) and a CRC-32 of everything before it.
 *
 *   "VELASNAP" | u32 version | u32 header length | header JSON | pad | section… | u32 crc32
 *
 * Sections hold the host's byte order, which the header records; a snapshot is read back on the same
 * kind of machine (every platform Node runs on in practice is little-endian).
 */

const MAGIC = Buffer.from('VELASNAP', 'latin1');
const PREFIX_BYTES = MAGIC.length + 8;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type SectionType = 'u8' | 'u32' | 'f64';
type TypedArray = Uint8Array | Uint32Array | Float64Array;

interface SectionEntry {
  name: string;
  type: SectionType;
  offset: number;
  length: number;
}

interface Header {
  kind: string;
  littleEndian: boolean;
  meta: unknown;
  sections: SectionEntry[];
}

export class SnapshotWriter {
  private readonly sections: Array<{ entry: SectionEntry; bytes: Uint8Array }> = [];
  private dataBytes = 0;

  add(name: string, array: TypedArray): this {
    const type: SectionType = array instanceof Float64Array ? 'f64' : array instanceof Uint32Array ? 'u32' : 'u8';
    const entry = { name, type, offset: this.dataBytes, length: array.length };
    this.sections.push({ entry, bytes: new Uint8Array(array.buffer, array.byteOffset, array.byteLength) });
    this.dataBytes += align8(array.byteLength);
    return this;
  }

  toBuffer(kind: string, version: number, meta: unknown): Buffer {
    const header: Header = {
      kind,
      littleEndian: LITTLE_ENDIAN,
      meta,
      sections: this.sections.map((section) => section.entry),
    };
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const dataStart = align8(PREFIX_BYTES + json.length);
    const out = Buffer.alloc(dataStart + this.dataBytes + 4);
    MAGIC.copy(out, 0);
    out.writeUInt32LE(version, MAGIC.length);
    out.writeUInt32LE(json.length, MAGIC.length + 4);
    json.copy(out, PREFIX_BYTES);
    for (const { entry, bytes } of this.sections) out.set(bytes, dataStart + entry.offset);
    out.writeUInt32LE(crc32(out.subarray(0, out.length - 4)), out.length - 4);
    return out;
  }
}

export class SnapshotReader {
  private readonly byName = new Map<string, SectionEntry>();

  private constructor(
    private readonly kind: string,
    private readonly buffer: Buffer,
    private readonly dataStart: number,
    readonly meta: unknown,
    sections: SectionEntry[],
  ) {
    for (const section of sections) this.byName.set(section.name, section);
  }

  /** Checks magic, kind, version, byte order and checksum; throws an Error saying which one failed. */
  static open(buffer: Buffer, kind: string, version: number): SnapshotReader {
    const what = `not a ${kind} snapshot`;
    if (
      !Buffer.isBuffer(buffer) ||
      buffer.length < PREFIX_BYTES + 4 ||
      !buffer.subarray(0, MAGIC.length).equals(MAGIC)
    ) {
      throw new Error(`${what}: it does not start with the snapshot signature`);
    }
    const found = buffer.readUInt32LE(MAGIC.length);
    if (found !== version)
      throw new Error(`${what} of format version ${version}: it has version ${found}; rebuild the index`);
    const stored = buffer.readUInt32LE(buffer.length - 4);
    if (crc32(buffer.subarray(0, buffer.length - 4)) !== stored)
      throw new Error(`${kind} snapshot is corrupt: checksum mismatch`);
    const jsonLength = buffer.readUInt32LE(MAGIC.length + 4);
    if (PREFIX_BYTES + jsonLength > buffer.length - 4)
      throw new Error(`${kind} snapshot is corrupt: header runs past the end`);
    const header = JSON.parse(buffer.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + jsonLength)) as Header;
    if (header.kind !== kind) throw new Error(`${what}: it holds "${String(header.kind)}"`);
    if (header.littleEndian !== LITTLE_ENDIAN)
      throw new Error(`${kind} snapshot was written on a machine of the other byte order`);
    return new SnapshotReader(kind, buffer, align8(PREFIX_BYTES + jsonLength), header.meta, header.sections);
  }

  u8(name: string): Uint8Array {
    return this.section(name, 'u8', Uint8Array) as Uint8Array;
  }

  u32(name: string): Uint32Array {
    return this.section(name, 'u32', Uint32Array) as Uint32Array;
  }

  f64(name: string): Float64Array {
    return this.section(name, 'f64', Float64Array) as Float64Array;
  }

  /** A copy of the section (the buffer's own bytes may not be aligned for a typed array view). */
  private section(
    name: string,
    type: SectionType,
    Type: { new (length: number): TypedArray; BYTES_PER_ELEMENT: number },
  ): TypedArray {
    const entry = this.byName.get(name);
    if (!entry || entry.type !== type)
      throw new Error(`${this.kind} snapshot is corrupt: section "${name}" (${type}) is missing`);
    const byteLength = entry.length * Type.BYTES_PER_ELEMENT;
    const start = this.dataStart + entry.offset;
    if (start + byteLength > this.buffer.length - 4)
      throw new Error(`${this.kind} snapshot is corrupt: section "${name}" runs past the end`);
    const out = new Type(entry.length);
    new Uint8Array(out.buffer).set(this.buffer.subarray(start, start + byteLength));
    return out;
  }
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
