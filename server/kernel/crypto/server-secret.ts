import { hkdfSync } from 'node:crypto';
import type { Config } from '../../config.js';
import { loadKey } from '../../private-files.js';

/**
 * What a derived key is for: each purpose gets its own key, so that no value made for one
 * purpose is ever accepted for another.
 */
export type SecretPurpose = 'api-key-hash' | 'redirect-signing';

/**
 * The server secret (32 bytes): the root of the keys that are never stored. Keys are derived
 * from it with HKDF-SHA256, one per purpose. Losing it makes every stored API key hash useless.
 */
export class ServerSecret {
  // A private field: util.inspect and JSON.stringify never show it.
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the server secret must be 32 bytes');
    this.#key = Buffer.from(key);
  }

  /** The 32-byte key for `purpose`. */
  derive(purpose: SecretPurpose): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), `payments-platform/${purpose}/v1`, 32));
  }
}

/**
 * The secret from SERVER_SECRET (required in production mode); in sandbox mode without it, the
 * key file `server-secret.key` beside the database (made once, mode 0600), or a random secret
 * for an in-memory database. For a database one process owns (SQLite); instances sharing one get
 * theirs from shared-secrets.ts.
 */
export function loadServerSecret(config: Pick<Config, 'serverSecret' | 'databasePath'>): ServerSecret {
  return new ServerSecret(loadKey({ fromEnv: config.serverSecret, databasePath: config.databasePath, fileName: 'server-secret.key' }));
}
