import { type Pattern, parseJsonPatterns, show } from './json-pattern.js';

/**
 * Whether a command's real output is the output a document shows: JSON compared structurally, an HTTP
 * answer (curl -i) by its status line, the headers shown and its body, anything else as text with
 * whitespace runs collapsed. Values that differ on every run (UUIDs, ISO times, hex and base64url tokens,
 * durations) are compared by kind; `...` in the shown output stands for what the document leaves out.
 */

/** Numbers that differ on every run, by the member that holds them. */
const VARYING_NUMBER =
  /^(p\d+Ms|meanMs|durationMs|latencyMs|elapsedMs|responseTime|uptimeSeconds|documentsPer(Second|Minute)|perSecond|exp|iat|pid)$/;

const KINDS: Array<[RegExp, (m: string) => string]> = [
  // A UUID the document shortens ("1239172c-...") stands for any UUID.
  [/\b[0-9a-f]{8}-(?:[0-9a-f]{4}-){0,3}(?:\.\.\.|…)/gi, () => '‹uuid›'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, () => '‹uuid›'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g, () => '‹time›'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, () => '‹date›'],
  [/\b[0-9a-f]{16,}\b/g, (m) => `‹hex${m.length}›`],
  // base64url tokens (API tokens, CSRF tokens, session ids): letters and digits mixed, 20 characters or more.
  [/(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{20,}(?![\w-])/g, (m) => `‹token${m.length}›`],
  // About one in 230 random 32-character tokens has no digit ("x-CLTWEHtNyxWYTnbGUmIlFUMMzSGlLP" failed a CI run):
  // upper and lower case mixed, 32 characters or more, is a token too (no word of the documents is that long).
  [/(?<![\w-])(?=[\w-]*[A-Z])(?=[\w-]*[a-z])[\w-]{32,}(?![\w-])/g, (m) => `‹token${m.length}›`],
];

/** A text with its varying values replaced by their kind. */
export function byKind(text: string): string {
  return KINDS.reduce((out, [pattern, name]) => out.replace(pattern, name), text);
}

const ELLIPSIS = /\.\.\.|…/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One string against another: equal, or equal by kind, with `...` in the expected one matching anything. */
export function textMatches(expected: string, actual: string): boolean {
  if (expected === actual) return true;
  const want = byKind(expected);
  const got = byKind(actual);
  if (want === got) return true;
  if (!ELLIPSIS.test(want)) return false;
  const pattern = want
    .split(/\.\.\.|…/)
    .map(escapeRegExp)
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(got);
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}...` : text);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function plain(pattern: Pattern): unknown {
  return pattern.kind === 'scalar' ? pattern.value : show(pattern);
}

/** null when `actual` matches `expected`, else where and how it differs. */
function matchValue(expected: Pattern, actual: Pattern, path: string, key: string): string | null {
  if (expected.kind === 'any') return null;
  if (expected.kind !== actual.kind) return `${path}: expected ${clip(show(expected))}, got ${clip(show(actual))}`;
  if (expected.kind === 'scalar' && actual.kind === 'scalar') {
    const [want, got] = [expected.value, actual.value];
    if (want === got) return null;
    if (typeof want === 'number' && typeof got === 'number' && VARYING_NUMBER.test(key)) return null;
    if (typeof want === 'string' && typeof got === 'string' && textMatches(want, got)) return null;
    return `${path}: expected ${clip(JSON.stringify(want))}, got ${clip(JSON.stringify(got))}${kindOf(want) === kindOf(got) ? '' : ` (a ${kindOf(got)})`}`;
  }
  if (expected.kind === 'object' && actual.kind === 'object') return matchObject(expected, actual, path);
  if (expected.kind === 'array' && actual.kind === 'array') return matchArray(expected, actual, path, key);
  return `${path}: expected ${clip(show(expected))}, got ${clip(show(actual))}`;
}

function matchObject(
  expected: Extract<Pattern, { kind: 'object' }>,
  actual: Extract<Pattern, { kind: 'object' }>,
  path: string,
): string | null {
  const got = new Map(actual.members);
  for (const [key, want] of expected.members) {
    const member = `${path}.${key}`;
    const value = got.get(key);
    if (value === undefined)
      return `${member}: missing (the output has ${actual.members.map(([k]) => k).join(', ') || 'no members'})`;
    const difference = matchValue(want, value, member, key);
    if (difference) return difference;
  }
  if (expected.open) return null;
  const shown = new Set(expected.members.map(([k]) => k));
  const extra = actual.members.filter(([k]) => !shown.has(k));
  return extra.length > 0
    ? `${path}: members not shown in the document: ${extra.map(([k, v]) => `${k}=${clip(String(plain(v)), 80)}`).join(', ')}`
    : null;
}

function matchArray(
  expected: Extract<Pattern, { kind: 'array' }>,
  actual: Extract<Pattern, { kind: 'array' }>,
  path: string,
  key: string,
): string | null {
  if (!expected.open) {
    if (expected.items.length !== actual.items.length)
      return `${path}: expected ${expected.items.length} elements, got ${actual.items.length}: ${clip(show(actual))}`;
    for (let i = 0; i < expected.items.length; i++) {
      const difference = matchValue(expected.items[i]!, actual.items[i]!, `${path}[${i}]`, key);
      if (difference) return difference;
    }
    return null;
  }
  // With `...`, the elements shown must appear in this order, others may come between.
  let from = 0;
  for (const [i, want] of expected.items.entries()) {
    let found = -1;
    for (let j = from; j < actual.items.length && found < 0; j++)
      if (!matchValue(want, actual.items[j]!, `${path}[${j}]`, key)) found = j;
    if (found < 0)
      return `${path}: no element after [${from - 1}] matches the document's element ${i}, ${clip(show(want))}; the output is ${clip(show(actual))}`;
    from = found + 1;
  }
  return null;
}

