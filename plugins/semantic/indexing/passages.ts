import { createHash } from 'node:crypto';
import type { SiteDefaultFields, StoredDocument } from '@vela/plugin-search/api';

export interface PassageOptions {
  /** Longest passage, in characters. */
  passageChars: number;
  /** Characters a passage repeats from the end of the one before, so a sentence cut in two is whole in one. */
  passageOverlap: number;
  /** The fields embedded; empty: the site's title, description and text fields. */
  fields: readonly string[];
}

const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.filter((v) => typeof v === 'string').join(', ')
      : typeof value === 'number'
        ? String(value)
        : '';

/** The fields whose text is embedded: those the settings name, else the site's default title, description and text. */
export function embeddedFields(options: PassageOptions, defaults: SiteDefaultFields): string[] {
  if (options.fields.length > 0) return [...options.fields];
  const named = [defaults.title, defaults.description, defaults.text].filter((f): f is string => !!f);
  return [...new Set(named)];
}

/** The text of a document that is embedded: its embedded fields' values, one paragraph each. */
export function documentText(doc: StoredDocument, fields: readonly string[]): string {
  return fields
    .map((f) => textOf(doc.fields[f]).trim())
    .filter(Boolean)
    .join('\n\n');
}

/** What tells whether a document must be embedded again: its text and how it is cut. */
export function textHash(text: string, options: Pick<PassageOptions, 'passageChars' | 'passageOverlap'>): string {
  return createHash('sha256')
    .update(`${options.passageChars}:${options.passageOverlap}\n${text}`)
    .digest('base64url')
    .slice(0, 22);
}

/**
 * The text cut into passages of at most `passageChars`, each starting `passageOverlap` characters before the
 * end of the one before. Cuts fall on whitespace where there is some in the last quarter of a passage, so a word
 * is not split. An empty text has no passage.
 */
export function passages(text: string, options: Pick<PassageOptions, 'passageChars' | 'passageOverlap'>): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  const size = options.passageChars;
  const overlap = Math.min(options.passageOverlap, Math.floor(size / 2));
  const out: string[] = [];
  let start = 0;
  while (start < clean.length) {
    let end = Math.min(clean.length, start + size);
    if (end < clean.length) {
      const space = clean.lastIndexOf(' ', end);
      if (space > start + (size * 3) / 4) end = space;
    }
    out.push(clean.slice(start, end).trim());
    if (end >= clean.length) break;
    let next = end - overlap;
    if (overlap > 0) {
      const space = clean.indexOf(' ', next);
      if (space > 0 && space < end) next = space + 1;
    }
    start = Math.max(next, start + 1);
  }
  return out;
}
