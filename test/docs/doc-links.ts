import { existsSync } from 'node:fs';
import path from 'node:path';
import { extractExamples } from './doc-blocks.js';

/**
 * What a document must not hold: links that leave the repository (a reader of a clone has only the
 * repository), paths of a developer's machine, and examples that run on the reference material next to the
 * clone (../shared), which readers do not have.
 */

/** The targets of a document's links: inline and reference links, autolinks, and bare URLs (which GitHub links). */
export function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/^\s*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*\1[^\n]*$/gm, '')
    .replace(/(`+)[\s\S]*?\1/g, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  const links: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(m[1] ?? '');
  for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) links.push(m[1] ?? '');
  for (const m of prose.replace(/\]\([^)]*\)/g, '](…)').matchAll(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)>\]]+/gi))
    links.push(m[0].replace(/[.,;:!?]+$/, ''));
  return links;
}

/** The services a document is about, on the reader's machine. */
const LOCAL_SERVICE = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/;
/** Folders of a developer's machine, which a reader's clone does not have. */
const MACHINE_PATH = /(?<![\w.-])(\/work\/|\/home\/\w|\/Users\/|\/root\/|\/mnt\/\w|[A-Z]:\\\\)/;

/** The problems of `doc` (a path relative to `root`, the repository), one line each. */
export function linkProblems(root: string, doc: string, markdown: string): string[] {
  const problems: string[] = [];
  markdown.split('\n').forEach((line, i) => {
    const found = MACHINE_PATH.exec(line);
    if (found)
      problems.push(`${doc}:${i + 1}: a path of a developer's machine (${found[0]}...): ${line.trim().slice(0, 120)}`);
  });
  for (const link of linksOf(markdown)) {
    if (link.startsWith('#') || LOCAL_SERVICE.test(link)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
      problems.push(`${doc}: a link outside the repository: ${link} (copy what the reader needs into docs/)`);
      continue;
    }
    const target = path.resolve(root, path.dirname(doc), decodeURIComponent(link.replace(/[#?].*$/, '')));
    if (path.relative(root, target).startsWith('..')) problems.push(`${doc}: a link outside the repository: ${link}`);
    else if (!existsSync(target)) problems.push(`${doc}: a link to a file the repository does not have: ${link}`);
  }
  for (const block of extractExamples(markdown).blocks.filter((b) => b.skip === undefined))
    for (const command of block.commands)
      if (/\.\.\/shared\b/.test(command.text))
        problems.push(`${doc}:${command.line}: runs on ../shared, which is not part of the repository`);
  return problems;
}
