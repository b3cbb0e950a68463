import { normalizeText } from './decode-text.js';
import { type ExtractedContent, MEDIA_TYPES } from './types.js';

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n/;

/** Title (front matter `title:`, else the first heading) and the text of a Markdown document without its markup. */
export function extractMarkdown(markdown: string): ExtractedContent {
  const front = FRONT_MATTER.exec(markdown);
  const body = front ? markdown.slice(front[0].length) : markdown;
  const metadata: Record<string, unknown> = {};
  const fields = front ? frontMatterFields(front[1] ?? '') : {};
  if (fields.description) metadata.description = fields.description;
  if (fields.author) metadata.author = fields.author;
  if (fields.keywords ?? fields.tags) metadata.keywords = splitList(fields.keywords ?? fields.tags ?? '');
  const title = fields.title ?? firstHeading(body);
  return {
    ...(title ? { title } : {}),
    text: normalizeText(stripMarkdown(body)),
    contentType: MEDIA_TYPES.markdown,
    metadata,
  };
}

/** `key: value` lines of YAML front matter (flat scalars and [a, b] lists: what titles and tags use). */
function frontMatterFields(yaml: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of yaml.split(/\r?\n/)) {
    const match = /^([A-Za-z_][\w-]*)\s*:\s*(.+)$/.exec(line);
    if (match) fields[match[1]!.toLowerCase()] = match[2]!.trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return fields;
}

function splitList(value: string): string[] {
  return value
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((v) => v.trim().replace(/^(["'])(.*)\1$/, '$2'))
    .filter(Boolean);
}

function firstHeading(markdown: string): string | undefined {
  const lines = outsideCodeFences(markdown.split(/\r?\n/));
  for (let i = 0; i < lines.length; i++) {
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(lines[i]!);
    if (atx?.[1]) return inline(atx[1]).trim();
    // Setext: a line of text underlined with === or ---.
    if (lines[i]!.trim() && /^ {0,3}(=+|-+)\s*$/.test(lines[i + 1] ?? '') && !/^\s*[-*+>]/.test(lines[i]!))
      return inline(lines[i]!).trim();
  }
  return undefined;
}

/** The lines that are not inside a fenced code block (a # there is a comment, not a heading). */
function outsideCodeFences(lines: string[]): string[] {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    } else if (marker) {
      fence = marker;
    } else {
      kept.push(line);
    }
  }
  return kept;
}

// Past this length a line only loses its markup characters: the patterns below could take quadratic time.
const MAX_INLINE_LINE = 10_000;

/** Inline markup to plain text: images to their alt text, links to their text, emphasis and code marks dropped. */
function inline(text: string): string {
  if (text.length > MAX_INLINE_LINE) return text.replace(/[*_`~]+/g, '');
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}

function stripMarkdown(markdown: string): string {
  return markdown
    .split(/\r?\n/)
    .filter((line) => !/^ {0,3}(```|~~~)/.test(line)) // fence lines go, the code inside stays: it is text too
    .filter((line) => !/^ {0,3}\[[^\]]+\]:\s*\S+/.test(line)) // link reference definitions
    .filter((line) => !/^ {0,3}(([-*_])\s*){3,}$/.test(line)) // horizontal rules
    .filter((line) => !/^ {0,3}(=+|-+)\s*$/.test(line)) // setext underlines
    .filter((line) => !/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) // table delimiter rows
    .map((line) =>
      inline(
        line
          .replace(/^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/, '$1')
          .replace(/^\s*(>\s*)+/, '')
          .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, ''),
      )
        .replace(/\s*\|\s*/g, ' ')
        .trim(),
    )
    .join('\n');
}
