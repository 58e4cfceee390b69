import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, paged, parsed } from '../codec.js';
import { type Db, forUpdate } from '../db.js';
import { prepared } from '../prepared.js';
import type { AllowedOrigin, ApiKeyRecord, Credential, RetiredClientKey } from '../records/accounts.js';
import type { Page } from '../records/page.js';
import type { AllowedOrigins, ApiCredentials, ApiKeys } from '../schema.generated.js';

const fromRow = (r: Selectable<ApiCredentials>): Credential => ({
  id: r.id,
  companyId: r.company_id,
  merchantId: r.merchant_id,
  username: r.username,
  description: r.description,
  active: flag(r.active),
  roles: parsed<string[]>(r.roles),
  allowedIpAddresses: parsed<string[]>(r.allowed_ip_addresses),
  associatedMerchantAccounts: parsed<string[]>(r.associated_merchant_accounts),
  clientKey: r.client_key,
  createdAt: r.created_at,
  ...(r.subject_dn !== null && { subjectDN: r.subject_dn }),
});

const toRow = (c: Credential): Insertable<ApiCredentials> => ({
  id: c.id,
  company_id: c.companyId,
  merchant_id: c.merchantId,
  username: c.username,
  description: c.description,
  active: c.active,
  roles: jsonText(c.roles),
  allowed_ip_addresses: jsonText(c.allowedIpAddresses),
  associated_merchant_accounts: jsonText(c.associatedMerchantAccounts),
  client_key: c.clientKey,
  created_at: c.createdAt,
  subject_dn: c.subjectDN ?? null,
});

