import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import test from 'ava';
import { loadConfig } from '../../runtime/config/load-config.js';
import { validateAgainst } from '../../runtime/config/schema-validation.js';
import { createLogger } from '../../runtime/logger.js';
import {
  isCredentialAddressMember,
  isSecretMember,
  jsonSyntaxProblem,
  maskUrlPasswords,
  redactedValue,
  shownAddress,
} from '../../runtime/secret-values.js';

const messageOf = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig({ env });
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

test('a too short administrator password is named by its variable and member with its rule, never shown', (t) => {
  const message = messageOf({ VELA_ADMIN_PASSWORD: 'short' });
  t.regex(
    message,
    /: VELA_ADMIN_PASSWORD \(runtime\.admin\.password\) must be at least 8 characters long, got a value that is not shown/,
  );
  t.false(message.includes('short"'), message);
  t.false(message.includes('"short'), message);
});

test('the password in a database URL is masked in a configuration error', (t) => {
  const message = messageOf({ DATABASE_URL: 'mysql://vela:hunter2@db.internal/vela' });
  t.regex(message, /DATABASE_URL \(runtime\.database\.url\) must match/);
  t.false(message.includes('hunter2'), message);
  t.true(message.includes('mysql://vela:***@db.internal/vela'));
});

test('a database URL without a scheme is named with its rule, never shown', (t) => {
  const message = messageOf({ DATABASE_URL: 'notaurl:SuperSecretPw' });
  t.regex(message, /DATABASE_URL \(runtime\.database\.url\) must match .*not shown \(it may carry credentials\)/);
  t.false(message.includes('SuperSecretPw'), message);
  t.false(message.includes('notaurl'), message);
});

test('a database URL of user:password@host without a scheme is not echoed', (t) => {
  const message = messageOf({ DATABASE_URL: 'vela:hunter2secret@db.internal/vela' });
  t.regex(message, /DATABASE_URL \(runtime\.database\.url\) must match .*not shown \(it may carry credentials\)/);
  t.false(message.includes('hunter2secret'), message);
  t.false(message.includes('db.internal'), message);
});

test('a problem names the environment variable only where the value came from it', (t) => {
  t.regex(messageOf({ VELA_LOG_LEVEL: 'loud' }), /: VELA_LOG_LEVEL \(runtime\.logLevel\) must be one of /);
  // A list variable's problem names the item.
  t.regex(
    messageOf({ VELA_PLUGINS: 'search,bad\u0000name' }),
    /: VELA_PLUGINS \(runtime\.plugins\[1\]\) must not contain the NUL character/,
  );
  const overridden = t.throws(() => loadConfig({ env: { VELA_LOG_FORMAT: 'json' }, flags: { logFormat: 'loud' } }));
  t.regex(
    overridden?.message ?? '',
    /: runtime\.logFormat must be one of /,
    'the flag, not the variable, gave the value',
  );
  t.notRegex(overridden?.message ?? '', /VELA_LOG_FORMAT/);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-config-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'vela.json');
  writeFileSync(file, JSON.stringify({ runtime: { admin: { password: 'short' } } }));
  const fromFile = t.throws(() => loadConfig({ env: {}, flags: { configFile: file } }));
  t.regex(fromFile?.message ?? '', /: runtime\.admin\.password must be at least 8 characters long/);
});

