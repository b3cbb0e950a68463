import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { packageRoot } from '../../runtime/paths.js';
import { type DocBlock, extractExamples } from './doc-blocks.js';
import { DocSandbox, type DocSetup } from './doc-sandbox.js';
import { matchOutput } from './output-match.js';
import { ShellSession } from './shell-session.js';

/**
 * Every shell example of the documentation, run as written against a runtime of its own: a document whose
 * examples drift from the code fails here, naming the line and the difference. Blocks that cannot run in a
 * test carry `<!-- docs-test: skip (reason) -->`; the test lists them.
 */

const DOCS: Record<string, DocSetup> = {
  'README.md': { plugins: [], password: 'change-me-please' },
  'docs/BENCHMARKS.md': { plugins: [], password: 'change-me-please' },
  'docs/PLUGINS.md': { plugins: [], password: 'change-me-please' },
  // Its examples that talk to the cms plugin need an AEM repository (skipped); packing needs no runtime.
  'docs/cms.md': { plugins: [], password: 'change-me-please' },
  'docs/gateway.md': { plugins: ['gateway'], password: 'change-me', upstream: true },
  'docs/connector.md': { plugins: ['search', 'connector'], password: 'change-me-please', seed: true },
  'docs/genai.md': {
    plugins: ['search', 'connector', 'genai'],
    password: 'change-me-please',
    seed: true,
    // vela.json of "Pointing Vela at a model server", which the reader restarts with.
    config: { runtime: { network: { allowHosts: ['self:connector', '127.0.0.1:11434'] } } },
  },
  'docs/scaling.md': { plugins: [], password: 'change-me-please' },
  'docs/search.md': { plugins: ['search', 'connector', 'genai'], password: 'change-me-please', seed: true },
};

/** One command may take this long (a connector run waited for, OCR of a scan on a busy machine). */
const COMMAND_TIMEOUT_MS = 90_000;

const read = (doc: string) => readFileSync(path.join(packageRoot, doc), 'utf8');

const clip = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}...` : text);

/** Run the blocks in order in one shell; every failure, named by the document's line. */
async function runBlocks(doc: string, blocks: DocBlock[], sandbox: DocSandbox): Promise<{ failures: string[]; compared: number }> {
  const session = new ShellSession(sandbox.scratch, sandbox.work, sandbox.shellEnv());
  const failures: string[] = [];
  let compared = 0;
  try {
    for (const block of blocks) {
      for (const command of block.commands) {
        const where = `${doc}:${command.line}`;
        const text = sandbox.rewrite(command.text);
        const result = await session.run(text, COMMAND_TIMEOUT_MS);
        if (!result) {
          failures.push(`${where}: did not end within ${COMMAND_TIMEOUT_MS / 1000} s: ${clip(text, 300)}\n(the commands after it were not run)`);
          return { failures, compared };
        }
        if (result.status !== 0) {
          failures.push(`${where}: exited with status ${result.status}: ${clip(text, 300)}\noutput: ${clip(result.output)}`);
          continue;
        }
        if (command.expected === null) continue;
        compared++;
        const difference = matchOutput(sandbox.rewrite(command.expected), result.output);
        if (difference)
          failures.push(`${where}: the output differs from the one shown at line ${command.expectedLine}: ${difference}\ncommand: ${clip(text, 300)}`);
      }
    }
  } finally {
    session.close();
  }
  return { failures, compared };
}

for (const [doc, setup] of Object.entries(DOCS)) {
  test.serial(`${doc}: its shell examples run as written`, async (t) => {
    t.timeout(360_000);
    const examples = extractExamples(read(doc));
    t.deepEqual(examples.problems, [], `${doc} has docs-test markers the test does not understand`);
    for (const block of examples.blocks.filter((b) => b.skip !== undefined)) t.log(`skipped ${doc}:${block.line}: ${block.skip}`);
    const runnable = examples.blocks.filter((b) => b.skip === undefined);
    const commands = runnable.reduce((n, b) => n + b.commands.length, 0);
    if (commands === 0) {
      t.true(examples.blocks.length > 0, `${doc} has no shell example: take it out of the docs test's list`);
      return;
    }
    const sandbox = new DocSandbox();
    try {
      if (setup.plugins.length > 0) await sandbox.start(setup);
      const { failures, compared } = await runBlocks(doc, runnable, sandbox);
      t.log(`${doc}: ${commands} commands run, ${compared} outputs compared`);
      t.is(failures.length, 0, `${failures.length} example(s) of ${doc} do not run as written:\n\n${failures.join('\n\n')}`);
    } finally {
      await sandbox.close();
    }
  });
}

const documents = () => ['README.md', ...readdirSync(path.join(packageRoot, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));

test('every document with shell examples is in the docs test', (t) => {
  const withExamples = documents().filter((doc) => extractExamples(read(doc)).blocks.length > 0);
  t.deepEqual(withExamples.sort(), Object.keys(DOCS).sort());
});

/** The targets of a document's links: inline and reference links, autolinks, and bare URLs (which GitHub links). */
function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/^\s*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*\1[^\n]*$/gm, '')
    .replace(/(`+)[\s\S]*?\1/g, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  const links: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(m[1] ?? '');
  for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) links.push(m[1] ?? '');
  for (const m of prose.replace(/\]\([^)]*\)/g, '](…)').matchAll(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)>\]]+/gi)) links.push(m[0]);
  return links;
}

const LOCAL_SERVICE = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/;
/** Folders of a developer's machine, which a reader's clone does not have. */
const MACHINE_PATH = /(?<![\w.-])(\/work\/|\/home\/\w|\/Users\/|\/root\/|\/mnt\/\w|[A-Z]:\\\\)/;

test('the documents link only inside the repository, name no machine path, and run nothing outside the clone', (t) => {
  const problems: string[] = [];
  for (const doc of documents()) {
    const text = read(doc);
    text.split('\n').forEach((line, i) => {
      const path = MACHINE_PATH.exec(line);
      if (path) problems.push(`${doc}:${i + 1}: a path of a developer's machine (${path[0]}...): ${line.trim().slice(0, 120)}`);
    });
    for (const link of linksOf(text)) {
      if (link.startsWith('#') || LOCAL_SERVICE.test(link)) continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
        problems.push(`${doc}: a link outside the repository: ${link} (copy what the reader needs into docs/)`);
        continue;
      }
      const target = path.resolve(packageRoot, path.dirname(doc), decodeURIComponent(link.replace(/[#?].*$/, '')));
      if (path.relative(packageRoot, target).startsWith('..')) problems.push(`${doc}: a link outside the repository: ${link}`);
      else if (!existsSync(target)) problems.push(`${doc}: a link to a file the repository does not have: ${link}`);
    }
    // The reference material next to the clone (../shared) is not the reader's: an example that needs it is skipped.
    for (const block of extractExamples(text).blocks.filter((b) => b.skip === undefined))
      for (const command of block.commands)
        if (/\.\.\/shared\b/.test(command.text)) problems.push(`${doc}:${command.line}: runs on ../shared, which is not part of the repository`);
  }
  t.deepEqual(problems, []);
});
