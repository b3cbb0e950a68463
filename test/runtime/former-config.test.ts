import test from 'ava';
import pino from 'pino';
import { moveFormerConfig } from '../../runtime/config/former-config.js';
import type { PluginManifest } from '../../runtime/plugins/manifest.js';

const manifest = (name: string, formerConfig: string[] = []): PluginManifest => ({
  name,
  version: '1.0.0',
  runtime: '^1.0.0',
  main: './index.ts',
  service: 'search',
  dependsOn: [],
  optionalDependencies: [],
  consumes: [],
  provides: [],
  hooks: [],
  formerConfig,
});

function capture() {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line).msg) });
  return { logger, lines };
}

test('a setting at its former place becomes the split-out plugin section, leaves the old one, and the operator is told', (t) => {
  const { logger, lines } = capture();
  const sections = { search: { engine: 'memory', ocr: { maxPending: 3 } } };
  const moved = moveFormerConfig(sections, [manifest('search'), manifest('ocr', ['search.ocr'])], logger);
  t.deepEqual(moved, { search: { engine: 'memory' }, ocr: { maxPending: 3 } });
  t.deepEqual(sections.search, { engine: 'memory', ocr: { maxPending: 3 } }, 'the loaded config is not changed');
  t.deepEqual(lines, ['plugins.search.ocr is read as plugins.ocr, where these settings belong now; move it there']);
});

test('the plugin own section wins over its former place, which is still removed from the old section', (t) => {
  const { logger, lines } = capture();
  const moved = moveFormerConfig(
    { search: { ocr: { maxPending: 3 } }, ocr: { maxPending: 9 } },
    [manifest('ocr', ['search.ocr'])],
    logger,
  );
  t.deepEqual(moved, { search: {}, ocr: { maxPending: 9 } });
  t.regex(lines[0] ?? '', /plugins\.search\.ocr is ignored: plugins\.ocr is set/);
});

test('nothing moves, and nothing is said, when the former place is empty', (t) => {
  const { logger, lines } = capture();
  const sections = { search: { engine: 'memory' } };
  t.deepEqual(
    moveFormerConfig(sections, [manifest('ocr', ['search.ocr']), manifest('graphql', ['search.graphql'])], logger),
    sections,
  );
  t.deepEqual(lines, []);
});
