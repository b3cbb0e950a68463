import path from 'node:path';
import picomatch from 'picomatch';
import { nestedRepetition } from '../../rules/safe-regex.js';

type Matcher = (relativePath: string) => boolean;

const REGEX_LITERAL = /^\/(.+)\/([dgimsuvy]*)$/;

/** One include/exclude pattern: `/regex/flags`, else a glob (one without / matches the file name alone). */
export function compilePattern(pattern: string): Matcher {
  const literal = REGEX_LITERAL.exec(pattern);
  if (literal) {
    let regex: RegExp;
    try {
      regex = new RegExp(literal[1]!, literal[2]!.replace(/[gy]/g, ''));
    } catch (error) {
      throw new Error(`pattern ${pattern} is not a valid regular expression: ${(error as Error).message}`);
    }
    const unsafe = nestedRepetition(literal[1]!);
    if (unsafe) throw new Error(`pattern ${pattern} ${unsafe}`);
    return (p) => regex.test(p);
  }
  return picomatch(pattern, { dot: true, basename: true });
}

/** include and exclude patterns that do not compile, or could backtrack exponentially, named by member. */
export function patternProblems(settings: { include: readonly string[]; exclude: readonly string[] }): string[] {
  return (['include', 'exclude'] as const).flatMap((member) =>
    settings[member].flatMap((pattern, i) => {
      try {
        compilePattern(pattern);
        return [];
      } catch (error) {
        return [`settings.${member}[${i}]: ${(error as Error).message}`];
      }
    }),
  );
}

export interface PathFilterOptions {
  include: readonly string[];
  exclude: readonly string[];
  extensions: readonly string[];
  includeHidden: boolean;
}

/** Which files and folders under the root are read; paths are relative to the root, with /. */
export class PathFilter {
  private readonly include: Matcher[];
  private readonly exclude: Matcher[];
  private readonly extensions: Set<string>;

  constructor(private readonly options: PathFilterOptions) {
    this.include = options.include.map(compilePattern);
    this.exclude = options.exclude.map(compilePattern);
    this.extensions = new Set(options.extensions);
  }

  /** Whether to descend into a folder: not hidden (unless asked) and not excluded. */
  acceptsFolder(relativePath: string): boolean {
    return this.visible(relativePath) && !this.exclude.some((m) => m(relativePath));
  }

  acceptsFile(relativePath: string): boolean {
    if (!this.visible(relativePath) || this.exclude.some((m) => m(relativePath))) return false;
    const extension = path.posix.extname(relativePath).slice(1).toLowerCase();
    if (this.extensions.size > 0 && !this.extensions.has(extension)) return false;
    return this.include.length === 0 || this.include.some((m) => m(relativePath));
  }

  private visible(relativePath: string): boolean {
    return this.options.includeHidden || !relativePath.split('/').some((segment) => segment.startsWith('.'));
  }
}
