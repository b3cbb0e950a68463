import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { parseSecretKey, SecretBox, secretHint } from '../../runtime/secrets/secret-box.js';

test('the key file is made once, private to the user, and the same key opens what it sealed', async (t) => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'vela-secrets-')), 'search');
  const box = await SecretBox.open(dir, {});
  t.is(box.source, 'file');
  const file = path.join(dir, 'secret.key');
  t.is(statSync(file).mode & 0o777, 0o600);
  const sealed = box.encrypt('the connector key', 'row-1:key');
  t.regex(sealed, /^v1:[A-Za-z0-9+/]+=*$/);
  t.false(sealed.includes('connector'));
  const again = await SecretBox.open(dir, {});
  t.is(again.decrypt(sealed, 'row-1:key'), 'the connector key', 'a second open reads the same key');
  t.is(readFileSync(file, 'utf8').trim().length, 44);
});

test('a value is bound to what it belongs to, and any change to it (or another key) fails to open it', async (t) => {
  const box = SecretBox.withKey(Buffer.alloc(32, 7));
  const sealed = box.encrypt('secret value', 'integration:a:key');
  t.is(box.decrypt(sealed, 'integration:a:key'), 'secret value');
  t.is(box.decrypt(sealed, 'integration:b:key'), null, 'copied to another row');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  raw[raw.length - 20]! ^= 1;
  t.is(box.decrypt(`v1:${raw.toString('base64')}`, 'integration:a:key'), null, 'altered');
  t.is(SecretBox.withKey(Buffer.alloc(32, 8)).decrypt(sealed, 'integration:a:key'), null, 'another key');
  t.is(box.decrypt('plain text', 'integration:a:key'), null);
  t.not(box.encrypt('secret value', 'x'), box.encrypt('secret value', 'x'), 'a fresh IV each time');
});

test('the key can come from an environment variable, as hex or base64; a malformed one stops with a message naming it', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vela-secrets-'));
  const hex = 'ab'.repeat(32);
  const fromEnv = await SecretBox.open(dir, { VELA_SECRET_KEY: hex });
  t.is(fromEnv.source, 'environment');
  const sealed = fromEnv.encrypt('v', 'b');
  const base64 = Buffer.from(hex, 'hex').toString('base64');
  t.is((await SecretBox.open(dir, { OTHER: base64 }, { variable: 'OTHER' })).decrypt(sealed, 'b'), 'v');
  await t.throwsAsync(SecretBox.open(dir, { VELA_SECRET_KEY: 'short' }), {
    message: /VELA_SECRET_KEY must be 32 bytes/,
  });
  t.is(parseSecretKey('zz'), null);
  t.is(secretHint('0123456789abcdef'), '…cdef');
  t.is(secretHint('short'), '…');
});

test("a former key file starts the plugin's own as a copy, left in place; an own key file, or none to copy, is kept as it is", async (t) => {
  const data = mkdtempSync(path.join(os.tmpdir(), 'vela-secrets-'));
  const former = path.join(data, 'search', 'secret.key');
  const sealed = (await SecretBox.open(path.dirname(former), {})).encrypt('the connector key', 'row-1:key');
  const own = path.join(data, 'integration');
  const box = await SecretBox.open(own, {}, { formerFile: former });
  t.is(box.decrypt(sealed, 'row-1:key'), 'the connector key', 'the copy opens what the former key sealed');
  t.is(readFileSync(path.join(own, 'secret.key'), 'utf8'), readFileSync(former, 'utf8'));
  t.is(statSync(path.join(own, 'secret.key')).mode & 0o777, 0o600);
  t.true(existsSync(former), 'the former file stays for whoever still uses it');
  t.deepEqual(readdirSync(own), ['secret.key'], 'nothing is left aside');

  // Once the plugin has a key of its own, a different former one is not taken.
  writeFileSync(former, `${Buffer.alloc(32, 9).toString('base64')}\n`);
  t.is((await SecretBox.open(own, {}, { formerFile: former })).decrypt(sealed, 'row-1:key'), 'the connector key');
  // No former file: a new key, as without the option.
  const fresh = path.join(data, 'fresh');
  const made = await SecretBox.open(fresh, {}, { formerFile: path.join(data, 'missing', 'secret.key') });
  t.is(made.decrypt(sealed, 'row-1:key'), null);
  // Two processes starting at once on one data folder: both end with the one copied key.
  const twin = path.join(data, 'twin');
  const [a, b] = await Promise.all([
    SecretBox.open(twin, {}, { formerFile: former }),
    SecretBox.open(twin, {}, { formerFile: former }),
  ]);
  const check = SecretBox.withKey(Buffer.alloc(32, 9)).encrypt('x', 'y');
  t.is(a.decrypt(check, 'y'), 'x');
  t.is(b.decrypt(check, 'y'), 'x');
  // A former file that holds no key stops the start with a message naming it.
  writeFileSync(former, 'not a key\n');
  const error = await t.throwsAsync(SecretBox.open(path.join(data, 'bad'), {}, { formerFile: former }));
  t.true(error!.message.includes(former));
});