/** The message of loading `config` as a --config file. */
const fileMessageOf = (config: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-config-'));
  try {
    const file = path.join(dir, 'vela.json');
    writeFileSync(file, config);
    loadConfig({ env: {}, flags: { configFile: file } });
    return '';
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test('a configuration file that is not JSON is located by line and column, its text not quoted', (t) => {
  const unquoted = fileMessageOf(
    '{\n  "runtime": {\n    "logLevel": "info",\n    "admin": {\n      "password": hunter2secret\n    }\n  }\n}\n',
  );
  t.regex(unquoted, /is not valid JSON: unexpected character at line 5, column 19/);
  t.false(unquoted.includes('unter2'), unquoted);
  const short = fileMessageOf('{"password": s3cretpw}');
  t.regex(short, /is not valid JSON/);
  t.false(short.includes('s3cret'), short);
  const missingComma = fileMessageOf('{\n  "runtime": { "admin": { "password": "hunter2secret" "user": "x" } }\n}');
  t.regex(missingComma, /line 2, column \d+/);
  t.false(missingComma.includes('hunter2secret'), missingComma);
});

test('a member of the wrong type is quoted with its secrets hidden', (t) => {
  const message = fileMessageOf(JSON.stringify({ runtime: { admin: ['admin', { password: 'hunter2secret' }] } }));
  t.regex(message, /runtime\.admin must be of type object/);
  t.false(message.includes('hunter2secret'), message);
  const checked = validateAgainst(
    { type: 'object', properties: { database: { type: 'string' } } },
    { database: { url: 'u:pw-in-address@h/db', token: 'tok-value' } },
  );
  t.false(checked.valid);
  t.false(checked.problems.join(' ').includes('pw-in-address'), checked.problems.join(' '));
  t.false(checked.problems.join(' ').includes('tok-value'), checked.problems.join(' '));
});

test('redactedValue hides secret members, masks addresses and keeps the rest', (t) => {
  t.deepEqual(
    redactedValue({
      user: 'admin',
      password: 'p',
      apiKeys: ['k1'],
      database: { url: 'postgres://vela:pw@h/db', dsn: 'vela:pw@h/db' },
      note: 'see mysql://a:b@h/x',
    }),
    {
      user: 'admin',
      password: '***',
      apiKeys: '***',
      database: { url: 'postgres://vela:***@h/db', dsn: '***' },
      note: 'see mysql://a:***@h/x',
    },
  );
  const plain = new SyntaxError('Unexpected end of JSON input');
  t.is(jsonSyntaxProblem(plain, '{'), 'Unexpected end of JSON input');
});

test('a database URL whose password holds @ or / is masked whole', (t) => {
  const message = messageOf({ DATABASE_URL: 'mysql://vela:p@ss/w0rd@db.internal/vela' });
  t.regex(message, /DATABASE_URL \(runtime\.database\.url\) must match/);
  t.false(message.includes('ss/w0rd'), message);
  t.false(message.includes('p@ss'), message);
  t.true(message.includes('mysql://vela:***@db.internal/vela'), message);
});

test('addresses are shown with their password masked, or not at all', (t) => {
  for (const path of [
    'runtime.database.url',
    'plugins.x.sources[0].uri',
    'y.dsn',
    'z.connectionString',
    'plugins.gateway.publicUrl',
  ])
    t.true(isCredentialAddressMember(path), path);
  for (const path of ['runtime.database.pool', 'services.search.host', 'plugins.search.urlPattern'])
    t.false(isCredentialAddressMember(path), path);
  t.is(shownAddress('postgres://vela@127.0.0.1:5432/vela'), 'postgres://vela@127.0.0.1:5432/vela');
  t.is(shownAddress('postgres://vela:a:b@c@h/db'), 'postgres://vela:***@h/db');
  t.is(shownAddress('vela:secret@h/db'), undefined);
});

test('secret members are recognised by name', (t) => {
  for (const path of [
    'runtime.admin.password',
    'plugins.connector.apiKeys[0]',
    'plugins.connector.search.key',
    'x.clientSecret',
    'token',
  ])
    t.true(isSecretMember(path), path);
  for (const path of ['runtime.admin.user', 'services.search.port', 'plugins.search.keyword'])
    t.false(isSecretMember(path), path);
  t.is(maskUrlPasswords('connect postgres://a:b@h:5432/db failed'), 'connect postgres://a:***@h:5432/db failed');
});

test('a logged error never carries the password of a URL it quotes', (t) => {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const logger = createLogger({ level: 'info', format: 'json', destination });
  logger.error(
    { err: new Error('connect ECONNREFUSED postgres://vela:s3cret@127.0.0.1:5432/vela') },
    'database unreachable',
  );
  logger.info({ password: 'p', headers: { authorization: 'Basic x' } }, 'redacted members');
  t.false(text.includes('s3cret'), text);
  t.true(text.includes('postgres://vela:***@127.0.0.1:5432/vela'));
  t.false(text.includes('"p"'));
  t.false(text.includes('Basic x'));
});
