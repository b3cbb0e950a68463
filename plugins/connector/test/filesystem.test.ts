import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { testFolder } from 'vela/testing';
import { makeDocx, makePdf } from '../../../packages/extraction/test/fixtures/documents.js';
import type { SourceDocument } from '../api.js';
import { filesystemSourceKind } from '../sources/filesystem/filesystem-kind.js';
import type { FilesystemSettings } from '../sources/filesystem/settings.js';
import { isReadError } from '../sources/read-error.js';
import { readAll, readContext } from './fixtures/read-context.js';

type Settings = Partial<FilesystemSettings> & { root: string };

/** A folder of every format, nested folders, a hidden file and a file of another type. */
async function makeTree(t: ExecutionContext): Promise<string> {
  const root = testFolder(t, 'fs-source');
  const write = (relative: string, content: string | Uint8Array) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  };
  write(
    'index.html',
    '<html lang="en"><head><title>Home page</title><meta name="description" content="The start"></head><body><p>Welcome home</p></body></html>',
  );
  write('guide/install.md', '# Install guide\n\nRun the *installer*.');
  write('guide/notes.txt', 'plain notes');
  write(
    'reports/2024.pdf',
    await makePdf({ title: 'Report 2024', author: 'Finance', pages: [['Profit rose'], ['Costs fell sharply']] }),
  );
  write('reports/minutes.docx', await makeDocx({ heading: 'Minutes', paragraphs: ['We met.'] }));
  write('drafts/wip.md', '# Work in progress');
  write('images/logo.gif', Buffer.from('GIF89a', 'latin1'));
  write('.hidden/secret.txt', 'hidden folder');
  write('guide/.env.txt', 'hidden file');
  return root;
}

const docs = (items: Awaited<ReturnType<typeof readAll>>) => items.filter((i): i is SourceDocument => !isReadError(i));
const ids = (items: Awaited<ReturnType<typeof readAll>>) => items.map((i) => i.id);

test('every supported file becomes a document with id = path relative to the root, in name order', async (t) => {
  const root = await makeTree(t);
  const items = await readAll<Settings>(filesystemSourceKind, { root });
  t.deepEqual(
    ids(items),
    ['drafts/wip.md', 'guide/install.md', 'guide/notes.txt', 'index.html', 'reports/2024.pdf', 'reports/minutes.docx'],
    'the GIF (extension not listed) and hidden files and folders are left out',
  );
  t.false(items.some(isReadError));
});

test('a document carries title, text, file URL, path, content type, modification date, size and metadata', async (t) => {
  const root = await makeTree(t);
  const when = new Date('2024-03-01T10:00:00.000Z');
  utimesSync(path.join(root, 'reports/2024.pdf'), when, when);
  const items = docs(await readAll<Settings>(filesystemSourceKind, { root }));
  const pdf = items.find((d) => d.id === 'reports/2024.pdf')!;
  const absolute = path.join(root, 'reports/2024.pdf');
  t.like(pdf.attributes, {
    title: 'Report 2024',
    text: 'Profit rose\nCosts fell sharply',
    url: pathToFileURL(absolute).href,
    path: absolute,
    contentType: 'application/pdf',
    modificationDate: '2024-03-01T10:00:00.000Z',
    author: 'Finance',
    pageCount: 2,
  });
  t.true((pdf.attributes.size as number) > 500);
  t.like(items.find((d) => d.id === 'index.html')!.attributes, {
    title: 'Home page',
    text: 'Welcome home',
    description: 'The start',
    language: 'en',
    contentType: 'text/html',
  });
  t.like(items.find((d) => d.id === 'guide/install.md')!.attributes, {
    title: 'Install guide',
    text: 'Install guide\nRun the installer.',
  });
  t.like(
    items.find((d) => d.id === 'guide/notes.txt')!.attributes,
    { title: 'notes', text: 'plain notes', contentType: 'text/plain' },
    'a file without a title is named after itself',
  );
  t.like(items.find((d) => d.id === 'reports/minutes.docx')!.attributes, {
    title: 'Minutes',
    text: 'Minutes\nWe met.',
  });
});

