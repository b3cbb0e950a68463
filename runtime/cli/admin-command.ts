import { existsSync } from 'node:fs';
import path from 'node:path';
import { Accounts } from '../auth/accounts.js';
import { type ConfigFlags, loadConfig, type RuntimeConfig } from '../config/load-config.js';
import { VelaError } from '../errors.js';
import { createLogger } from '../logger.js';
import { createDatabase, SQLITE_FILE } from '../storage/database.js';

/** What a password may be: what the configuration asks of `runtime.admin.password`, and what sign-in accepts. */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 4096;
const USER = /^[A-Za-z0-9._@-]{1,64}$/;

const failure = (message: string) => new VelaError('E_ADMIN', message);

/**
 * `vela admin reset-password`: a new password for an administrator of the configured database, read from
 * VELA_ADMIN_PASSWORD when it is set, else from standard input (a prompt without echo on a terminal, the
 * first line when piped). Never from the command line, where other users and the shell's history see it.
 * Every console session of the account ends.
 */
export async function resetPassword(flags: ConfigFlags, user: string | undefined): Promise<number> {
  const config = loadConfig({ flags });
  const username = user ?? config.runtime.admin.user;
  if (!USER.test(username))
    throw failure(`--user must be 1 to 64 of A-Z a-z 0-9 . _ @ -, got ${JSON.stringify(username.slice(0, 80))}`);
  const where = databaseName(config);
  const password = await newPassword(username);
  const logger = createLogger({ level: 'warn', format: config.runtime.logFormat, destination: process.stderr });
  const db = createDatabase(config.runtime, logger.child({ component: 'db' }));
  try {
    if (!(await db.schema.hasTable('runtime_users')))
      throw failure(`${where} has no accounts yet: start vela once (or run vela migrate) first`);
    const ended = await new Accounts(db, logger.child({ component: 'accounts' })).resetPassword(username, password);
    if (ended === null) throw failure(`${where} has no account "${username}" (VELA_ADMIN_USER or --user names it)`);
    process.stdout.write(
      `the password of "${username}" is reset in ${where}; ${ended} console session${ended === 1 ? '' : 's'} ended\n`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * The database as an operator knows it, without a password a URL may hold; a missing SQLite file is an error, not
 * created.
 */
function databaseName(config: RuntimeConfig): string {
  const url = config.runtime.database.url;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    return `the PostgreSQL database ${parsed.pathname.slice(1) || '(default)'} on ${parsed.host}`;
  }
  const file = url?.startsWith('sqlite://')
    ? url.slice('sqlite://'.length)
    : path.join(config.runtime.dataDir, SQLITE_FILE);
  if (!existsSync(file))
    throw failure(
      `there is no database at ${path.resolve(file)}: start vela once first, or give --data-dir or DATABASE_URL`,
    );
  return path.resolve(file);
}

async function newPassword(username: string): Promise<string> {
  const fromEnvironment = process.env.VELA_ADMIN_PASSWORD;
  let password: string;
  if (fromEnvironment) password = fromEnvironment;
  else if (process.stdin.isTTY) {
    password = await promptHidden(`New password for "${username}": `);
    if ((await promptHidden('Repeat it: ')) !== password) throw failure('the two passwords differ; nothing changed');
  } else password = await firstLine();
  if (password.length < MIN_PASSWORD)
    throw failure(`the new password must be at least ${MIN_PASSWORD} characters long; nothing changed`);
  if (password.length > MAX_PASSWORD)
    throw failure(`the new password must be at most ${MAX_PASSWORD} characters long; nothing changed`);
  if (password.includes('\u0000')) throw failure('the new password must not hold a NUL character; nothing changed');
  return password;
}

/** The first line of a piped standard input, read no further than a password can be long. */
async function firstLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n') || text.length > MAX_PASSWORD + 2) break;
  }
  process.stdin.destroy();
  if (!text) throw failure('no new password: pipe it on standard input, or set VELA_ADMIN_PASSWORD');
  return text.split('\n')[0]!.replace(/\r$/, '');
}

/** A line typed on the terminal, not echoed. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Echo goes off before the prompt shows, so nothing typed as soon as it appears is echoed.
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error: Error | null) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return done(null);
        if (char === '\u0003' || char === '\u0004') return done(failure('cancelled; nothing changed'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (typed.length <= MAX_PASSWORD) typed += char;
      }
    };
    stdin.resume();
    stdin.on('data', onData);
  });
}
