import { type OutboundFetch, OutboundRefused } from 'vela/plugin';
import { UpstreamError } from './provider.js';

export const ERROR_EXCERPT = 300;

/** The message of an error answer: OpenAI's {"error":{"message"}}, Ollama's {"error":"..."}, or the text. */
export function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (message) return message.slice(0, ERROR_EXCERPT);
  } catch {
    // not JSON
  }
  return text.slice(0, ERROR_EXCERPT) || '(no body)';
}

export interface UpstreamPost {
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
}

/**
 * POST a JSON body to a model server through the runtime's outbound guard. A refused host, an unreachable
 * server and an error answer are UpstreamErrors (with the status and Retry-After of an answer); an abort
 * rethrows the signal's reason. Messages name the server's origin only, never the path or the query.
 */
export async function postUpstream(
  fetch: OutboundFetch,
  endpoint: string,
  post: UpstreamPost,
): ReturnType<OutboundFetch> {
  let response: Awaited<ReturnType<OutboundFetch>>;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...post.headers },
      body: JSON.stringify(post.body),
      signal: post.signal,
    });
  } catch (error) {
    if (post.signal.aborted) throw post.signal.reason;
    if (error instanceof OutboundRefused)
      throw new UpstreamError(`${error.message}; an operator can allow the host in runtime.network.allowHosts`);
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new UpstreamError(`cannot reach the LLM server at ${new URL(endpoint).origin}: ${cause}`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new UpstreamError(
      `the LLM server answered ${response.status}: ${errorMessage(text)}`,
      response.status,
      response.headers.get('retry-after'),
    );
  }
  return response;
}