function matchJson(expected: Pattern[], actualText: string): string | null {
  const actual = parseJsonPatterns(actualText);
  if (!actual) return `expected JSON, got ${clip(JSON.stringify(actualText))}`;
  if (actual.length !== expected.length)
    return `expected ${expected.length} JSON value(s), got ${actual.length}: ${clip(actualText)}`;
  for (let i = 0; i < expected.length; i++) {
    const difference = matchValue(expected[i]!, actual[i]!, expected.length > 1 ? `$${i}` : '$', '');
    if (difference) return difference;
  }
  return null;
}

function normalizedLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '');
}

function matchText(expected: string, actual: string): string | null {
  const want = normalizedLines(expected);
  const got = normalizedLines(actual);
  if (textMatches(want.join('\n'), got.join('\n'))) return null;
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    if (want[i] === undefined) return `output line ${i + 1} is not in the document: ${clip(JSON.stringify(got[i]))}`;
    if (got[i] === undefined)
      return `the document's line ${i + 1} is missing from the output: ${clip(JSON.stringify(want[i]))}`;
    if (!textMatches(want[i]!, got[i]!))
      return `line ${i + 1}: expected ${clip(JSON.stringify(want[i]))}, got ${clip(JSON.stringify(got[i]))}`;
  }
  return `expected ${clip(JSON.stringify(expected))}, got ${clip(JSON.stringify(actual))}`;
}

interface HttpAnswer {
  status: string;
  headers: Array<[string, string]>;
  body: string;
}

function splitHttp(text: string): HttpAnswer {
  const [head, ...rest] = text.split(/\r?\n\r?\n/);
  const [status = '', ...lines] = (head ?? '').split(/\r?\n/);
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  return { status: status.trim(), headers, body: rest.join('\n\n') };
}

function matchHttp(expected: string, actual: string): string | null {
  const want = splitHttp(expected);
  // curl -i prints interim answers (100 Continue to a large upload) before the final one, which documents show.
  const got = splitHttp(actual.replace(/^(HTTP\/[\d.]+ 1\d\d[^\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)+/, ''));
  if (want.status.replace(/\s+/g, ' ') !== got.status.replace(/\s+/g, ' '))
    return `status line: expected ${JSON.stringify(want.status)}, got ${JSON.stringify(got.status)}`;
  for (const [name, value] of want.headers) {
    const values = got.headers.filter(([n]) => n === name).map(([, v]) => v);
    if (values.length === 0)
      return `header ${name}: missing (the answer has ${got.headers.map(([n]) => n).join(', ')})`;
    if (!values.some((v) => textMatches(value, v)))
      return `header ${name}: expected ${JSON.stringify(value)}, got ${values.map((v) => JSON.stringify(v)).join(' and ')}`;
  }
  if (want.body.trim() === '') return null;
  const difference = matchOutput(want.body, got.body);
  return difference ? `body: ${difference}` : null;
}

/** null when the output matches what the document shows, else the difference. */
export function matchOutput(expected: string, actual: string): string | null {
  const output = actual.replace(/\r\n/g, '\n');
  if (/^HTTP\/[\d.]+ \d{3}/.test(expected.trim())) return matchHttp(expected.trim(), actual.trim());
  const json = /^[[{"]/.test(expected.trim()) ? parseJsonPatterns(expected) : null;
  return json ? matchJson(json, output) : matchText(expected, output);
}
