import { setCookie, TEST_ADMIN, type TestRuntime } from 'vela/testing';

/** The console's sign-in page: its login-CSRF cookie and the same token in its form. */
export async function openSignIn(
  vela: TestRuntime,
  next = '/console/dashboard',
): Promise<{ cookie: string; csrf: string; html: string }> {
  const res = await vela.fetch('gateway', `/console/login?next=${encodeURIComponent(next)}`);
  const html = await res.text();
  const token = setCookie(res, 'vela_console_signin');
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (res.status !== 200 || !token || !csrf)
    throw new Error(`the sign-in page did not give a CSRF token: ${res.status}`);
  return { cookie: `vela_console_signin=${token}`, csrf, html };
}

export function postSignIn(
  vela: TestRuntime,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return vela.fetch('gateway', '/console/login', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

/** Sign in as the test administrator through the console's form: the session cookie and the page's CSRF token. */
export async function signIn(vela: TestRuntime): Promise<{ cookie: string; csrfToken: string }> {
  const page = await openSignIn(vela);
  const res = await postSignIn(
    vela,
    { username: TEST_ADMIN.user, password: TEST_ADMIN.password, csrf: page.csrf, next: '/console/dashboard' },
    { cookie: page.cookie },
  );
  const session = setCookie(res, 'vela_session');
  if (res.status !== 303 || !session) throw new Error(`signing in failed: ${res.status}`);
  const cookie = `vela_session=${session}`;
  const html = await (await vela.fetch('gateway', '/console/dashboard', { headers: { cookie } })).text();
  const csrfToken = /<meta name="csrf-token" content="([^"]+)">/.exec(html)?.[1];
  if (!csrfToken) throw new Error('the signed-in page carries no CSRF token');
  return { cookie, csrfToken };
}
