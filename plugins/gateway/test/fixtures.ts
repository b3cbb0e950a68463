import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeepPartial } from 'vela/testing';
import { startTestRuntime, type TestRuntime } from 'vela/testing';
import type { GatewayConfig } from '../config.js';
import type { App } from '../store/app-store.js';
import type { Mapping } from '../store/mapping-store.js';

/** A runtime with only the gateway plugin, on ephemeral loopback ports. */
export function startGateway(
  gateway: DeepPartial<GatewayConfig> = {},
  options: { databaseUrl?: string } = {},
): Promise<TestRuntime> {
  return startTestRuntime({
    plugins: ['gateway'],
    config: { plugins: { gateway } } as never,
    databaseUrl: options.databaseUrl,
  });
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** An administrator call to the gateway's JSON API. */
export async function admin(
  vela: TestRuntime,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const res = await vela.fetch('gateway', path, {
    method,
    headers: {
      authorization: vela.adminAuth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export async function createMapping(vela: TestRuntime, input: Record<string, unknown>): Promise<Mapping> {
  const res = await admin(vela, 'POST', '/api/v2/mapping', input);
  if (res.status !== 201) throw new Error(`creating the mapping failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Mapping;
}

export async function createApp(
  vela: TestRuntime,
  input: Record<string, unknown> = { name: 'Test app' },
): Promise<App> {
  const res = await admin(vela, 'POST', '/api/v2/app', input);
  if (res.status !== 201) throw new Error(`creating the app failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as App;
}

/** A form-encoded POST (the OAuth2 endpoints' encoding). */
export async function postForm(
  vela: TestRuntime,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const res = await vela.fetch('gateway', path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** The client-credentials grant of `app`, with its key and secret: the token endpoint's answer. */
export function clientCredentials(vela: TestRuntime, app: Pick<App, 'apiKey' | 'apiSecret'>): Promise<JsonAnswer> {
  return postForm(vela, '/api/token', {
    grant_type: 'client_credentials',
    client_id: app.apiKey,
    client_secret: app.apiSecret,
  });
}

export interface LocalServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (an upstream API, or an app's OAuth2 callback). */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.port;
}

export { eventually } from 'vela/testing';
