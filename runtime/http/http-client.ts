import { VelaError } from '../errors.js';

export interface HttpRequestOptions extends RequestInit {
  /** Abort after this many milliseconds (default 30 s). */
  timeoutMs?: number;
}

/** The runtime's outbound HTTP client: fetch with a deadline, and JSON helpers with coded errors. */
export class HttpClient {
  constructor(
    private readonly defaultTimeoutMs = 30_000,
    private readonly userAgent = 'vela',
  ) {}

  async fetch(url: string | URL, options: HttpRequestOptions = {}): Promise<Response> {
    const { timeoutMs = this.defaultTimeoutMs, ...init } = options;
    const headers = new Headers(init.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', this.userAgent);
    const signal = init.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    return fetch(url, { ...init, headers, signal });
  }

  /** Send JSON (when `body` is given), expect JSON back; a non-2xx answer throws with its status. */
  async json<T>(url: string | URL, options: Omit<HttpRequestOptions, 'body'> & { body?: unknown } = {}): Promise<T> {
    const { body, ...rest } = options;
    const headers = new Headers(rest.headers);
    headers.set('accept', 'application/json');
    if (body !== undefined) headers.set('content-type', 'application/json');
    const response = await this.fetch(url, {
      ...rest,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new VelaError(
        'upstream_error',
        `${rest.method ?? 'GET'} ${String(url)} answered ${response.status}: ${text.slice(0, 300)}`,
        502,
        {
          status: response.status,
          body: text,
        },
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
