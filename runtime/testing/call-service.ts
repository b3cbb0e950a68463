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
  return readAnswer(res);
}

/** An answer's status, and its body parsed when it is JSON, its text otherwise. */
export async function readAnswer(res: Response): Promise<JsonAnswer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/**
 * A caller of one service of test runtimes, sending the headers `headers` makes for the runtime called (its
 * administrator's credentials, a key) unless a call names its own.
 */
export function serviceCaller(
  service: string,
  headers: (vela: TestRuntime) => Record<string, string>,
): (
  vela: TestRuntime,
  method: string,
  pathname: string,
  body?: unknown,
  own?: Record<string, string>,
) => Promise<JsonAnswer> {
  return (vela, method, pathname, body, own) =>
    callService(vela, service, method, pathname, body, own ?? headers(vela));
}
