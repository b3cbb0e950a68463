import { lstat, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceDocument, SourceKind, SourceReadContext, SourceReadError } from '../../api.js';
import { PathFilter, patternProblems } from './path-filter.js';
import { readAhead } from './read-ahead.js';
import { type FilesystemSettings, filesystemSettingsSchema, resolveFilesystemSettings } from './settings.js';
import { type FoundFile, walkFolder } from './walk-folder.js';

type Item = SourceDocument | SourceReadError;

// Files read and extracting at once: enough to keep two pool threads busy while the next file is read.
const READ_AHEAD = 4;

/**
 * Documents from a folder of HTML, Markdown, text, PDF, DOCX and XLSX files and images (by OCR); id = path relative to
 * the root.
 */
export const filesystemSourceKind: SourceKind<FilesystemSettings> = {
  name: 'filesystem',
  description:
    'a folder of HTML, Markdown, plain text, PDF, DOCX and XLSX files and images (PNG, JPEG, TIFF, WebP; scanned PDF pages and images are read by OCR); each file is one document, its id the path relative to the folder',
  settingsSchema: filesystemSettingsSchema,
  checkSettings: patternProblems,
  read: readFilesystem,
};

async function* readFilesystem(ctx: SourceReadContext<FilesystemSettings>): AsyncGenerator<Item> {
  const settings = resolveFilesystemSettings(ctx.source.settings);
  const filter = new PathFilter(settings);
  const root = await stat(settings.root).catch((error: Error) => {
    throw new Error(
      `filesystem source "${ctx.source.name}": cannot read root folder ${settings.root}: ${error.message}`,
    );
  });
  if (!root.isDirectory())
    throw new Error(`filesystem source "${ctx.source.name}": root ${settings.root} is not a folder`);

  const found = ctx.onlyIds
    ? filesByIds(ctx.onlyIds, settings, filter)
    : walkFolder(settings.root, filter, settings.followSymlinks, ctx.signal);
  for await (const item of readAhead(found, READ_AHEAD, (file) =>
    'error' in file ? Promise.resolve(folderError(file)) : readDocument(file, settings, ctx),
  )) {
    // Throw rather than return: a run that stops early must not look complete (that would de-index the rest).
    ctx.signal.throwIfAborted();
    yield item;
  }
}

function folderError(folder: { relativePath: string; error: string }): SourceReadError {
  return { id: folder.relativePath, error: folder.error };
}

/** The files named by id that exist and pass the filters; an id outside the root is an error. */
async function* filesByIds(
  ids: readonly string[],
  settings: FilesystemSettings,
  filter: PathFilter,
): AsyncGenerator<FoundFile | { relativePath: string; error: string }> {
  for (const id of ids) {
    const absolutePath = path.resolve(settings.root, id);
    const relativePath = path.relative(settings.root, absolutePath).split(path.sep).join('/');
    if (path.isAbsolute(id) || relativePath.startsWith('../') || relativePath === '..' || relativePath === '') {
      yield { relativePath: id, error: 'not a path inside the source root folder' };
      continue;
    }
    const info = await lstat(absolutePath).catch(() => null);
    if (!info) continue; // gone: the pipeline sees it was not yielded
    if (info.isSymbolicLink() && !settings.followSymlinks) continue;
    const target = info.isSymbolicLink() ? await stat(absolutePath).catch(() => null) : info;
    if (target?.isFile() && filter.acceptsFile(relativePath)) yield { relativePath, absolutePath };
  }
}

async function readDocument(
  file: FoundFile,
  settings: FilesystemSettings,
  ctx: SourceReadContext<FilesystemSettings>,
): Promise<Item> {
  const id = file.relativePath;
  try {
    const info = await stat(file.absolutePath);
    if (info.size > settings.maxFileSize)
      return { id, error: `file is ${info.size} bytes, over maxFileSize ${settings.maxFileSize}` };
    const bytes = await readFile(file.absolutePath, { signal: ctx.signal });
    const url = pathToFileURL(file.absolutePath).href;
    const content = await ctx.extract({
      bytes,
      fileName: path.basename(file.absolutePath),
      url,
      ocr: { languages: settings.ocrLanguages },
    });
    return {
      id,
      attributes: {
        ...content.metadata,
        title: content.title ?? path.basename(file.absolutePath, path.extname(file.absolutePath)),
        text: content.text,
        url,
        path: file.absolutePath,
        contentType: content.contentType,
        modificationDate: info.mtime.toISOString(),
        size: info.size,
      },
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { id, error: `${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}` };
  }
}
