import { TEST_ADMIN, type TestRuntime } from './test-runtime.js';

/** The value a Set-Cookie header gives one cookie ("" when it clears it, undefined when it is not set). */
export function setCookie(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq).trim() === name) return pair!.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Sign the test administrator in to a service's console through its form, as a browser does (the sign-in page's
 * CSRF cookie and field, then the POST): the `Cookie` header value of the session.
 */
export async function consoleSession(vela: TestRuntime, service: string): Promise<string> {
  const page = await vela.fetch(service, '/console/login', { redirect: 'manual' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  const res = await vela.fetch(service, '/console/login', {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `vela_console_signin=${setCookie(page, 'vela_console_signin')}`,
    },
    body: new URLSearchParams({
      username: TEST_ADMIN.user,
      password: TEST_ADMIN.password,
      csrf: csrf ?? '',
    }).toString(),
  });
  if (res.status !== 303) throw new Error(`console sign-in failed: ${res.status}`);
  return `vela_session=${setCookie(res, 'vela_session')}`;
}
