import * as cheerio from 'cheerio';
import { normalizeText } from './decode-text.js';
import { blockText } from './html-text.js';
import { type ExtractedContent, MEDIA_TYPES } from './types.js';

// Markup that is not page content: code, styling, navigation, hidden parts.
const NOISE = [
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'nav',
  '[role="navigation"]',
  '[hidden]',
  '[aria-hidden="true"]',
].join(', ');

const NOT_LINKS = /^(javascript|mailto|tel|data|about|blob):/i;

/** Title, description, keywords, author, language, links and visible text of an HTML page. */
export function extractHtml(html: string, url?: string): ExtractedContent {
  const $ = cheerio.load(html);
  const meta = (name: string): string | undefined => clean($(`meta[name="${name}" i]`).first().attr('content'));
  const base = baseUrl($('base[href]').first().attr('href'), url);

  const title =
    clean($('title').first().text()) ??
    clean($('meta[property="og:title" i]').attr('content')) ??
    clean($('h1').first().text());
  const metadata: Record<string, unknown> = {};
  const description = meta('description') ?? clean($('meta[property="og:description" i]').attr('content'));
  if (description) metadata.description = description;
  const keywords = meta('keywords')
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keywords?.length) metadata.keywords = keywords;
  const author = meta('author');
  if (author) metadata.author = author;
  const language = clean($('html').attr('lang')) ?? clean($('meta[http-equiv="content-language" i]').attr('content'));
  if (language) metadata.language = language;
  const robots = meta('robots');
  if (robots) metadata.robots = robots.toLowerCase();
  const canonical = resolve($('link[rel~="canonical" i]').first().attr('href'), base);
  if (canonical) metadata.canonical = canonical;

  const links = [
    ...new Set(
      $('a[href], area[href]')
        .toArray()
        .map((a) => resolve($(a).attr('href'), base))
        .filter((l): l is string => !!l),
    ),
  ];
  $(NOISE).remove();
  const text = normalizeText(blockText($.root().toArray()));
  return { ...(title ? { title } : {}), text, contentType: MEDIA_TYPES.html, links, metadata };
}

function clean(value: string | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text || undefined;
}

/** The document's base: <base href> resolved against its own URL (the spec's rule), else its URL. */
function baseUrl(baseHref: string | undefined, url: string | undefined): string | undefined {
  if (!baseHref) return url;
  try {
    return new URL(baseHref, url).href;
  } catch {
    return url;
  }
}

/** A link made absolute against the base; without a base, kept as written. Non-navigable schemes dropped. */
function resolve(href: string | undefined, base: string | undefined): string | undefined {
  const raw = href?.trim();
  if (!raw || NOT_LINKS.test(raw)) return undefined;
  if (!base) return raw;
  try {
    return new URL(raw, base).href;
  } catch {
    return undefined;
  }
}
