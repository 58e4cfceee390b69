/**
 * Where the secrets come from (kernel/crypto/shared-secrets.ts): instances sharing a PostgreSQL
 * database agree on generated ones, even when they all start at once; an SQLite database keeps its
 * key files and leaves the table empty; sealing binds a value to the password and to its name.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeyHasher } from '../../server/kernel/auth/credentials.js';
import { loadSecrets, seal, unseal } from '../../server/kernel/crypto/shared-secrets.js';
import { type Config, loadConfig } from '../../server/config.js';
import { openStore } from '../../server/store/index.js';
import type { Store } from '../../server/store/tx.js';
import { freshDatabase, TEST_ENGINE, type TestDatabase } from '../helpers/database.js';

const opened: Store[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const database of databases.splice(0)) await database.drop();
});

const noHasher = (): string => {
  throw new Error('not used');
};

async function open(config: Config): Promise<Store> {
  const store = await openStore(config, noHasher);
  opened.push(store);
  return store;
}

/** A configuration without the secret variables, on `database`. */
const withoutSecrets = (database: TestDatabase, extra: Partial<Config> = {}) =>
  loadConfig({}, { logLevel: 'silent', ...database.config, databasePoolSize: 2, serverSecret: undefined, cardEncryptionKey: undefined, ...extra });

const fingerprint = ({ secret, vault }: Awaited<ReturnType<typeof loadSecrets>>) => ({
  apiKeyHash: apiKeyHasher(secret)('a-key-to-compare-0000000001'),
  card: vault.decrypt(vault.encrypt('4111111111111111')),
});

describe('Sealing a shared secret', () => {
  const value = Buffer.alloc(32, 7);

  test('When a value is sealed, then it unseals with the same password and name only, and the sealed text does not hold it', () => {
    const sealed = seal('server-secret', value, 'pw');
    expect(unseal('server-secret', sealed, 'pw')?.equals(value)).toBe(true);
    expect(unseal('server-secret', sealed, 'another')).toBeUndefined();
    expect(unseal('card-encryption-key', sealed, 'pw')).toBeUndefined();
    expect(sealed).not.toContain(value.toString('hex'));
    expect(sealed).not.toContain(value.toString('base64url'));
    // A fresh salt and IV each time.
    expect(seal('server-secret', value, 'pw')).not.toBe(sealed);
  });

  test('When a sealed value is altered, then it does not unseal', () => {
    const sealed = seal('server-secret', value, '');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString('base64url');
    expect(unseal('server-secret', parts.join('.'), '')).toBeUndefined();
    expect(unseal('server-secret', 'v1.not.a.sealed.value', '')).toBeUndefined();
  });
});

(TEST_ENGINE === 'postgres' ? describe : describe.skip)('Secrets of instances sharing a PostgreSQL database', () => {
  test('When six instances load the secrets at once on a fresh database, then all get the same ones, kept in one sealed row each', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const config = withoutSecrets(database);
    const stores = await Promise.all(Array.from({ length: 6 }, () => open(config)));
    const loaded = await Promise.all(stores.map((store) => loadSecrets(config, store)));
    const prints = loaded.map(fingerprint);
    expect(new Set(prints.map((p) => p.apiKeyHash)).size).toBe(1);
    expect(prints.map((p) => p.card)).toEqual(prints.map(() => '4111111111111111'));
    // A vault of one decrypts what another encrypted.
    expect(loaded[5]!.vault.decrypt(loaded[0]!.vault.encrypt('5555444433331111'))).toBe('5555444433331111');
    expect((await database.rows('SELECT name FROM sealed_secrets ORDER BY name')).map((r) => r.name)).toEqual(['card-encryption-key', 'server-secret']);
    // Loaded again later (a restart), they are the same.
    expect(fingerprint(await loadSecrets(config, stores[0]!)).apiKeyHash).toBe(prints[0]!.apiKeyHash);
  });

  test('When a variable is given, then it wins and only the other secret is shared', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const config = withoutSecrets(database, { serverSecret: '5e'.repeat(32) });
    const store = await open(config);
    const given = await loadSecrets(config, store);
    expect(fingerprint(given).apiKeyHash).toBe(fingerprint(await loadSecrets(withoutSecrets(database, { serverSecret: '5e'.repeat(32) }), store)).apiKeyHash);
    expect((await database.rows('SELECT name FROM sealed_secrets')).map((r) => r.name)).toEqual(['card-encryption-key']);
    const shared = await loadSecrets(withoutSecrets(database), store);
    expect(fingerprint(shared).apiKeyHash).not.toBe(fingerprint(given).apiKeyHash);
    expect(shared.vault.decrypt(given.vault.encrypt('4111111111111111'))).toBe('4111111111111111');
  });

  test('When production mode loads secrets on a shared database without the variables, then it refuses, naming them', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const store = await open(withoutSecrets(database));
    const production = { ...withoutSecrets(database), mode: 'production' as const };
    await expect(loadSecrets(production, store)).rejects.toThrow(/SERVER_SECRET and CARD_ENCRYPTION_KEY must be set in production mode/);
    expect(await database.rows('SELECT name FROM sealed_secrets')).toEqual([]);
  });
});

(TEST_ENGINE === 'sqlite' ? describe : describe.skip)('Secrets of an SQLite database', () => {
  test('When the secrets are loaded without the variables, then they come from key files beside the database and nothing is kept in it', async () => {
    const database = await freshDatabase(mkdtempSync(join(tmpdir(), 'secrets-sqlite-')));
    const config = withoutSecrets(database);
    const store = await open(config);
    const first = fingerprint(await loadSecrets(config, store));
    const dir = join(config.databasePath, '..');
    expect(readFileSync(join(dir, 'server-secret.key'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dir, 'card-encryption.key'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(await loadSecrets(config, store)).apiKeyHash).toBe(first.apiKeyHash);
    expect(await database.rows('SELECT name FROM sealed_secrets')).toEqual([]);
  });
});
