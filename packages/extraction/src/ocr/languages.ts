import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * Tesseract languages whose trained data ships in registry packages this package depends on
 * (`@tesseract.js-data/<code>`, the integer-quantized LSTM models of Tesseract 4): read from the local
 * disk, never fetched.
 */
export const OCR_LANGUAGES = ['eng', 'por'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

export function isOcrLanguage(code: string): code is OcrLanguage {
  return (OCR_LANGUAGES as readonly string[]).includes(code);
}

const require = createRequire(import.meta.url);

/** The gzip'd trained data of one language, inside its package. */
export function languageDataFile(code: OcrLanguage): string {
  const packageDir = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
  return path.join(packageDir, '4.0.0_best_int', `${code}.traineddata.gz`);
}

/**
 * tesseract.js reads every language of a worker from one folder (`langPath/<code>.traineddata.gz`), and
 * each language package has its own: this folder, private to the user (0700, checked), holds a symbolic
 * link to each package's file. Its name hashes the targets, so two installations never share one.
 */
export function languageFolder(): string {
  const targets = OCR_LANGUAGES.map((code) => [code, languageDataFile(code)] as const);
  const hash = createHash('sha256')
    .update(targets.map(([, file]) => file).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const folder = path.join(os.tmpdir(), `vela-tessdata-${uid}-${hash}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const info = lstatSync(folder);
  const mine = typeof process.getuid !== 'function' || info.uid === uid;
  if (!info.isDirectory() || !mine || (info.mode & 0o077) !== 0) {
    throw new Error(`${folder} is not a private folder of this user; remove it so OCR can recreate it`);
  }
  for (const [code, target] of targets) {
    const link = path.join(folder, `${code}.traineddata.gz`);
    let current: string | null = null;
    try {
      current = readlinkSync(link);
    } catch {
      current = null;
    }
    if (current === target) continue;
    if (current !== null) unlinkSync(link);
    try {
      symlinkSync(target, link);
    } catch (error) {
      // Another thread made it at the same moment.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return folder;
}
