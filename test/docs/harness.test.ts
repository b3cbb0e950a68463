import test from 'ava';
import { packageRoot } from '../../runtime/paths.js';
import { extractExamples } from './doc-blocks.js';
import { linkProblems } from './doc-links.js';
import { DocSandbox } from './doc-sandbox.js';
import { matchOutput } from './output-match.js';

// The docs test is only as strict as its parts: these pin what they accept and what they refuse.

test('script blocks: a compound command is one command, its `# ` lines its output', (t) => {
  const md = [
    '```sh',
    "for q in a 'b c'; do",
    '  echo done',
    'done',
    'if true; then echo fi; fi',
    '# fi',
    'curl -s x \\',
    '  -d y   # a comment, not output',
    '```',
    '',
    '```json',
    '{"a":1}',
    '```',
  ].join('\n');
  const { blocks, problems } = extractExamples(md);
  t.deepEqual(problems, []);
  t.deepEqual(
    blocks[0]?.commands.map((c) => [c.line, c.text, c.expected]),
    [
      [2, "for q in a 'b c'; do\n  echo done\ndone", null],
      [5, 'if true; then echo fi; fi', 'fi'],
      [7, 'curl -s x \\\n  -d y   # a comment, not output', '{"a":1}'],
    ],
  );
});

test('prompt blocks, skip markers, and markers the harness does not know', (t) => {
  const md = [
    '<!-- docs-test: skip (starts the servers) -->',
    '```sh',
    'npm start',
    '```',
    '```sh',
    '$ echo one',
    'one',
    '$ true',
    '```',
    '<!-- docs-test: skip -->',
    '```sh',
    'echo two',
    '```',
  ].join('\n');
  const { blocks, problems } = extractExamples(md);
  t.is(blocks[0]?.skip, 'starts the servers');
  t.deepEqual(
    blocks[1]?.commands.map((c) => [c.text, c.expected]),
    [
      ['echo one', 'one'],
      ['true', null],
    ],
  );
  t.is(blocks[2]?.skip, undefined);
  t.is(problems.length, 1);
});

test('JSON is compared by structure: `...` stands for members and elements left out, not for differences', (t) => {
  t.is(matchOutput('{"a":1,...}', '{"b":2,"a":1}'), null);
  t.is(matchOutput('{"list":[{"n":1},...]}', '{"list":[{"n":1},{"n":2}]}'), null);
  t.regex(matchOutput('{"a":1}', '{"a":1,"b":2}') ?? '', /members not shown in the document: b=2/);
  t.regex(matchOutput('{"a":1,...}', '{"a":2}') ?? '', /\$\.a: expected 1, got 2/);
  t.regex(matchOutput('[1,2]', '[1,2,3]') ?? '', /expected 2 elements, got 3/);
  t.regex(matchOutput('{"a":1}', 'curl: (7) Failed to connect') ?? '', /expected JSON/);
});

test('values that differ on every run are compared by kind, a shortened UUID included', (t) => {
  const id = 'f41cc72e-b02d-4e2d-9929-2b0e55c64c21';
  t.is(
    matchOutput(
      '{"id":"1239172c-...","at":"2026-11-23T01:11:56.493Z","responseTime":4}',
      `{"id":"${id}","at":"2027-01-02T03:04:05.000Z","responseTime":1}`,
    ),
    null,
  );
  t.is(matchOutput('{"id":"1239172c-4a5b-...","n":1}', `{"id":"${id}","n":1}`), null);
  t.regex(matchOutput('{"id":"1239172c-..."}', '{"id":"not-an-id"}') ?? '', /\$\.id/);
  t.regex(matchOutput('{"count":3}', '{"count":4}') ?? '', /\$\.count: expected 3, got 4/);
  // A token with no digit in it is still a token, and one of another length is not the same token.
  t.is(
    matchOutput('{"csrfToken":"3zxjtP7WWZd5zHjc54g482B9NhWM4_Lx"}', '{"csrfToken":"x-CLTWEHtNyxWYTnbGUmIlFUMMzSGlLP"}'),
    null,
  );
  t.regex(
    matchOutput(
      '{"csrfToken":"3zxjtP7WWZd5zHjc54g482B9NhWM4_Lx"}',
      '{"csrfToken":"x-CLTWEHtNyxWYTnbGUmIlFUMMzSGlLPQ"}',
    ) ?? '',
    /csrfToken/,
  );
});

test('HTTP answers: status line, the headers shown, the body; interim 1xx answers are passed over', (t) => {
  const shown = 'HTTP/1.1 413 Payload Too Large\n\n{"error":"payload_too_large",...}';
  const answer = (status: string) =>
    `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 ${status}\r\nContent-Type: application/json\r\n\r\n{"error":"payload_too_large","message":"x"}`;
  t.is(matchOutput(shown, answer('413 Payload Too Large')), null);
  t.regex(matchOutput(shown, answer('200 OK')) ?? '', /status line/);
  t.regex(
    matchOutput(
      'HTTP/1.1 405 Method Not Allowed\nAllow: GET\n',
      'HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\n\r\n',
    ) ?? '',
    /header allow/,
  );
});

test('text is compared line by line, whitespace runs collapsed, `...` matching anything', (t) => {
  t.is(matchOutput('NAME   VERSION\ncms 1.0.0\n...', 'NAME VERSION\ncms    1.0.0\nconnector 1.0.0\n'), null);
  t.regex(matchOutput('one\ntwo', 'one\nthree') ?? '', /line 2: expected "two", got "three"/);
});

test('the sandbox maps documented folders once, so a path already in the sandbox is left alone', async (t) => {
  const sandbox = new DocSandbox();
  try {
    t.is(
      sandbox.rewrite('/srv/vela/dist/a.tgz /tmp/x /opt/vela/p'),
      `${sandbox.work}/dist/a.tgz ${sandbox.work}/tmp/x ${sandbox.work}/opt/vela/p`,
    );
    t.is(sandbox.rewrite('localhost:2700 stays when no runtime runs'), 'localhost:2700 stays when no runtime runs');
  } finally {
    await sandbox.close();
  }
});

test('links: only files of the repository and the local services; no machine paths, no ../shared', (t) => {
  const md = [
    'See [the README](../README.md), [search](search-guide.md#the-console), <http://localhost:2700/sn/Sample>.',
    'Not [tsx](https://tsx.is), nor https://example.org/page, nor [spec](../../shared/spec/x.md), nor [gone](nope.md).',
    'Built on /work/main/docs.',
    '`https://in.code/is-fine` and',
    '```sh',
    'zcat ../shared/corpus/debian.jsonl.gz | head',
    '```',
  ].join('\n');
  t.deepEqual(linkProblems(packageRoot, 'docs/x.md', md), [
    "docs/x.md:3: a path of a developer's machine (/work/...): Built on /work/main/docs.",
    'docs/x.md: a link outside the repository: https://tsx.is (copy what the reader needs into docs/)',
    'docs/x.md: a link outside the repository: ../../shared/spec/x.md',
    'docs/x.md: a link to a file the repository does not have: nope.md',
    'docs/x.md: a link outside the repository: https://example.org/page (copy what the reader needs into docs/)',
    'docs/x.md:6: runs on ../shared, which is not part of the repository',
  ]);
});
