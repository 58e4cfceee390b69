import type { Insertable, Selectable } from 'kysely';
import { flag, jsonText, paged, parsed } from '../codec.js';
import type { Db } from '../db.js';
import { prepared } from '../prepared.js';
import type { AllowedOriginsTable, ApiCredentialsTable, ApiKeysTable } from '../schema.js';
import type { AllowedOrigin, ApiKeyRecord, Credential, Page } from '../types.js';

const fromRow = (r: Selectable<ApiCredentialsTable>): Credential => ({
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
});

const toRow = (c: Credential): Insertable<ApiCredentialsTable> => ({
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
});

const keyFromRow = (r: Selectable<ApiKeysTable>): ApiKeyRecord => ({
  keyHash: r.key_hash,
  credentialId: r.credential_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

const keyToRow = (k: ApiKeyRecord): Insertable<ApiKeysTable> => ({
  key_hash: k.keyHash,
  credential_id: k.credentialId,
  created_at: k.createdAt,
  expires_at: k.expiresAt,
});

const originFromRow = (r: Selectable<AllowedOriginsTable>): AllowedOrigin => ({
  id: r.id,
  credentialId: r.credential_id,
  domain: r.domain,
  createdAt: r.created_at,
});

const originToRow = (o: AllowedOrigin): Insertable<AllowedOriginsTable> => ({
  id: o.id,
  credential_id: o.credentialId,
  domain: o.domain,
  created_at: o.createdAt,
});

/** API credentials, their API keys and the origins their client key may be used from. */
// Every request authenticates with these two: compiled once (see prepared.ts).
const credentialById = prepared(({ q }, id: string) => q.selectFrom('api_credentials').selectAll().where('id', '=', id));
const keyByHash = prepared(({ q }, keyHash: string) => q.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash));

export function credentialsStore(db: Db) {
  const { q } = db;
  return {
    insert: async (credential: Credential): Promise<void> => void (await q.insertInto('api_credentials').values(toRow(credential)).execute()),
    get: async (id: string): Promise<Credential | undefined> => {
      const row = await credentialById.first(db, id);
      return row && fromRow(row);
    },
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