const keyFromRow = (r: Selectable<ApiKeys>): ApiKeyRecord => ({
  keyHash: r.key_hash,
  credentialId: r.credential_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

const keyToRow = (k: ApiKeyRecord): Insertable<ApiKeys> => ({
  key_hash: k.keyHash,
  credential_id: k.credentialId,
  created_at: k.createdAt,
  expires_at: k.expiresAt,
});

const originFromRow = (r: Selectable<AllowedOrigins>): AllowedOrigin => ({
  id: r.id,
  credentialId: r.credential_id,
  domain: r.domain,
  createdAt: r.created_at,
});

const originToRow = (o: AllowedOrigin): Insertable<AllowedOrigins> => ({
  id: o.id,
  credential_id: o.credentialId,
  domain: o.domain,
  created_at: o.createdAt,
});

/** API credentials, their API keys and the origins their client key may be used from. */
// Every request authenticates with these two: compiled once (see prepared.ts).
const credentialById = prepared(({ q }, id: string) => q.selectFrom('api_credentials').selectAll().where('id', '=', id));
const keyByHash = prepared(({ q }, keyHash: string) => q.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash));
// A key and its credential in one statement: on PostgreSQL one round trip per request, not two.
const keyWithCredential = prepared(({ q }, keyHash: string) =>
  q
    .selectFrom('api_keys')
    .innerJoin('api_credentials', 'api_credentials.id', 'api_keys.credential_id')
    .innerJoin('companies', 'companies.id', 'api_credentials.company_id')
    .selectAll('api_credentials')
    .select([
      'api_keys.key_hash as key_hash',
      'api_keys.created_at as key_created_at',
      'api_keys.expires_at as key_expires_at',
      'companies.clock_offset_seconds as clock_offset_seconds',
    ])
    .where('api_keys.key_hash', '=', keyHash),
);
// Browsers authenticate with a client key (a current one, else one rotated out), and Basic
// authentication may send the password instead of an API key: these run per such request.
const credentialByClientKey = prepared(({ q }, clientKey: string) => q.selectFrom('api_credentials').selectAll().where('client_key', '=', clientKey));
const retiredByClientKey = prepared(({ q }, clientKey: string) => q.selectFrom('retired_client_keys').selectAll().where('client_key', '=', clientKey));
const passwordByUsername = prepared(({ q }, username: string) =>
  q.selectFrom('api_credentials').select(['id', 'password_hash']).where('username', '=', username),
);

export function credentialsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (credential: Credential): Promise<void> => void (await q.insertInto('api_credentials').values(toRow(credential)).execute()),
    get: async (id: string): Promise<Credential | undefined> => {
      const row = await credentialById.first(db, id);
      return row && fromRow(row);
    },
    /** Reads a credential to change it (its client key, its state): locked until the transaction ends (see db.ts forUpdate). */
    getForUpdate: async (id: string): Promise<Credential | undefined> => {
      const row = await forUpdate(db, q.selectFrom('api_credentials').selectAll().where('id', '=', id)).executeTakeFirst();
      return row && fromRow(row);
    },
    /** Writes what an update may change: everything but the identity, the level, the user name and the password. */
    update: async (c: Credential): Promise<void> => {
      const { id: _id, company_id: _c, merchant_id: _m, username: _u, created_at: _t, ...changed } = toRow(c);
      await q.updateTable('api_credentials').set(changed).where('id', '=', c.id).execute();
    },
    /** Whether a credential has this user name (user names are unique across the service). */
    usernameTaken: async (username: string): Promise<boolean> =>
      (await q.selectFrom('api_credentials').select('id').where('username', '=', username).executeTakeFirst()) !== undefined,
    /** Stores the keyed hash of the credential's password (the password itself is never stored). */
    setPasswordHash: async (id: string, passwordHash: string): Promise<void> =>
      void (await q.updateTable('api_credentials').set({ password_hash: passwordHash }).where('id', '=', id).execute()),
    /** The credential of a user name and the keyed hash of its password, if it has one. */
    passwordOf: async (username: string): Promise<{ credentialId: string; passwordHash: string } | undefined> => {
      const row = await passwordByUsername.first(db, username);
      return row?.password_hash ? { credentialId: row.id, passwordHash: row.password_hash } : undefined;
    },
    /** The credential whose current client key this is. */
    byClientKey: async (clientKey: string): Promise<Credential | undefined> => {
      const row = await credentialByClientKey.first(db, clientKey);
      return row && fromRow(row);
    },
    /** A client key that was replaced, with the time it stops working. */
    retiredClientKey: async (clientKey: string): Promise<RetiredClientKey | undefined> => {
      const row = await retiredByClientKey.first(db, clientKey);
      return row && { clientKey: row.client_key, credentialId: row.credential_id, expiresAt: row.expires_at };
    },
    insertRetiredClientKey: async (k: RetiredClientKey): Promise<void> =>
      void (await q.insertInto('retired_client_keys').values({ client_key: k.clientKey, credential_id: k.credentialId, expires_at: k.expiresAt }).execute()),
    /** Company-level credentials (merchantId null) or those of one merchant account. */
    list: async (companyId: string, merchantId: string | null, offset: number, limit: number): Promise<Page<Credential>> => {
      // Query builders are immutable: one scope, counted and read.
      const ofCompany = q.selectFrom('api_credentials').where('company_id', '=', companyId);
      const level = merchantId === null ? ofCompany.where('merchant_id', 'is', null) : ofCompany.where('merchant_id', '=', merchantId);
      return paged(
        level.select((eb) => eb.fn.countAll().as('n')),
        level.selectAll().orderBy('id').limit(limit).offset(offset),
        fromRow,
      );
    },
    insertKey: async (key: ApiKeyRecord): Promise<void> => void (await q.insertInto('api_keys').values(keyToRow(key)).execute()),
    getKey: async (keyHash: string): Promise<ApiKeyRecord | undefined> => {
      const row = await keyByHash.first(db, keyHash);
      return row && keyFromRow(row);
    },
    /** The key stored under this hash with the credential it belongs to. */
    /** The key, its credential, and the credential's company's sandbox clock offset (one round trip per request). */
    getKeyWithCredential: async (keyHash: string): Promise<{ key: ApiKeyRecord; credential: Credential; clockOffsetSeconds: number } | undefined> => {
      const row = await keyWithCredential.first(db, keyHash);
      return (
        row && {
          key: { keyHash: row.key_hash, credentialId: row.id, createdAt: row.key_created_at, expiresAt: row.key_expires_at },
          credential: fromRow(row),
          clockOffsetSeconds: Number(row.clock_offset_seconds),
        }
      );
    },
    /** The credential's keys, oldest first (key hashes break ties). */
    keys: async (credentialId: string): Promise<ApiKeyRecord[]> =>
      (await q.selectFrom('api_keys').selectAll().where('credential_id', '=', credentialId).orderBy('created_at').orderBy('key_hash').execute()).map(
        keyFromRow,
      ),
    /** Changes when the key expires (the only thing about a key that changes). */
    updateKey: async (key: ApiKeyRecord): Promise<void> =>
      void (await q.updateTable('api_keys').set({ expires_at: key.expiresAt }).where('key_hash', '=', key.keyHash).execute()),
    /** Moves a key to a new hash (the legacy unkeyed hash to the keyed one); nothing else about it changes. */
    rekey: async (oldHash: string, newHash: string): Promise<void> =>
      void (await q.updateTable('api_keys').set({ key_hash: newHash }).where('key_hash', '=', oldHash).execute()),
    /**
     * The keyed hash an API key is stored and looked up under (HMAC-SHA256 with a key derived from
     * the server secret the store was opened with; see auth/credentials.domain.ts apiKeyHasher).
     */
    hashKey: (apiKey: string): string => db.hashApiKey(apiKey),
    insertOrigin: async (origin: AllowedOrigin): Promise<void> => void (await q.insertInto('allowed_origins').values(originToRow(origin)).execute()),
    /** The credential's allowed origins in the order they were added. */
    origins: async (credentialId: string): Promise<AllowedOrigin[]> =>
      (await q.selectFrom('allowed_origins').selectAll().where('credential_id', '=', credentialId).orderBy('created_at').orderBy('id').execute()).map(
        originFromRow,
      ),
    getOrigin: async (id: string): Promise<AllowedOrigin | undefined> => {
      const row = await q.selectFrom('allowed_origins').selectAll().where('id', '=', id).executeTakeFirst();
      return row && originFromRow(row);
    },
    deleteOrigin: async (id: string): Promise<void> => void (await q.deleteFrom('allowed_origins').where('id', '=', id).execute()),
  };
}

export type CredentialsStore = ReturnType<typeof credentialsStore>;
