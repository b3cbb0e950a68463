import type { TestRuntime } from './test-runtime.js';

export interface JsonAnswer {
  status: number;
  /** The body parsed when it is JSON; its text otherwise (an empty body, a page, a plain-text refusal). */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the members of an answer whose shape it asserts
  body: any;
}

/**
 * A request to one service of a test runtime. A body goes as JSON; a string goes as it stands, so a test can
 * send JSON that does not parse. Headers given win over the content type set here.
 */
export async function callService(
  vela: TestRuntime,
  service: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const res = await vela.fetch(service, pathname, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}
