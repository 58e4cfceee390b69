import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, paged, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import { prepared } from '../prepared.js';
import type { AllowedOrigin, ApiKeyRecord, Credential, RetiredClientKey } from '../records/accounts.js';
import type { Page } from '../records/page.js';
import type { ApiCredentials } from '../schema.generated.js';

const fromRow = (r: Selectable<ApiCredentials>): Credential => ({
  id: r.id,
  companyId: r.companyId,
  merchantId: r.merchantId,
  username: r.username,
  description: r.description,
  active: flag(r.active),
  roles: parsed<string[]>(r.roles),
  allowedIpAddresses: parsed<string[]>(r.allowedIpAddresses),
  associatedMerchantAccounts: parsed<string[]>(r.associatedMerchantAccounts),
  clientKey: r.clientKey,
  createdAt: r.createdAt,
  ...(r.subjectDn !== null && { subjectDN: r.subjectDn }),
});

const toRow = (c: Credential): Insertable<ApiCredentials> => ({
  id: c.id,
  companyId: c.companyId,
  merchantId: c.merchantId,
  username: c.username,
  description: c.description,
  active: c.active,
  roles: jsonText(c.roles),
  allowedIpAddresses: jsonText(c.allowedIpAddresses),
  associatedMerchantAccounts: jsonText(c.associatedMerchantAccounts),
  clientKey: c.clientKey,
  createdAt: c.createdAt,
  subjectDn: c.subjectDN ?? null,
});

// An API key's and an allowed origin's rows are their records: the columns are the record's fields
// (camelCase in code) and no value changes shape.

/** API credentials, their API keys and the origins their client key may be used from. */
// Every request authenticates with these two: compiled once (see prepared.ts).
const credentialById = prepared(({ q }, id: string) => q.selectFrom('apiCredentials').selectAll().where('id', '=', id));
const keyByHash = prepared(({ q }, keyHash: string) => q.selectFrom('apiKeys').selectAll().where('keyHash', '=', keyHash));
// A key and its credential in one statement: on PostgreSQL one round trip per request, not two.
const keyWithCredential = prepared(({ q }, keyHash: string) =>
  q
    .selectFrom('apiKeys')
    .innerJoin('apiCredentials', 'apiCredentials.id', 'apiKeys.credentialId')
    .innerJoin('companies', 'companies.id', 'apiCredentials.companyId')
    .selectAll('apiCredentials')
    .select([
      'apiKeys.keyHash as keyHash',
      'apiKeys.createdAt as keyCreatedAt',
      'apiKeys.expiresAt as keyExpiresAt',
      'companies.clockOffsetSeconds as clockOffsetSeconds',
    ])
    .where('apiKeys.keyHash', '=', keyHash),
);
// Browsers authenticate with a client key (a current one, else one rotated out), and Basic
// authentication may send the password instead of an API key: these run per such request.
const credentialByClientKey = prepared(({ q }, clientKey: string) => q.selectFrom('apiCredentials').selectAll().where('clientKey', '=', clientKey));
const retiredByClientKey = prepared(({ q }, clientKey: string) => q.selectFrom('retiredClientKeys').selectAll().where('clientKey', '=', clientKey));
const passwordByUsername = prepared(({ q }, username: string) =>
  q.selectFrom('apiCredentials').select(['id', 'passwordHash']).where('username', '=', username),
);

