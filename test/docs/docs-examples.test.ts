import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { packageRoot } from '../../runtime/paths.js';
import { type DocBlock, extractExamples } from './doc-blocks.js';
import { linkProblems } from './doc-links.js';
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
    config: { runtime: { network: { allowHosts: ['127.0.0.1:11434'] } } },
  },
  'docs/scaling.md': { plugins: [], password: 'change-me-please' },
  'docs/search-guide.md': {
    plugins: ['search', 'connector', 'genai', 'graphql', 'ocr', 'integration', 'search-metrics', 'semantic'],
    password: 'change-me-please',
    seed: true,
  },
  'docs/search-reference.md': {
    plugins: ['search', 'connector', 'graphql', 'semantic'],
    password: 'change-me-please',
    seed: true,
  },
};

/** One command may take this long (a connector run waited for, fourteen OCR uploads on a busy machine). */
const COMMAND_TIMEOUT_MS = 60_000;
/** A whole document: the longest, docs/search-guide.md, takes about 70 s on the project machine. */
const DOCUMENT_TIMEOUT_MS = 240_000;

const read = (doc: string) => readFileSync(path.join(packageRoot, doc), 'utf8');

const clip = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}...` : text);

/** Run the blocks in order in one shell; every failure, named by the document's line. */
async function runBlocks(
  doc: string,
  blocks: DocBlock[],
  sandbox: DocSandbox,
): Promise<{ failures: string[]; compared: number }> {
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
          failures.push(
            `${where}: did not end within ${COMMAND_TIMEOUT_MS / 1000} s: ${clip(text, 300)}\n(the commands after it were not run)`,
          );
          return { failures, compared };
        }
        if (result.status !== 0) {
          failures.push(
            `${where}: exited with status ${result.status}: ${clip(text, 300)}\noutput: ${clip(result.output)}`,
          );
          continue;
        }
        if (command.expected === null) continue;
        compared++;
        const difference = matchOutput(sandbox.rewrite(command.expected), result.output);
        if (difference)
          failures.push(
            `${where}: the output differs from the one shown at line ${command.expectedLine}: ${difference}\ncommand: ${clip(text, 300)}\noutput: ${clip(result.output, 2000)}`,
          );
      }
    }
  } finally {
    session.close();
  }
  return { failures, compared };
}

for (const [doc, setup] of Object.entries(DOCS)) {
  test.serial(`${doc}: its shell examples run as written`, async (t) => {
    t.timeout(DOCUMENT_TIMEOUT_MS);
    const examples = extractExamples(read(doc));
    t.deepEqual(examples.problems, [], `${doc} has docs-test markers the test does not understand`);
    for (const block of examples.blocks.filter((b) => b.skip !== undefined))
      t.log(`skipped ${doc}:${block.line}: ${block.skip}`);
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
      t.is(
        failures.length,
        0,
        `${failures.length} example(s) of ${doc} do not run as written:\n\n${failures.join('\n\n')}`,
      );
    } finally {
      await sandbox.close();
    }
  });
}

const documents = () =>
  ['README.md', ...readdirSync(path.join(packageRoot, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
    f.endsWith('.md'),
  );

test('every document with shell examples is in the docs test', (t) => {
  const withExamples = documents().filter((doc) => extractExamples(read(doc)).blocks.length > 0);
  t.deepEqual(withExamples.sort(), Object.keys(DOCS).sort());
});

test('the documents link only inside the repository, name no machine path, and run nothing outside the clone', (t) => {
  t.deepEqual(
    documents().flatMap((doc) => linkProblems(packageRoot, doc, read(doc))),
    [],
  );
});
