import path from 'node:path';
import { OCR_LANGUAGES } from '@vela/extraction';
import { type JsonSchema, validateAgainst } from 'vela/plugin';

/** The languages images and scanned PDF pages are recognized in (a setting of the filesystem and web kinds). */
export const OCR_LANGUAGES_SCHEMA = {
  type: 'array',
  items: { type: 'string', enum: [...OCR_LANGUAGES] },
  minItems: 1,
  uniqueItems: true,
  default: ['eng'],
  description: `languages of the text in images and scanned PDF pages, recognized by OCR (${OCR_LANGUAGES.join(', ')})`,
} satisfies JsonSchema;

export interface FilesystemSettings {
  /** The folder to index; relative paths are resolved against the runtime's working directory. */
  root: string;
  /** Only files whose path (relative to root, with /) matches one of these; all when empty. */
  include: string[];
  /** Files, and folders with everything under them, whose relative path matches one of these. */
  exclude: string[];
  /** File extensions read (without the dot, case-insensitive); all when empty. */
  extensions: string[];
  /** Larger files are reported as read errors instead of being read. */
  maxFileSize: number;
  followSymlinks: boolean;
  /** Files and folders whose name starts with a dot. */
  includeHidden: boolean;
  /** Languages images and scanned PDF pages are recognized in (tesseract codes: eng, por). */
  ocrLanguages: string[];
}

const patternList = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  default: [],
  description:
    'glob patterns (picomatch: *, **, ?, {a,b}; a pattern without / matches the file name), or regular expressions written /like this/i',
} satisfies JsonSchema;

export const filesystemSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['root'],
  properties: {
    root: { type: 'string', minLength: 1, description: 'folder to index' },
    include: patternList,
    exclude: patternList,
    extensions: {
      type: 'array',
      items: { type: 'string', pattern: '^\\.?[A-Za-z0-9_-]+$' },
      default: [
        'html',
        'htm',
        'md',
        'markdown',
        'txt',
        'pdf',
        'docx',
        'xlsx',
        'png',
        'jpg',
        'jpeg',
        'tif',
        'tiff',
        'webp',
      ],
      description: 'file extensions to read, without the dot; [] reads every file',
    },
    maxFileSize: {
      type: 'integer',
      minimum: 1,
      maximum: 1024 * 1024 * 1024,
      default: 20 * 1024 * 1024,
      description: 'bytes; larger files are reported as read errors',
    },
    followSymlinks: {
      type: 'boolean',
      default: false,
      description: 'follow symbolic links to files and folders (loops are detected)',
    },
    includeHidden: {
      type: 'boolean',
      default: false,
      description: 'read files and folders whose name starts with a dot',
    },
    ocrLanguages: OCR_LANGUAGES_SCHEMA,
  },
} satisfies JsonSchema;

/** Settings with defaults filled; a source saved with bad settings fails its run with the problems named. */
export function resolveFilesystemSettings(settings: unknown): FilesystemSettings {
  const { valid, value, problems } = validateAgainst<FilesystemSettings>(filesystemSettingsSchema, settings, {
    applyDefaults: true,
    root: 'settings',
  });
  if (!valid) throw new Error(`invalid filesystem source settings: ${problems.join('; ')}`);
  return {
    ...value,
    root: path.resolve(value.root),
    extensions: value.extensions.map((e) => e.replace(/^\./, '').toLowerCase()),
  };
}
