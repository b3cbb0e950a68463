import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { SourceDocument, SourceKind, SourceReadError } from '../../api.js';
import { linesOf } from './lines.js';
import { type RecordMapping, recordMapper } from './record-mapping.js';

export interface JsonlSettings extends RecordMapping {
  /** The file: absolute, or relative to the runtime's working directory; `.gz` (or gzip content) is unpacked. */
  path: string;
}

const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      description: 'the .jsonl or .jsonl.gz file (absolute, or relative to the working directory)',
    },
    idField: { type: 'string', minLength: 1, default: 'id', description: 'the record member holding the document id' },
    fields: {
      type: 'object',
      description:
        'attribute → record member ("body", "meta.title") or {"template": "https://host/{name}"}; without it every member is sent as is',
      additionalProperties: {
        oneOf: [
          { type: 'string', minLength: 1 },
          {
            type: 'object',
            required: ['template'],
            additionalProperties: false,
            properties: { template: { type: 'string', minLength: 1 } },
          },
        ],
      },
    },
    localeField: {
      type: 'string',
      minLength: 1,
      description: 'a record member holding the document locale (xx_XX), overriding the source locale',
    },
  },
};

/** The longest line read: a file without line breaks (or /dev/zero) fails the run instead of filling the memory. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** Passes the bytes on, failing once a line grows past MAX_LINE_BYTES (one native search per chunk). */
class LineLengthGuard extends Transform {
  private sinceBreak = 0;
  private lines = 1;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const last = chunk.lastIndexOf(0x0a);
    if (last < 0) this.sinceBreak += chunk.length;
    else {
      for (let i = chunk.indexOf(0x0a); i >= 0 && i <= last; i = chunk.indexOf(0x0a, i + 1)) this.lines += 1;
      this.sinceBreak = chunk.length - last - 1;
    }
    if (this.sinceBreak > MAX_LINE_BYTES)
      done(new Error(`line ${this.lines} is longer than ${MAX_LINE_BYTES} bytes: the file is not JSON lines`));
    else done(null, chunk);
  }
}

/** By content for a regular file; a pipe cannot be peeked at, so there the name decides. */
async function isGzip(file: string): Promise<boolean> {
  const info = await stat(file);
  // A folder or a device (/dev/zero, /dev/urandom) would never end or never parse: refused.
  if (!info.isFile() && !info.isFIFO()) throw new Error(`settings.path ${file} is not a file`);
  if (!info.isFile()) return file.endsWith('.gz');
  const handle = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** A file of JSON records, one per line, mapped to documents by the source's field mapping. */
export const jsonlSourceKind: SourceKind<JsonlSettings> = {
  name: 'jsonl',
  description: 'a file of JSON records, one per line (optionally gzipped), with a field mapping',
  settingsSchema,
  async *read(ctx): AsyncGenerator<SourceDocument | SourceReadError> {
    const file = path.resolve(ctx.source.settings.path);
    // Before any stream exists: a missing file fails the read here, never as an unhandled stream error.
    const gzip = await isGzip(file);
    const stream = createReadStream(file);
    const unpacked = gzip ? stream.pipe(createGunzip()) : stream;
    if (unpacked !== stream) stream.on('error', (error) => unpacked.destroy(error));
    const input = unpacked.pipe(new LineLengthGuard());
    unpacked.on('error', (error: Error) => input.destroy(error));
    // The loop below gets input errors while it runs; these listeners stay after it, so an error emitted once
    // the loop has ended (an abort at the last line) is never an uncaught exception.
    const ignoreLateError = () => undefined;
    stream.on('error', ignoreLateError);
    unpacked.on('error', ignoreLateError);
    input.on('error', ignoreLateError);
    // A source that stalls (a pipe, a slow network disk) still stops at once when the run is interrupted:
    // destroying the line guard ends the wait for its next chunk (destroying the file stream would wait for
    // its pending read). Not a race of each line against the abort: every such race leaves a reaction on the
    // abort's promise that holds its line until the run ends (the whole file in memory, and the GC time).
    const stop = () => input.destroy();
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener('abort', stop, { once: true });
    const interrupted = () =>
      ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('the run was interrupted');
    const only = ctx.onlyIds ? new Set(ctx.onlyIds) : null;
    const map = recordMapper(ctx.source.settings);
    let lineNumber = 0;
    try {
      for await (const lines of linesOf(input)) {
        for (const line of lines) {
          if (ctx.signal.aborted) throw interrupted();
          lineNumber += 1;
          if (line.trim() === '') continue;
          let record: unknown;
          try {
            record = JSON.parse(line);
          } catch {
            // The parser's message quotes the line; monitoring records should not copy file contents.
            yield {
              id: `${path.basename(file)}:${lineNumber}`,
              error: `line ${lineNumber} is not valid JSON (${line.length} characters)`,
            };
            continue;
          }
          const mapped = map(record);
          if ('error' in mapped) {
            yield { id: `${path.basename(file)}:${lineNumber}`, error: `line ${lineNumber}: ${mapped.error}` };
            continue;
          }
          if (only && !only.has(mapped.id)) continue;
          yield mapped;
        }
      }
      // The lines ended because the run was interrupted, not because the file did.
      if (ctx.signal.aborted) throw interrupted();
    } catch (error) {
      // An interrupted read ends in a premature close of the destroyed input: the abort's reason is the cause.
      throw ctx.signal.aborted ? interrupted() : error;
    } finally {
      ctx.signal.removeEventListener('abort', stop);
      input.destroy();
      unpacked.destroy();
      stream.destroy();
    }
  },
};
