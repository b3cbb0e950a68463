import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { ignoreMatcher } from '../rules/ignore-rules.js';
import { type JsonlSettings, jsonlSourceKind, MAX_LINE_BYTES } from '../sources/jsonl/jsonl-kind.js';
import { mapRecord } from '../sources/jsonl/record-mapping.js';
import { readAll, readContext } from './fixtures/read-context.js';
import { tempDir, writeJsonl } from './helpers.js';

const settings = (file: string, extra: Partial<JsonlSettings> = {}): JsonlSettings => ({
  path: file,
  idField: 'id',
  ...extra,
});

test('a record maps to attributes by member name, dotted path and template, with the id as a string', (t) => {
  const mapped = mapRecord(
    { sku: 7, name: 'Shoe & sock', meta: { color: 'red' }, empty: '' },
    {
      idField: 'sku',
      fields: {
        title: 'name',
        color: 'meta.color',
        url: { template: 'https://shop.example/p/{sku}?n={name}' },
        blank: 'empty',
        absent: 'nothing',
      },
    },
  );
  t.deepEqual(mapped, {
    id: '7',
    attributes: { title: 'Shoe & sock', color: 'red', url: 'https://shop.example/p/7?n=Shoe%20%26%20sock', id: '7' },
  });
});

test('without fields every member is sent; a record without an id or not an object is an error', (t) => {
  t.deepEqual(mapRecord({ id: 'a', x: [1, 2] }, { idField: 'id' }), { id: 'a', attributes: { id: 'a', x: [1, 2] } });
  t.deepEqual(mapRecord({ x: 1 }, { idField: 'id' }), { error: 'member "id" (the id) is missing or empty' });
  t.deepEqual(mapRecord({ id: '  ' }, { idField: 'id' }), { error: 'member "id" (the id) is missing or empty' });
  t.deepEqual(mapRecord([1], { idField: 'id' }), { error: 'the line is not a JSON object' });
  t.like(mapRecord({ id: 'b', lang: 'pt_BR' }, { idField: 'id', localeField: 'lang' }), { id: 'b', locale: 'pt_BR' });
});

test('the jsonl kind reads plain and gzipped files alike, skips blank lines, reports bad lines and honours onlyIds', async (t) => {
  const dir = tempDir();
  const lines = ['{"id":"a","v":1}', '', '{"id":"b","v":2}', 'not json', '{"v":3}', '{"id":"c","v":4}'];
  writeJsonl(path.join(dir, 'plain.jsonl'), lines);
  writeJsonl(path.join(dir, 'packed.jsonl.gz'), lines);
  // gzip content under a name without .gz: recognised by its first bytes.
  writeFileSync(path.join(dir, 'packed.data'), gzipSync(lines.join('\n')));
  for (const name of ['plain.jsonl', 'packed.jsonl.gz', 'packed.data']) {
    const items = await readAll(jsonlSourceKind, settings(path.join(dir, name)));
    t.deepEqual(
      items.map((i) => ('error' in i ? `error:${i.error}` : i.id)),
      [
        'a',
        'b',
        'error:line 4 is not valid JSON (8 characters)',
        'error:line 5: member "id" (the id) is missing or empty',
        'c',
      ],
      name,
    );
  }
  const only = await readAll(jsonlSourceKind, settings(path.join(dir, 'plain.jsonl')), { onlyIds: ['c', 'zzz'] });
  t.deepEqual(
    only.filter((i) => !('error' in i)).map((i) => i.id),
    ['c'],
  );
});

test('a missing file fails the read (the run fails and de-indexes nothing)', async (t) => {
  const error = await t.throwsAsync(readAll(jsonlSourceKind, settings(path.join(tempDir(), 'missing.jsonl'))));
  t.regex(error!.message, /ENOENT/);
});

test('a path that is a folder or a device, or a file without line breaks, fails the read instead of the process', async (t) => {
  t.regex((await t.throwsAsync(readAll(jsonlSourceKind, settings(tempDir()))))!.message, /is not a file/);
  t.regex(
    (await t.throwsAsync(readAll(jsonlSourceKind, settings('/dev/zero'))))!.message,
    /^settings\.path \/dev\/zero is not a file/,
  );
  // One line past the limit (gzipped, so a small file unpacks into it): the read fails, naming the line.
  const file = path.join(tempDir(), 'one-line.jsonl.gz');
  writeFileSync(
    file,
    gzipSync(Buffer.concat([Buffer.from('{"id":"1"}\n{"id":"2"}\n'), Buffer.alloc(MAX_LINE_BYTES + 1, 0x61)])),
  );
  const items: unknown[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const item of jsonlSourceKind.read(readContext(settings(file)))) items.push(item);
  });
  t.is(error!.message, `line 3 is longer than ${MAX_LINE_BYTES} bytes: the file is not JSON lines`);
  t.is(items.length, 2);
});

test('an aborted read stops with the abort reason', async (t) => {
  const file = writeJsonl(
    path.join(tempDir(), 'many.jsonl'),
    Array.from({ length: 5000 }, (_, i) => ({ id: String(i) })),
  );
  const controller = new AbortController();
  let seen = 0;
  const error = await t.throwsAsync(async () => {
    for await (const _ of jsonlSourceKind.read(readContext(settings(file), { signal: controller.signal }))) {
      seen += 1;
      if (seen === 10) controller.abort(new Error('stop now'));
    }
  });
  t.is(error!.message, 'stop now');
  t.true(seen < 5000);
});

test('IGNORE rule values match from the start of the value, any value of a list, and only their attribute', (t) => {
  const matcher = ignoreMatcher([
    {
      id: '1',
      name: 'drafts',
      description: '',
      source: 's',
      attribute: 'url',
      ruleType: 'IGNORE',
      values: ['https://x\\.example/drafts/'],
      lastModifiedDate: '',
    },
    {
      id: '2',
      name: 'tags',
      description: '',
      source: 's',
      attribute: 'tags',
      ruleType: 'IGNORE',
      values: ['secret'],
      lastModifiedDate: '',
    },
  ]);
  t.is(matcher.match({ url: 'https://x.example/drafts/1' }), 'drafts');
  t.is(matcher.match({ url: 'see https://x.example/drafts/1' }), null, 'anchored at the start');
  t.is(matcher.match({ tags: ['public', 'secret-ish'] }), 'tags');
  t.is(matcher.match({ tags: ['public'], title: 'secret' }), null);
  t.is(matcher.match({}), null);
});
