import { afterEach, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeyHasher, authenticate, legacyApiKeyHash } from '../../server/kernel/auth/credentials.js';
import { RedirectSigner } from '../../server/kernel/crypto/redirect-signer.js';
import { loadConfig } from '../../server/config.js';
import { loadCardVault } from '../../server/kernel/crypto/card-vault.js';
import { loadServerSecret, ServerSecret } from '../../server/kernel/crypto/server-secret.js';
import { ApiError } from '../../server/kernel/errors.js';
import { DEMO, seedDemoData } from '../../server/seed.js';
import { openSqlite } from '../../server/store/index.js';
import type { Store } from '../../server/store/tx.js';
import { COMPANY_KEY, MERCHANT_KEY } from '../helpers/keys.js';

const open: Store[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

/** A database path in a fresh temporary folder (`sub` folders are not made yet). */
const databaseIn = (sub = ''): string => join(mkdtempSync(join(tmpdir(), 'secrets-')), sub, 'payments.sqlite');
const secretOf = (byte: string) => new ServerSecret(Buffer.from(byte.repeat(32), 'hex'));

function openAt(databasePath: string, secret: ServerSecret): Store {
  const store = openSqlite({ databasePath, sqliteSynchronous: 'NORMAL' }, apiKeyHasher(secret));
  open.push(store);
  return store;
}

async function status(work: Promise<unknown>): Promise<number> {
  try {
    await work;
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

const mode = (file: string) => statSync(file).mode & 0o777;
const unix = process.platform !== 'win32';
const now = () => new Date();

describe('Secrets at rest', () => {
  test('When a database is opened with another server secret than the one it was seeded with, then no key authenticates', async () => {
    const path = databaseIn();
    const original = openAt(path, secretOf('a1'));
    await seedDemoData(original, new Date(), { company: COMPANY_KEY, merchant: MERCHANT_KEY });
    expect((await authenticate(original, { apiKey: COMPANY_KEY }, now)).id).toBe(DEMO.companyCredentialId);
    await original.close();
    open.splice(open.indexOf(original), 1);

    const copied = openAt(path, secretOf('b2'));
    expect(await status(authenticate(copied, { apiKey: COMPANY_KEY }, now))).toBe(401);
    expect(await status(authenticate(copied, { apiKey: MERCHANT_KEY }, now))).toBe(401);
  });

  test('When keys are stored, then the stored hash is neither the key nor its SHA-256', async () => {
    const path = databaseIn();
    const store = openAt(path, secretOf('a1'));
    await seedDemoData(store, new Date(), { company: COMPANY_KEY, merchant: MERCHANT_KEY });
    const db = new Database(path, { readonly: true });
    const hashes = (db.prepare('SELECT key_hash FROM api_keys').all() as Array<{ key_hash: string }>).map((r) => r.key_hash);
    const everything = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    db.close();
    expect(hashes).toHaveLength(2);
    for (const key of [COMPANY_KEY, MERCHANT_KEY]) {
      expect(hashes).not.toContain(createHash('sha256').update(key).digest('hex'));
      expect(everything).not.toContain(key);
    }
    expect(hashes).toContain(await store.read(async (tx) => tx.credentials.hashKey(COMPANY_KEY)));
  });

  test('When a key is still stored under its legacy SHA-256, then it authenticates once and is then stored under its keyed hash', async () => {
    const path = databaseIn();
    const store = openAt(path, secretOf('a1'));
    await seedDemoData(store, new Date(), { company: COMPANY_KEY, merchant: MERCHANT_KEY });
    const legacyKey = 'legacy-company-key-000000000000000001';
    await store.transaction((tx) =>
      tx.credentials.insertKey({
        keyHash: legacyApiKeyHash(legacyKey),
        credentialId: DEMO.companyCredentialId,
        createdAt: new Date().toISOString(),
        expiresAt: null,
      }),
    );

    expect((await authenticate(store, { apiKey: legacyKey }, now)).id).toBe(DEMO.companyCredentialId);

    const keyed = await store.read(async (tx) => tx.credentials.hashKey(legacyKey));
    expect(await store.read((tx) => tx.credentials.getKey(legacyApiKeyHash(legacyKey)))).toBeUndefined();
    expect(await store.read((tx) => tx.credentials.getKey(keyed))).toMatchObject({ keyHash: keyed, credentialId: DEMO.companyCredentialId, expiresAt: null });
    expect((await authenticate(store, { apiKey: legacyKey }, now)).id).toBe(DEMO.companyCredentialId);
    expect(await status(authenticate(store, { apiKey: 'not-a-key-of-anyone-0000000000000001' }, now))).toBe(401);
  });

  test('When the redirect signer starts, then no settings row holds a redirect secret and results verify across restarts with the same server secret only', async () => {
    const path = databaseIn();
    const store = openAt(path, secretOf('a1'));
    // What earlier versions stored in plain text.
    await store.transaction((tx) => tx.settings.put('checkout.redirectSecret', randomBytes(32).toString('hex')));
    const signer = await RedirectSigner.load(store, secretOf('a1'));
    const db = new Database(path, { readonly: true });
    const settings = db.prepare('SELECT key FROM settings').all() as Array<{ key: string }>;
    db.close();
    expect(settings.map((s) => s.key).filter((k) => /redirect|secret/i.test(k))).toEqual([]);

    const result = signer.sign('PSP0000000000001', 'authorised');
    expect((await RedirectSigner.load(store, secretOf('a1'))).read(result)).toEqual({ pspReference: 'PSP0000000000001', outcome: 'authorised' });
    expect((await RedirectSigner.load(store, secretOf('b2'))).read(result)).toBeUndefined();
  });

  test('When the server secret comes from its key file, then the file is made once (0600) and gives the same keys on every start', () => {
    const databasePath = databaseIn('data');
    const first = loadServerSecret({ serverSecret: undefined, databasePath });
    const file = join(databasePath, '..', 'server-secret.key');
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    if (unix) expect(mode(file)).toBe(0o600);
    const again = loadServerSecret({ serverSecret: undefined, databasePath });
    expect(again.derive('api-key-hash').equals(first.derive('api-key-hash'))).toBe(true);
    expect(first.derive('api-key-hash').equals(first.derive('redirect-signing'))).toBe(false);
    expect(JSON.stringify(first)).not.toContain(readFileSync(file, 'utf8'));
  });

  (unix ? test : test.skip)(
    'When the server opens a new database in a new folder, then the folder is 0700 and the database, WAL, SHM and key files are 0600',
    async () => {
      const databasePath = databaseIn('data');
      const secret = loadServerSecret({ serverSecret: undefined, databasePath });
      loadCardVault({ cardEncryptionKey: undefined, databasePath });
      const store = openAt(databasePath, secret);
      await seedDemoData(store, new Date(), { company: COMPANY_KEY, merchant: MERCHANT_KEY });
      const dir = join(databasePath, '..');
      expect(mode(dir)).toBe(0o700);
      for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`, join(dir, 'server-secret.key'), join(dir, 'card-encryption.key')]) {
        expect(existsSync(file)).toBe(true);
        expect([file, mode(file).toString(8)]).toEqual([file, '600']);
      }
    },
  );

  (unix ? test : test.skip)('When an existing database file is readable by others, then opening it narrows it to 0600', async () => {
    const databasePath = databaseIn();
    const first = openAt(databasePath, secretOf('a1'));
    await first.close();
    open.splice(open.indexOf(first), 1);
    chmodSync(databasePath, 0o644);
    writeFileSync(`${databasePath}-wal`, '');
    chmodSync(`${databasePath}-wal`, 0o644);
    openAt(databasePath, secretOf('a1'));
    expect(mode(databasePath)).toBe(0o600);
    expect(mode(`${databasePath}-wal`)).toBe(0o600);
  });

  test('When a demo API key is shorter than 20 characters, then the configuration is refused naming the variable', () => {
    expect(() => loadConfig({ DEMO_COMPANY_API_KEY: 'short-key-12345' })).toThrow(/DEMO_COMPANY_API_KEY must be at least 20 characters/);
    expect(() => loadConfig({ DEMO_MERCHANT_API_KEY: 'x'.repeat(19) })).toThrow(/DEMO_MERCHANT_API_KEY must be at least 20 characters/);
    expect(loadConfig({ DEMO_COMPANY_API_KEY: 'x'.repeat(20) }).demoCompanyApiKey).toBe('x'.repeat(20));
  });

  test('When production mode has no SERVER_SECRET, or a malformed one, then the configuration is refused', () => {
    const production = { APP_MODE: 'production', CARD_ENCRYPTION_KEY: '6b'.repeat(32) };
    expect(() => loadConfig(production)).toThrow(/SERVER_SECRET is required in production mode/);
    expect(() => loadConfig({ ...production, SERVER_SECRET: 'abc' })).toThrow(/SERVER_SECRET must be 64 hexadecimal characters/);
    expect(loadConfig({ ...production, SERVER_SECRET: '5e'.repeat(32) }).serverSecret).toBe('5e'.repeat(32));
  });
});
