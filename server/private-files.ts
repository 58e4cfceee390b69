import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Makes `dir` (and any missing parent) readable by its owner only when it does not exist yet; an existing folder is left as it is. */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Sets an existing file to 0600 (owner read/write only); a missing file is skipped. */
export function restrictToOwner(file: string): void {
  if (process.platform === 'win32' || !existsSync(file)) return;
  if ((statSync(file).mode & 0o777) !== 0o600) chmodSync(file, 0o600);
}

/**
 * A 32-byte key: from its environment variable (64 hex characters) when given; else, for an
 * in-memory database, a random one (nothing outlives the process anyway); else a key file
 * beside the database, made once with mode 0600 and read on every later start.
 */
export function loadKey(options: { fromEnv: string | undefined; databasePath: string; fileName: string }): Buffer {
  if (options.fromEnv) return Buffer.from(options.fromEnv, 'hex');
  if (options.databasePath === ':memory:') return randomBytes(32);
  const file = join(dirname(options.databasePath), options.fileName);
  if (!existsSync(file)) {
    ensurePrivateDir(dirname(file));
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  restrictToOwner(file);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new Error(`${file} must hold 64 hexadecimal characters (32 bytes)`);
  return key;
}
