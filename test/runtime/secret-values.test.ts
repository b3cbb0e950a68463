import { Writable } from 'node:stream';
import test from 'ava';
import { loadConfig } from '../../runtime/config/load-config.js';
import { isCredentialAddressMember, isSecretMember, maskUrlPasswords, shownAddress } from '../../runtime/config/secret-values.js';
import { createLogger } from '../../runtime/logger.js';

const messageOf = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig({ env });
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

test('a too short administrator password is named with its rule, never shown', (t) => {
  const message = messageOf({ VELA_ADMIN_PASSWORD: 'short' });
  t.regex(message, /runtime\.admin\.password must be at least 8 characters long/);
  t.false(message.includes('short"'), message);
  t.false(message.includes('"short'), message);
});

test('the password in a database URL is masked in a configuration error', (t) => {
  const message = messageOf({ DATABASE_URL: 'mysql://vela:hunter2@db.internal/vela' });
  t.regex(message, /runtime\.database\.url must match/);
  t.false(message.includes('hunter2'), message);
  t.true(message.includes('mysql://vela:***@db.internal/vela'));
});

test('a database URL without a scheme is named with its rule, never shown', (t) => {
  const message = messageOf({ DATABASE_URL: 'notaurl:SuperSecretPw' });
  t.regex(message, /runtime\.database\.url must match .*not shown \(it may carry credentials\)/);
  t.false(message.includes('SuperSecretPw'), message);
  t.false(message.includes('notaurl'), message);
});

test('a database URL whose password holds @ or / is masked whole', (t) => {
  const message = messageOf({ DATABASE_URL: 'mysql://vela:p@ss/w0rd@db.internal/vela' });
  t.regex(message, /runtime\.database\.url must match/);
  t.false(message.includes('ss/w0rd'), message);
  t.false(message.includes('p@ss'), message);
  t.true(message.includes('mysql://vela:***@db.internal/vela'), message);
});

test('addresses are shown with their password masked, or not at all', (t) => {
  for (const path of ['runtime.database.url', 'plugins.x.sources[0].uri', 'y.dsn', 'z.connectionString', 'plugins.gateway.publicUrl'])
    t.true(isCredentialAddressMember(path), path);
  for (const path of ['runtime.database.pool', 'services.search.host', 'plugins.search.urlPattern']) t.false(isCredentialAddressMember(path), path);
  t.is(shownAddress('postgres://vela@127.0.0.1:5432/vela'), 'postgres://vela@127.0.0.1:5432/vela');
  t.is(shownAddress('postgres://vela:a:b@c@h/db'), 'postgres://vela:***@h/db');
  t.is(shownAddress('vela:secret@h/db'), undefined);
});

test('secret members are recognised by name', (t) => {
  for (const path of ['runtime.admin.password', 'plugins.connector.apiKeys[0]', 'plugins.connector.search.key', 'x.clientSecret', 'token'])
    t.true(isSecretMember(path), path);
  for (const path of ['runtime.admin.user', 'services.search.port', 'plugins.search.keyword']) t.false(isSecretMember(path), path);
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
  logger.error({ err: new Error('connect ECONNREFUSED postgres://vela:s3cret@127.0.0.1:5432/vela') }, 'database unreachable');
  logger.info({ password: 'p', headers: { authorization: 'Basic x' } }, 'redacted members');
  t.false(text.includes('s3cret'), text);
  t.true(text.includes('postgres://vela:***@127.0.0.1:5432/vela'));
  t.false(text.includes('"p"'));
  t.false(text.includes('Basic x'));
});
