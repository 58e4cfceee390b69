import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { loadKey } from '../../private-files.js';

/**
 * Encrypts card numbers for storage (AES-256-GCM, a fresh IV per value). Only the forward
 * operation and token payments decrypt; nothing else ever sees a full number.
 */
export class CardVault {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the card encryption key must be 32 bytes');
  }

  encrypt(cardNumber: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(cardNumber, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  decrypt(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !body) throw new Error('malformed sealed card number');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

/**
 * The key from CARD_ENCRYPTION_KEY; in sandbox mode without it, a key file beside the database
 * (made once, readable by its owner only), or a random key for an in-memory database. For a
 * database one process owns (SQLite); instances sharing one get theirs from shared-secrets.ts.
 */
export function loadCardVault(config: Pick<Config, 'cardEncryptionKey' | 'databasePath'>): CardVault {
  return new CardVault(loadKey({ fromEnv: config.cardEncryptionKey, databasePath: config.databasePath, fileName: 'card-encryption.key' }));
}
