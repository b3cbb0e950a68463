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

/**
 * A copy of an object or array as it may be quoted: members named like secrets become `***`, credential
 * addresses are masked (or `***` when they are not a `scheme://` URL), other strings have URL passwords masked.
 */
export function redactedValue(value: unknown, memberPath = ''): unknown {
  if (typeof value === 'string') {
    if (memberPath && isSecretMember(memberPath)) return '***';
    if (memberPath && isCredentialAddressMember(memberPath)) return shownAddress(value) ?? '***';
    return maskUrlPasswords(value);
  }
  if (Array.isArray(value)) return value.map((item, i) => redactedValue(item, `${memberPath}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => {
        const path = memberPath ? `${memberPath}.${key}` : key;
        // A secret member is hidden whatever its type (an object of keys, a number).
        return [key, isSecretMember(path) && member !== null ? '***' : redactedValue(member, path)];
      }),
    );
  }
  return value;
}

/** Characters V8 quotes on each side of an unexpected token when the text is long (its kMaxContextCharacters). */
const V8_CONTEXT = 10;

/**
 * A JSON.parse message without the text V8 quotes (`Unexpected token 'h', ..."password": hunter2}"... is
 * not valid JSON`) or the token itself: the text may be a configuration file with secrets in it. Where the
 * message locates the problem, a line and column say where instead.
 */
export function jsonSyntaxProblem(error: Error, text: string): string {
  const at = (offset: number) => {
    const before = text.slice(0, offset);
    return `line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
  };
  const quoted = /^Unexpected token .*?, (\.\.\.)?"(.*?)"(\.\.\.)? is not valid JSON$/s.exec(error.message);
  if (quoted) {
    const [, leading, excerpt] = quoted as unknown as [string, string | undefined, string];
    // With a leading ellipsis, the token is the V8_CONTEXT-th character of the excerpt; else it is near the start.
    const found = leading ? text.indexOf(excerpt) : -1;
    return `unexpected character at ${found >= 0 ? at(found + V8_CONTEXT) : 'the start of the text (or in a short text)'}`;
  }
  const position = /^(.*?)\s*(?:in JSON )?at position (\d+)/s.exec(error.message);
  if (position) return `${position[1]} at ${at(Number(position[2]))}`;
  return error.message.replace(/,?\s*(\.\.\.)?".*"(\.\.\.)?.*$/s, '');
}
