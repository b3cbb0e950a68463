import type { OutboundResponse } from 'vela/plugin';

/** The answer's body as text, refusing one past `maxBytes` while it streams (a repository can render a whole tree). */
export async function readBounded(res: OutboundResponse, maxBytes: number, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new Error(`${what} is ${declared} bytes, more than the ${maxBytes} read`);
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    seen += chunk.byteLength;
    if (seen > maxBytes) {
      await res.body.cancel().catch(() => undefined);
      throw new Error(`${what} is more than the ${maxBytes} bytes read`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
