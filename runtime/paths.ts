import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder that holds package.json, so built-in paths resolve the same from any working directory. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

export const RUNTIME_NAME: string = pkg.name;
export const RUNTIME_VERSION: string = pkg.version;
