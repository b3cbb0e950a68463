import readline from 'node:readline';
import { Readable } from 'node:stream';
import test from 'ava';
import { linesOf } from '../sources/jsonl/lines.js';

/** What node:readline (crlfDelay: Infinity), which the jsonl kind used before, makes of these chunks. */
async function readlineLines(chunks: Buffer[]): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readline.createInterface({ input: Readable.from(chunks), crlfDelay: Infinity }))
    out.push(line);
  return out;
}

async function ourLines(chunks: Buffer[]): Promise<string[]> {
  const out: string[] = [];
  for await (const lines of linesOf(Readable.from(chunks))) out.push(...lines);
  return out;
}

const TEXTS = [
  '{"id":1}\n{"id":2}\n',
  '{"id":1}\n{"id":2}',
  'a\r\nb\r\n\r\nc',
  'a\rb\r\rc\r',
  'a\n\r\nb\n\n\r\r\n',
  '\n\nlast',
  'ünï 😀 “quoted”\r\nçà\n€',
  '',
  '\r',
  'no break at all',
];

// Invalid and cut UTF-8: a lone continuation byte, a character cut at the end (after a break and within a line).
const BYTES = [
  Buffer.from([0x61, 0x80, 0x0a, 0x62]),
  Buffer.from([0x61, 0x0a, 0xe2, 0x82]),
  Buffer.from([0x61, 0x0d, 0x0a, 0x62, 0xf0, 0x9f]),
];

test('the jsonl lines are split as readline splits them, wherever the chunks begin and end', async (t) => {
  for (const bytes of [...TEXTS.map((text) => Buffer.from(text)), ...BYTES]) {
    const label = bytes.toString('hex');
    t.deepEqual(await ourLines([bytes]), await readlineLines([bytes]), label);
    // Every split in two and in three pieces, including inside a "\r\n" and inside a UTF-8 character.
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) {
        const chunks = [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)].filter((c) => c.length > 0);
        t.deepEqual(await ourLines(chunks), await readlineLines(chunks), `${label} at ${i}, ${j}`);
      }
    }
  }
});