test('include and exclude take globs and /regular expressions/; an excluded folder is not entered', async (t) => {
  const root = await makeTree(t);
  t.deepEqual(ids(await readAll<Settings>(filesystemSourceKind, { root, include: ['**/*.md'] })), [
    'drafts/wip.md',
    'guide/install.md',
  ]);
  t.deepEqual(
    ids(await readAll<Settings>(filesystemSourceKind, { root, include: ['*.md', '*.html'], exclude: ['drafts'] })),
    ['guide/install.md', 'index.html'],
    'patterns without a slash match the file or folder name',
  );
  t.deepEqual(
    ids(await readAll<Settings>(filesystemSourceKind, { root, exclude: ['/^(guide|drafts)\\//', '/\\.DOCX$/i'] })),
    ['index.html', 'reports/2024.pdf'],
  );
  t.deepEqual(ids(await readAll<Settings>(filesystemSourceKind, { root, extensions: ['.TXT'], includeHidden: true })), [
    '.hidden/secret.txt',
    'guide/.env.txt',
    'guide/notes.txt',
  ]);
});

test('unreadable files are yielded as read errors, and the rest of the folder is still read', async (t) => {
  const root = await makeTree(t);
  writeFileSync(path.join(root, 'guide/broken.pdf'), '%PDF-1.7 this is not really a PDF');
  writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(100_000));
  const items = await readAll<Settings>(filesystemSourceKind, { root, maxFileSize: 50_000 });
  const errors = items.filter(isReadError);
  t.deepEqual(
    errors.map((e) => e.id),
    ['big.txt', 'guide/broken.pdf'],
  );
  t.is(errors[0]!.error, 'file is 100000 bytes, over maxFileSize 50000');
  t.regex(errors[1]!.error, /^corrupt_content: the PDF cannot be read/);
  t.is(docs(items).length, 6);
});

test('symbolic links are skipped by default; when followed, a link loop ends and each folder is read once', async (t) => {
  const root = await makeTree(t);
  symlinkSync(path.join(root, 'guide/notes.txt'), path.join(root, 'linked-notes.txt'));
  symlinkSync(root, path.join(root, 'guide/loop'));
  symlinkSync(path.join(root, 'missing.txt'), path.join(root, 'dangling.txt'));
  const plain = ids(await readAll<Settings>(filesystemSourceKind, { root }));
  t.false(plain.includes('linked-notes.txt'));
  t.false(plain.some((id) => id.includes('loop')));
  const followed = ids(await readAll<Settings>(filesystemSourceKind, { root, followSymlinks: true }));
  t.true(followed.includes('linked-notes.txt'));
  t.false(
    followed.some((id) => id.startsWith('guide/loop/')),
    'the loop back to the root is not entered',
  );
  t.false(followed.includes('dangling.txt'));
});

test('onlyIds reads just those files; a vanished one is not yielded and a path outside the root is an error', async (t) => {
  const root = await makeTree(t);
  const items = await readAll<Settings>(
    filesystemSourceKind,
    { root },
    { onlyIds: ['guide/notes.txt', 'gone.md', '../etc/passwd', 'drafts/wip.md', 'images/logo.gif'] },
  );
  t.deepEqual(ids(items), ['guide/notes.txt', '../etc/passwd', 'drafts/wip.md']);
  t.deepEqual(items[1], { id: '../etc/passwd', error: 'not a path inside the source root folder' });
  t.is((items[0] as SourceDocument).attributes.text, 'plain notes');
});

test('a cancelled run throws instead of ending as if complete', async (t) => {
  const root = await makeTree(t);
  const controller = new AbortController();
  const seen: string[] = [];
  await t.throwsAsync(
    async () => {
      for await (const item of filesystemSourceKind.read(
        readContext({ root } as FilesystemSettings, { signal: controller.signal }),
      )) {
        seen.push(item.id);
        controller.abort(new Error('run cancelled'));
      }
    },
    { message: 'run cancelled' },
  );
  t.deepEqual(seen, ['drafts/wip.md']);
});

test('a missing root folder or invalid settings fail the run with a message naming the problem', async (t) => {
  await t.throwsAsync(
    readAll<Settings>(filesystemSourceKind, { root: path.join(os.tmpdir(), 'vela-no-such-folder-7') }),
    {
      message: /cannot read root folder .*vela-no-such-folder-7/,
    },
  );
  await t.throwsAsync(readAll(filesystemSourceKind, { root: '/tmp', maxFileSize: 'big' } as unknown as Settings), {
    message: /settings\.maxFileSize must be of type integer/,
  });
  await t.throwsAsync(readAll<Settings>(filesystemSourceKind, { root: '/tmp', include: ['/(unclosed/'] }), {
    message: /pattern \/\(unclosed\/ is not a valid regular expression/,
  });
});
