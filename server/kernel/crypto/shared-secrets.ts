import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Store } from '../../store/tx.js';
import { CardVault, loadCardVault } from './card-vault.js';
import { loadServerSecret, ServerSecret } from './server-secret.js';

/** The two secrets every instance must hold alike: the root of the API-key hashes and redirect signatures, and the card vault's key. */
export interface Secrets {
  secret: ServerSecret;
  vault: CardVault;
}

type SecretsConfig = Pick<Config, 'mode' | 'serverSecret' | 'cardEncryptionKey' | 'databasePath' | 'databaseUrl'>;

/** Each secret: its row in the database, its variable and its setting. */
const SECRETS = [
  { name: 'server-secret', env: 'SERVER_SECRET', setting: 'serverSecret' },
  { name: 'card-encryption-key', env: 'CARD_ENCRYPTION_KEY', setting: 'cardEncryptionKey' },
] as const;
type SecretName = (typeof SECRETS)[number]['name'];

/**
 * The secrets, from where this deployment keeps them:
 * - a variable (SERVER_SECRET, CARD_ENCRYPTION_KEY) always wins;
 * - a database several instances may share (`Store.sharedBetweenProcesses`: DATABASE_URL), in
 *   sandbox mode: the first instance to start generates what no variable gives and keeps it in
 *   the database, sealed (see `seal`), and every other instance reads it, so all of them hash API
 *   keys, sign session data and encrypt card numbers alike. Instances starting together agree: the row is inserted only if absent and
 *   read back in the same transaction. In production mode such a start is refused: the secrets
 *   must be given, the same to every instance;
 * - else (one process on its own file): key files beside the database, or random keys for an
 *   in-memory one (private-files.ts).
 */
export async function loadSecrets(config: SecretsConfig, store: Store): Promise<Secrets> {
  if (!store.sharedBetweenProcesses || !config.databaseUrl) return { secret: loadServerSecret(config), vault: loadCardVault(config) };
  const missing = SECRETS.filter((s) => !config[s.setting]);
  if (missing.length > 0 && config.mode === 'production') {
    throw new Error(
      `${missing.map((s) => s.env).join(' and ')} must be set in production mode: every instance sharing DATABASE_URL needs the same values (64 hexadecimal characters each)`,
    );
  }
  const shared = missing.length > 0 ? await sharedSecrets(store, config.databaseUrl, missing) : new Map<SecretName, Buffer>();
  const keyOf = (s: (typeof SECRETS)[number]): Buffer => {
    const given = config[s.setting];
    return given ? Buffer.from(given, 'hex') : shared.get(s.name)!;
  };
  return { secret: new ServerSecret(keyOf(SECRETS[0])), vault: new CardVault(keyOf(SECRETS[1])) };
}

/** Inserts a freshly generated value for each secret that has no row yet, then reads every row back (one transaction) and unseals it. */
async function sharedSecrets(store: Store, databaseUrl: string, wanted: ReadonlyArray<(typeof SECRETS)[number]>): Promise<Map<SecretName, Buffer>> {
  const password = databasePassword(databaseUrl);
  const sealedRows = await store.transaction(async (tx) => {
    const rows = new Map<SecretName, string>();
    for (const { name } of wanted) {
      await tx.sealedSecrets.insertIfAbsent(name, seal(name, randomBytes(32), password), new Date().toISOString());
      const sealed = await tx.sealedSecrets.get(name);
      if (sealed === undefined) throw new Error(`the shared secret ${name} was neither inserted nor found`);
      rows.set(name, sealed);
    }
    return rows;
  });
  const keys = new Map<SecretName, Buffer>();
  for (const { name } of wanted) {
    const key = unseal(name, sealedRows.get(name)!, password);
    if (!key) {
      throw new Error(
        `The ${name} that the instances on this database share was sealed with another DATABASE_URL password than this instance's, and cannot be read. ` +
          `Give every instance the same DATABASE_URL password, or set ${wanted.map((s) => s.env).join(' and ')} (the same on every instance).`,
      );
    }
    keys.set(name, key);
  }
  return keys;
}

/** The password of the database URL (decoded), or '' when it has none (trust or peer authentication, PGPASSWORD, a .pgpass file). */
function databasePassword(databaseUrl: string): string {
  const { password } = new URL(databaseUrl);
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

const SEAL_INFO = 'payments-platform/sealed-secrets/v1';
const VERSION = 'v1';

/**
 * The sealing key: HKDF-SHA256 of the database password, with a random salt per row. What every
 * instance has, and what a copy of the database alone (a dump, a backup, a replica, a role that
 * may only read) does not: whoever holds DATABASE_URL can unseal, and can read every row anyway.
 * Without a password in the URL the key comes from public values only, and sealing merely keeps
 * the secrets from being read at a glance: such a deployment should set the variables.
 */
function sealingKey(password: string, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(password, 'utf8'), salt, SEAL_INFO, 32));
}

/** `v1.<salt>.<iv>.<tag>.<ciphertext>` (base64url): AES-256-GCM, the secret's name as associated data (a row moved to another name does not unseal). */
export function seal(name: string, value: Buffer, password: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(password, salt), iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(value), cipher.final()]);
  return [VERSION, ...[salt, iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))].join('.');
}

/** The sealed value, or undefined when it was sealed with another password (or under another name, or altered). */
export function unseal(name: string, sealed: string, password: string): Buffer | undefined {
  const [version, ...parts] = sealed.split('.');
  const [salt, iv, tag, body] = parts.map((p) => Buffer.from(p, 'base64url'));
  if (version !== VERSION || parts.length !== 4 || !salt || !iv || !tag || !body) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(password, salt), iv);
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(tag);
    const value = Buffer.concat([decipher.update(body), decipher.final()]);
    return value.length === 32 ? value : undefined;
  } catch {
    return undefined;
  }
}
