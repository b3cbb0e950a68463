import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VelaError } from '../errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Where a plugin's key comes from: an environment variable, else a file in its data folder. */
export interface SecretBoxOptions {
  /** The environment variable holding the key (default VELA_SECRET_KEY). */
  variable?: string;
  /** The key file's name in the data folder (default secret.key). */
  file?: string;
  /**
   * Another key file (a path) that held this plugin's key before, such as the one of the plugin it was split
   * out of: while the plugin's own file does not exist, it starts as a copy of that one, so the values sealed
   * with it still open. Copied, not moved: the other plugin may still use its own.
   */
  formerFile?: string;
}

export const DEFAULT_SECRET_VARIABLE = 'VELA_SECRET_KEY';
export const DEFAULT_SECRET_FILE = 'secret.key';

/** 32 bytes from 64 hex digits or from base64 / base64url; null for anything else. */
export function parseSecretKey(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

/**
 * AES-256-GCM for secrets a plugin stores (API keys of LLM providers, header values of integration
 * instances): `v1:` then base64 of IV (12 bytes), ciphertext and tag. The key comes from an environment
 * variable (32 bytes as 64 hex digits or base64: `openssl rand -base64 32`), or else from a key file in the
 * plugin's data folder, created with mode 0600 on first use. Processes that share a database but not a data
 * folder need the variable, with one value. Each value is bound to what it belongs to (associated data, such
 * as the row's id): a ciphertext copied elsewhere does not decrypt there.
 */
export class SecretBox {
  private constructor(
    private readonly key: Buffer,
    readonly source: 'environment' | 'file',
  ) {}

  /** A box with a key given directly (tests, tools). */
  static withKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new VelaError('E_CONFIG_INVALID', 'a secret key is 32 bytes', 500);
    return new SecretBox(key, 'environment');
  }

  static async open(
    dataDir: string,
    environment: NodeJS.ProcessEnv = process.env,
    options: SecretBoxOptions = {},
  ): Promise<SecretBox> {
    const variable = options.variable ?? DEFAULT_SECRET_VARIABLE;
    const fromEnvironment = environment[variable];
    if (fromEnvironment) {
      const key = parseSecretKey(fromEnvironment);
      if (!key)
        throw new VelaError(
          'E_CONFIG_INVALID',
          `${variable} must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)`,
          500,
        );
      return new SecretBox(key, 'environment');
    }
    await mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, options.file ?? DEFAULT_SECRET_FILE);
    if (options.formerFile) await adoptKeyFile(options.formerFile, file);
    try {
      // Exclusive create: of two processes starting on one data folder, one writes and the other reads.
      await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const key = parseSecretKey(await readFile(file, 'utf8'));
    if (!key) throw new VelaError('E_CONFIG_INVALID', `${file} does not hold a 32-byte key in base64 or hex`, 500);
    return new SecretBox(key, 'file');
  }

  encrypt(plain: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  }

  /** The plain text, or null when the value was not written with this key for this binding (or was altered). */
  decrypt(stored: string, boundTo: string): string | null {
    if (!stored.startsWith(`${VERSION}:`)) return null;
    const raw = Buffer.from(stored.slice(VERSION.length + 1), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/**
 * Copy a former key file to `file` unless `file` exists (or the former one does not). Written aside and linked
 * into place: of two processes starting on one data folder, one copies, and the other never reads a half-written file.
 */
async function adoptKeyFile(former: string, file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(former, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!parseSecretKey(text))
    throw new VelaError('E_CONFIG_INVALID', `${former} does not hold a 32-byte key in base64 or hex`, 500);
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(aside, text, { flag: 'wx', mode: 0o600 });
  try {
    await link(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(aside);
  }
}

/** What a stored secret shows of itself in answers: its last four characters (nothing of a short one). */
export function secretHint(secret: string): string {
  return secret.length >= 12 ? `…${secret.slice(-4)}` : '…';
}
