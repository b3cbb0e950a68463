import type { OutboundFetch, OutboundResponse } from 'vela/plugin';

export class PageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response is larger than maxPageBytes (${limit} bytes)`);
  }
}

export interface FetchOptions {
  userAgent: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** One response, redirects not followed (the crawler checks each hop against its rules). */
export interface Fetched {
  url: string;
  status: number;
  statusText: string;
  headers: Headers;
  /** The body, refused past `maxBytes` (read as it arrives: a lying Content-Length does not help). */
  bytes(maxBytes: number): Promise<Uint8Array>;
  /** Drop the body unread, freeing the connection. */
  discard(): Promise<void>;
}

/**
 * GET through the runtime's outbound guard, on the main thread (I/O, not CPU). The timeout covers headers
 * and body; the run's signal cancels it too. A refused address is an error of this URL like any other.
 */
export async function httpGet(fetch: OutboundFetch, url: string, options: FetchOptions): Promise<Fetched> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  let response: OutboundResponse;
  try {
    response = await fetch(url, {
      signal,
      headers: {
        'user-agent': options.userAgent,
        accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.5',
      },
    });
  } catch (error) {
    throw describeFailure(error, options);
  }
  return {
    url,
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    bytes: (maxBytes) =>
      readBody(response, maxBytes).catch((error: unknown) => {
        throw error instanceof PageTooLargeError ? error : describeFailure(error, options);
      }),
    discard: async () => {
      await response.body?.cancel().catch(() => undefined);
    },
  };
}

async function readBody(response: OutboundResponse, maxBytes: number): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new PageTooLargeError(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new PageTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** A network failure in words: the cancelled run's own reason, a timeout, or the socket error. */
function describeFailure(error: unknown, options: FetchOptions): unknown {
  if (options.signal.aborted) return options.signal.reason;
  const name = (error as Error | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new Error(`no complete answer within ${options.timeoutMs} ms`);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new Error(`request failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
}