export function credentialsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (credential: Credential): Promise<void> => void (await q.insertInto('apiCredentials').values(toRow(credential)).execute()),
    get: async (id: string): Promise<Credential | undefined> => {
      const row = await credentialById.first(db, id);
      return row && fromRow(row);
    },
    /** Reads a credential to change it (its client key, its state): locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: async (id: string): Promise<Credential | undefined> => {
      const row = await forUpdate(db, q.selectFrom('apiCredentials').selectAll().where('id', '=', id)).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Writes what an update may change: everything but the identity, the level, the user name and the password. */
    update: async (c: Credential): Promise<void> => {
      const { id: _id, companyId: _c, merchantId: _m, username: _u, createdAt: _t, ...changed } = toRow(c);
      await q.updateTable('apiCredentials').set(changed).where('id', '=', c.id).execute();
    },
    /** Whether a credential has this user name (user names are unique across the service). */
    usernameTaken: async (username: string): Promise<boolean> =>
      (await q.selectFrom('apiCredentials').select('id').where('username', '=', username).executeTakeFirst()) !== undefined,
    /** Stores the keyed hash of the credential's password (the password itself is never stored). */
    setPasswordHash: async (id: string, passwordHash: string): Promise<void> =>
      void (await q.updateTable('apiCredentials').set({ passwordHash }).where('id', '=', id).execute()),
    /** The credential of a user name and the keyed hash of its password, if it has one. */
    passwordOf: async (username: string): Promise<{ credentialId: string; passwordHash: string } | undefined> => {
      const row = await passwordByUsername.first(db, username);
      return row?.passwordHash ? { credentialId: row.id, passwordHash: row.passwordHash } : undefined;
    },
    /** The credential whose current client key this is. */
    byClientKey: async (clientKey: string): Promise<Credential | undefined> => {
      const row = await credentialByClientKey.first(db, clientKey);
      return row && fromRow(row);
    },
    /** A client key that was replaced, with the time it stops working. */
    retiredClientKey: async (clientKey: string): Promise<RetiredClientKey | undefined> => {
      const row = await retiredByClientKey.first(db, clientKey);
      return row && { clientKey: row.clientKey, credentialId: row.credentialId, expiresAt: row.expiresAt };
    },
    insertRetiredClientKey: async (k: RetiredClientKey): Promise<void> =>
      void (await q.insertInto('retiredClientKeys').values({ clientKey: k.clientKey, credentialId: k.credentialId, expiresAt: k.expiresAt }).execute()),
    /** Company-level credentials (merchantId null) or those of one merchant account. */
    list: async (companyId: string, merchantId: string | null, offset: number, limit: number): Promise<Page<Credential>> => {
      // Query builders are immutable: one scope, counted and read.
      const ofCompany = q.selectFrom('apiCredentials').where('companyId', '=', companyId);
      const level = merchantId === null ? ofCompany.where('merchantId', 'is', null) : ofCompany.where('merchantId', '=', merchantId);
      return paged(
        level.select((eb) => eb.fn.countAll().as('n')),
        level.selectAll().orderBy('id').limit(limit).offset(offset),
        fromRow,
      );
    },
    insertKey: async (key: ApiKeyRecord): Promise<void> => void (await q.insertInto('apiKeys').values(key).execute()),
    getKey: (keyHash: string): Promise<ApiKeyRecord | undefined> => keyByHash.first(db, keyHash),
    /** The key stored under this hash with the credential it belongs to. */
    /** The key, its credential, and the credential's company's sandbox clock offset (one round trip per request). */
    getKeyWithCredential: async (keyHash: string): Promise<{ key: ApiKeyRecord; credential: Credential; clockOffsetSeconds: number } | undefined> => {
      const row = await keyWithCredential.first(db, keyHash);
      return (
        row && {
          key: { keyHash: row.keyHash, credentialId: row.id, createdAt: row.keyCreatedAt, expiresAt: row.keyExpiresAt },
          credential: fromRow(row),
          clockOffsetSeconds: Number(row.clockOffsetSeconds),
        }
      );
    },
    /** The credential's keys, oldest first (key hashes break ties). */
    keys: (credentialId: string): Promise<ApiKeyRecord[]> =>
      q.selectFrom('apiKeys').selectAll().where('credentialId', '=', credentialId).orderBy('createdAt').orderBy('keyHash').execute(),
    /** Changes when the key expires (the only thing about a key that changes). */
    updateKey: async (key: ApiKeyRecord): Promise<void> =>
      void (await q.updateTable('apiKeys').set({ expiresAt: key.expiresAt }).where('keyHash', '=', key.keyHash).execute()),
    /** Moves a key to a new hash (the legacy unkeyed hash to the keyed one); nothing else about it changes. */
    rekey: async (oldHash: string, newHash: string): Promise<void> =>
      void (await q.updateTable('apiKeys').set({ keyHash: newHash }).where('keyHash', '=', oldHash).execute()),
    /**
     * The keyed hash an API key is stored and looked up under (HMAC-SHA256 with a key derived from
     * the server secret the store was opened with; see auth/credentials.domain.ts apiKeyHasher).
     */
    hashKey: (apiKey: string): string => db.hashApiKey(apiKey),
    insertOrigin: async (origin: AllowedOrigin): Promise<void> => void (await q.insertInto('allowedOrigins').values(origin).execute()),
    /** The credential's allowed origins in the order they were added. */
    origins: (credentialId: string): Promise<AllowedOrigin[]> =>
      q.selectFrom('allowedOrigins').selectAll().where('credentialId', '=', credentialId).orderBy('createdAt').orderBy('id').execute(),
    getOrigin: (id: string): Promise<AllowedOrigin | undefined> => q.selectFrom('allowedOrigins').selectAll().where('id', '=', id).executeTakeFirst(),
    deleteOrigin: async (id: string): Promise<void> => void (await q.deleteFrom('allowedOrigins').where('id', '=', id).execute()),
  };
}

export type CredentialsStore = ReturnType<typeof credentialsStore>;
