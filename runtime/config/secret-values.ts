/**
 * Which values never reach an error message or a log line: a member named like a secret (password,
 * secret, token, API key, credentials), one its schema marks `writeOnly`, and the password inside a URL
 * (`postgres://vela:secret@db/vela`). An operator who mistyped a secret learns which member and which
 * rule, never the value: error messages end up in terminals, CI logs and bug reports.
 */
const SECRET_NAME = /(password|passwd|secret|token|api_?keys?|^keys?$|authorization|credential|private)/i;

/**
 * Members whose value is an address that may carry credentials (`runtime.database.url`): shown only as a
 * URL with its password masked, since a mistyped one (`user:password@host`, no scheme) has no recognisable
 * password to mask and is not shown at all.
 */
const CREDENTIAL_ADDRESS_NAME = /(url|uri|dsn|connection(string)?)$/i;

function lastName(memberPath: string): string | undefined {
  return memberPath
    .split(/[.[\]]+/)
    .filter((part) => part && !/^\d+$/.test(part))
    .pop();
}

/** The last member name of a path such as `runtime.admin.password` or `instance.apiKeys[0]`. */
export function isSecretMember(memberPath: string): boolean {
  const name = lastName(memberPath);
  return name !== undefined && SECRET_NAME.test(name);
}

export function isCredentialAddressMember(memberPath: string): boolean {
  const name = lastName(memberPath);
  return name !== undefined && CREDENTIAL_ADDRESS_NAME.test(name);
}

/**
 * How a credential address may appear in a message: `scheme://user:***@host/...` (everything up to the last
 * `@` is the user information, so a password with `@` or `/` in it is masked whole), unchanged without a
 * password, or `undefined` when it is not a `scheme://` URL at all.
 */
export function shownAddress(value: string): string | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/is.exec(value);
  if (!match) return undefined;
  const [, scheme, rest] = match as unknown as [string, string, string];
  const at = rest.lastIndexOf('@');
  const userInfo = rest.slice(0, Math.max(at, 0));
  if (!userInfo.includes(':')) return value;
  return `${scheme}${userInfo.slice(0, userInfo.indexOf(':'))}:***${rest.slice(at)}`;
}

/** `scheme://user:password@host` → `scheme://user:***@host`, wherever it appears in a text. */
export function maskUrlPasswords(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"]*:)[^\s@/"]*@/gi, '$1***@');
}
