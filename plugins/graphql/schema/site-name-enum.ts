/**
 * GraphQL enum value for each site name (siteName is written as an unquoted identifier):
 * upper case, runs of other characters as one `_`, prefixed when it would not start with a
 * letter, and numbered on collision (after the original's rules).
 */
export function siteEnumValues(names: string[]): Map<string, string> {
  const taken = new Set<string>(['UNKNOWN']);
  const out = new Map<string, string>();
  for (const name of [...names].sort()) {
    let value = name
      .toUpperCase()
      .replace(/[^A-Z0-9_]+/g, '_')
      .replace(/_+/g, '_')
      .replace(/^_+|_+$/g, '');
    if (value === '') value = 'SITE';
    if (!/^[A-Z_]/.test(value)) value = `SITE_${value}`;
    let candidate = value;
    for (let n = 2; taken.has(candidate); n++) candidate = `${value}_${n}`;
    taken.add(candidate);
    out.set(name, candidate);
  }
  return out;
}
