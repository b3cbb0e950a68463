import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent whole, with its Content-Length. */
  body?: string | Uint8Array;
}

/**
 * A request through node:http to the server at `origin`, for what fetch cannot send: `target` goes as written
 * (fetch would normalize dot segments away; an absolute-form target stays absolute), and any method may carry a
 * body (fetch refuses one on GET). The answer's body is read whole, as text.
 */
export function rawRequest(origin: string, target: string, options: RawRequestOptions = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  const { method = 'GET', body } = options;
  const headers = {
    ...options.headers,
    ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
