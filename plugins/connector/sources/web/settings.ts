import { type JsonSchema, validateAgainst } from 'vela/plugin';
import { nestedRepetition } from '../../rules/safe-regex.js';
import { OCR_LANGUAGES_SCHEMA } from '../filesystem/settings.js';

export interface WebSettings {
  /** Where the crawl starts (depth 0). */
  seeds: string[];
  /** Regular expressions; when any are given, a URL (other than a seed) must match one to be crawled. */
  allow: string[];
  /** Regular expressions; a URL matching any is never fetched. */
  deny: string[];
  /** Only follow links to the hosts of the seeds. */
  sameHost: boolean;
  /** Links followed from a seed: 0 reads the seeds (and sitemap entries) only. */
  maxDepth: number;
  /** Pages fetched at most in one run (robots.txt and sitemaps not counted). */
  maxPages: number;
  /** Pause between two requests to one host, in ms; a larger robots.txt Crawl-delay wins (up to maxCrawlDelayMs). */
  delayMs: number;
  maxCrawlDelayMs: number;
  /** Pages fetched at once (across hosts; one host still gets its delay). */
  concurrency: number;
  timeoutMs: number;
  userAgent: string;
  robotsTxt: boolean;
  sitemaps: boolean;
  /** Also index PDF files the crawl finds (their text through the extraction module, scanned pages by OCR). */
  includePdf: boolean;
  /** Also index images the crawl finds (PNG, JPEG, TIFF, WebP), their text recognized by OCR. */
  includeImages: boolean;
  /** Languages images and scanned PDF pages are recognized in. */
  ocrLanguages: string[];
  /** Larger responses are read errors. */
  maxPageBytes: number;
  /** Links to files with these extensions are not fetched (they are not pages). */
  skipExtensions: string[];
}

const regexList = {
  type: 'array',
  items: { type: 'string', format: 'regex', minLength: 1 },
  default: [],
} satisfies JsonSchema;

export const webSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['seeds'],
  properties: {
    seeds: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', format: 'uri', pattern: '^https?://' },
      description: 'start URLs (http or https)',
    },
    allow: {
      ...regexList,
      description:
        'regular expressions tested against each absolute URL; when given, a URL must match one (seeds excepted)',
    },
    deny: {
      ...regexList,
      description: 'regular expressions tested against each absolute URL; a match is never fetched',
    },
    sameHost: { type: 'boolean', default: true, description: 'follow links only to the hosts of the seeds' },
    maxDepth: { type: 'integer', minimum: 0, maximum: 100, default: 3 },
    maxPages: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1000 },
    delayMs: {
      type: 'integer',
      minimum: 0,
      maximum: 60_000,
      default: 1000,
      description: 'pause between requests to one host',
    },
    maxCrawlDelayMs: {
      type: 'integer',
      minimum: 0,
      maximum: 600_000,
      default: 30_000,
      description: 'cap on a robots.txt Crawl-delay',
    },
    concurrency: { type: 'integer', minimum: 1, maximum: 8, default: 2 },
    timeoutMs: {
      type: 'integer',
      minimum: 100,
      maximum: 300_000,
      default: 10_000,
      description: 'per request, body included',
    },
    userAgent: {
      type: 'string',
      minLength: 1,
      maxLength: 300,
      default: 'VelaBot/1.0',
      description: 'its first word (before /) is the robots.txt user agent',
    },
    robotsTxt: { type: 'boolean', default: true, description: 'obey robots.txt (Allow, Disallow, Crawl-delay)' },
    sitemaps: {
      type: 'boolean',
      default: true,
      description: 'add the URLs of sitemaps (robots.txt Sitemap: lines and /sitemap.xml) as seeds',
    },
    includePdf: {
      type: 'boolean',
      default: false,
      description: 'index PDF files too (scanned pages are recognized by OCR)',
    },
    includeImages: {
      type: 'boolean',
      default: false,
      description: 'index PNG, JPEG, TIFF and WebP images too, their text recognized by OCR',
    },
    ocrLanguages: OCR_LANGUAGES_SCHEMA,
    maxPageBytes: { type: 'integer', minimum: 1024, maximum: 512 * 1024 * 1024, default: 10 * 1024 * 1024 },
    skipExtensions: {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Za-z0-9]+$' },
      default: [
        'css',
        'js',
        'mjs',
        'json',
        'xml',
        'rss',
        'atom',
        'png',
        'jpg',
        'jpeg',
        'gif',
        'webp',
        'svg',
        'ico',
        'bmp',
        'tif',
        'tiff',
        'woff',
        'woff2',
        'ttf',
        'otf',
        'eot',
        'mp3',
        'mp4',
        'm4a',
        'ogg',
        'wav',
        'avi',
        'mov',
        'webm',
        'zip',
        'gz',
        'tgz',
        'bz2',
        'xz',
        '7z',
        'rar',
        'tar',
        'exe',
        'msi',
        'dmg',
        'iso',
        'apk',
        'bin',
        'doc',
        'docx',
        'xls',
        'xlsx',
        'ppt',
        'pptx',
        'odt',
        'csv',
      ],
      description:
        'extensions of links never fetched; pdf is skipped too unless includePdf; png, jpg, jpeg, tif, tiff and webp are fetched when includeImages',
    },
  },
} satisfies JsonSchema;

/** allow and deny patterns run on the event loop: ones that can backtrack exponentially are refused. */
export function webSettingsProblems(settings: WebSettings): string[] {
  return (['allow', 'deny'] as const).flatMap((member) =>
    settings[member].flatMap((pattern, i) => {
      const problem = nestedRepetition(pattern);
      return problem ? [`settings.${member}[${i}] ${problem}`] : [];
    }),
  );
}

export function resolveWebSettings(settings: unknown): WebSettings {
  const { valid, value, problems } = validateAgainst<WebSettings>(webSettingsSchema, settings, {
    applyDefaults: true,
    root: 'settings',
  });
  if (!valid) throw new Error(`invalid web source settings: ${problems.join('; ')}`);
  return value;
}
