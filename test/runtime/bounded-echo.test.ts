import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import test from 'ava';
import knexFactory from 'knex';
import { createLogger } from '../../runtime/logger.js';
import { startTestRuntime } from '../../runtime/testing/test-runtime.js';

test('a failed statement with a megabyte value is logged as a bounded excerpt, not whole', async (t) => {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  });
  const db = knexFactory({
    client: 'sqlite3',
    connection: { filename: path.join(mkdtempSync(path.join(os.tmpdir(), 'vela-log-')), 'x.sqlite') },
    useNullAsDefault: true,
  });
  t.teardown(() => db.destroy());
  const huge = 'v'.repeat(1_000_000);
  const error = await t.throwsAsync(db('missing_table').insert({ value: huge }));
  t.true(String(error?.message).length > 1_000_000, 'knex quotes the whole statement with its values');
  logger.error({ err: error }, 'request failed');
  t.is(lines.length, 1);
  t.true(lines[0]!.length < 10_000, `log line of ${lines[0]!.length} characters`);
  t.regex(lines[0]!, /more characters/);
  t.regex(lines[0]!, /missing_table/, 'the statement shape stays readable');
});

test('error answers quote at most an excerpt of what the client sent', async (t) => {
  const vela = await startTestRuntime({ plugins: ['search', 'gateway'] });
  t.teardown(() => vela.stop());
  const long = 'c'.repeat(60_000);
  const authorize = await vela.fetch(
    'gateway',
    `/api/authorize?${new URLSearchParams({ response_type: 'code', client_id: long })}`,
  );
  const oauth = await authorize.text();
  t.is(authorize.status, 400);
  t.true(oauth.length < 5_000, `the OAuth2 error was ${oauth.length} characters for a 60,000-character client_id`);
  const site = await vela.fetch('search', '/api/sn', {
    method: 'POST',
    headers: { authorization: vela.adminAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ok', locales: ['en_US'], description: long }),
  });
  const validation = await site.text();
  t.is(site.status, 400);
  t.true(validation.length < 3_000, `the validation error was ${validation.length} characters`);
  t.regex(validation, /body\.description/);
});
