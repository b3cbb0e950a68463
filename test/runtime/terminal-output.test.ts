import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import test from 'ava';
import { renderStartBanner, type StartLinks } from '../../runtime/cli/start-banner.js';
import { createLogger, resolveLogFormat } from '../../runtime/logger.js';
import { childEnv, startChildRuntime } from '../../runtime/testing/child-runtime.js';

function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

const links: StartLinks = {
  services: [
    { name: 'connector', url: 'http://127.0.0.1:30130/', landing: 'the status page', listening: '127.0.0.1:30130' },
    { name: 'search', url: 'http://127.0.0.1:2700/', landing: 'the admin console', listening: '127.0.0.1:2700' },
  ],
  sample: 'http://127.0.0.1:2700/sn/Sample',
  swaggerUi: ['http://127.0.0.1:30130/swagger-ui.html', 'http://127.0.0.1:2700/swagger-ui.html'],
  admin: { user: 'admin', generatedPassword: 'Xq7-generated-pw' },
};

test('the start banner names every service, the sample and Swagger UI, and frames a generated password', (t) => {
  const banner = renderStartBanner(links);
  t.regex(banner, /search\s+http:\/\/127\.0\.0\.1:2700\/\s+the admin console\n/);
  t.regex(banner, /connector\s+http:\/\/127\.0\.0\.1:30130\/\s+the status page\n/);
  t.regex(banner, /Try the sample search:\s+http:\/\/127\.0\.0\.1:2700\/sn\/Sample/);
  t.regex(banner, /http:\/\/127\.0\.0\.1:2700\/swagger-ui\.html/);
  t.notRegex(banner, /every address/, 'a loopback listener is not called open');
  const framed = banner.split('\n').filter((line) => line.includes('│'));
  t.true(
    framed.some((line) => line.includes('Xq7-generated-pw')),
    'the password is inside the frame',
  );
  const withoutPassword = renderStartBanner({ ...links, admin: { user: 'admin', generatedPassword: null } });
  t.notRegex(withoutPassword, /Password:/);
});

test('the start banner says which services listen on every address, not only on this machine', (t) => {
  const open = renderStartBanner({
    ...links,
    services: [links.services[0]!, { ...links.services[1]!, listening: '0.0.0.0:2700' }],
  });
  t.regex(open, /search\s+http:\/\/127\.0\.0\.1:2700\/\s+the admin console \(listening on 0\.0\.0\.0:2700\)/);
  t.regex(open, /connector\s+http:\/\/127\.0\.0\.1:30130\/\s+the status page\n/);
  t.regex(open, /Listening on every address: reachable from other machines/);
});

test('pretty lines are read by a person: level, who logged, message, the boot tree drawn', (t) => {
  const out = capture();
  const logger = createLogger({ level: 'info', format: 'pretty', destination: out.stream });
  logger.child({ plugin: 'connector' }).info({ source: 'sample' }, 'indexing run ended');
  logger.info({ bootTree: { services: [] } }, 'vela started in 9 ms\n└─ search http://127.0.0.1:2700');
  const lines = out.text().split('\n');
  t.false(out.text().includes('{"level"'), 'no JSON lines');
  t.regex(lines[0]!, /INFO: connector: indexing run ended .*source.*sample/);
  t.true(lines.includes('└─ search http://127.0.0.1:2700'), 'the tree is drawn, not escaped');
  t.false(out.text().includes('"bootTree"'), "the tree's data is not repeated");
});

test('auto is JSON whenever lines go anywhere but a terminal', (t) => {
  t.is(resolveLogFormat('auto', capture().stream), 'json');
  t.is(resolveLogFormat('json'), 'json');
  t.is(resolveLogFormat('pretty', capture().stream), 'pretty');
});

test('not on a terminal, vela start writes JSON lines, with one line of the links to open', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vela-terminal-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = await startChildRuntime(['--plugins', 'search', '--no-seed', '--data-dir', dataDir], childEnv());
  try {
    const ready = await new Promise<Record<string, unknown>>((resolve) => {
      const look = () => {
        const line = child
          .output()
          .split('\n')
          .find((l) => l.includes('"ready: open'));
        if (line) resolve(JSON.parse(line) as Record<string, unknown>);
        else setTimeout(look, 50);
      };
      look();
    });
    for (const line of child.output().split('\n').filter(Boolean)) t.notThrows(() => JSON.parse(line), line);
    t.like(ready, { sample: null });
    t.deepEqual(
      (ready.services as Array<{ name: string }>).map((s) => s.name),
      ['search'],
    );
    t.false(JSON.stringify(ready).includes('child-test-password'));
  } finally {
    await child.stop();
  }
});
