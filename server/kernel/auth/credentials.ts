import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerSecret } from '../crypto/server-secret.js';
import { ApiError, ERR_INVALID_MERCHANT_ACCOUNT, ERR_UNAUTHORIZED } from '../errors.js';
import type { Credential, Merchant } from '../../store/types.js';
import type { Store, Tx } from '../../store/tx.js';

/**
 * The keyed hash API keys are stored and looked up under: HMAC-SHA256 with a key derived from the
 * server secret, so that a copied database alone gives nothing to guess keys against. (A fast
 * hash is enough: generated keys are long random strings and keys from the environment have at
 * least 20 characters.) The store is opened with it and offers it as `tx.credentials.hashKey`.
 */
export function apiKeyHasher(secret: ServerSecret): (apiKey: string) => string {
  const key = secret.derive('api-key-hash');
  // The hashes of the keys seen last are kept (an HMAC costs some 15 µs, and every request
  // presents its key): only the hash is derived, the lookup by it and every check still run.
  const recent = new Map<string, string>();
  return (apiKey) => {
    let hash = recent.get(apiKey);
    if (hash === undefined) {
      hash = createHmac('sha256', key).update(apiKey, 'utf8').digest('hex');
      if (recent.size >= RECENT_KEY_HASHES) recent.delete(recent.keys().next().value!);
      recent.set(apiKey, hash);
    }
    return hash;
  };
}

/** How many presented keys' hashes are kept (the oldest goes first). */
const RECENT_KEY_HASHES = 1000;

/** The unkeyed SHA-256 that earlier versions stored: only looked for to upgrade such a row on its first use. */
export function legacyApiKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** A new API key: 48 random bytes, shown once to its owner. */
export function newApiKey(): string {
  return `AQE${randomBytes(48).toString('base64url')}`;
}

export function newClientKey(): string {
  return `test_${randomBytes(24).toString('hex').toUpperCase()}`;
}

/** A credential's password (Basic authentication with its user name): shown once, only its keyed hash is stored. */
export function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** The identifier of a credential created through the API, in Adyen's `S2-` form. */
export function newCredentialId(): string {
  return `S2-${randomBytes(6).toString('hex').toUpperCase()}`;
}

/** A user name in Adyen's form for API credentials: `ws_<six digits>@Company.<company>`. */
export function newCredentialUsername(companyId: string): string {
  return `ws_${100000 + (randomBytes(4).readUInt32BE(0) % 900000)}@Company.${companyId}`;
}

/** What the caller presented: an API key, and with Basic authentication the user name it was sent under. */
export interface Presented {
  apiKey: string;
  username?: string;
}

const LEGACY = Symbol('stored under the legacy hash');

/**
 * Finds the active credential that owns the key. The lookup is by keyed hash; the final
 * comparison is constant-time so that nothing about a stored hash leaks through timing. A key
 * still stored under its unkeyed SHA-256 (written by an earlier version) is found that way once
 * and then stored under its keyed hash; only that upgrade writes, a failed attempt never does.
 * `now` gives the time of the credential's company (an expired rotated-out key is refused).
 */
export async function authenticate(
  store: Store,
  presented: Presented,
  now: (companyId: string) => Date,
  observeClock: (companyId: string, offsetSeconds: number) => void = () => undefined,
): Promise<Credential> {
  const found = await store.read((tx) => credentialOf(tx, presented, now, observeClock));
  if (found !== LEGACY) return found;
  return store.transaction(async (tx) => {
    const legacy = legacyApiKeyHash(presented.apiKey);
    if (await tx.credentials.getKey(legacy)) await tx.credentials.rekey(legacy, tx.credentials.hashKey(presented.apiKey));
    const upgraded = await credentialOf(tx, presented, now, observeClock);
    if (upgraded === LEGACY) throw new ApiError(ERR_UNAUTHORIZED);
    return upgraded;
  });
}

async function credentialOf(
  tx: Tx,
  presented: Presented,
  now: (companyId: string) => Date,
  observeClock: (companyId: string, offsetSeconds: number) => void,
): Promise<Credential | typeof LEGACY> {
  const hash = tx.credentials.hashKey(presented.apiKey);
  const found = await credentialOfKeyHash(tx, hash, now, observeClock);
  if (!found) {
    if (await tx.credentials.getKey(legacyApiKeyHash(presented.apiKey))) return LEGACY;
    if (presented.username !== undefined) return credentialOfPassword(tx, presented.username, hash);
    throw new ApiError(ERR_UNAUTHORIZED);
  }
  if (presented.username !== undefined && presented.username !== found.username) throw new ApiError(ERR_UNAUTHORIZED);
  return found;
}

/**
 * The active credential of a stored key, found by the key's keyed hash (a presented API key's,
 * or the one a console session was opened with): undefined when no key has that hash, 401 when
 * its credential is inactive or the key has expired on the company's clock.
 */
export async function credentialOfKeyHash(
  tx: Tx,
  hash: string,
  now: (companyId: string) => Date,
  observeClock: (companyId: string, offsetSeconds: number) => void,
): Promise<Credential | undefined> {
  const found = await tx.credentials.getKeyWithCredential(hash);
  if (!found) return undefined;
  const { key, credential } = found;
  // Read with the key: the company's clock as it stands (another instance may have moved it).
  observeClock(credential.companyId, found.clockOffsetSeconds);
  if (!timingSafeEqual(Buffer.from(key.keyHash, 'hex'), Buffer.from(hash, 'hex'))) throw new ApiError(ERR_UNAUTHORIZED);
  if (!credential.active) throw new ApiError(ERR_UNAUTHORIZED);
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now(credential.companyId).getTime()) throw new ApiError(ERR_UNAUTHORIZED);
  return credential;
}

/**
 * Basic authentication with the credential's password (as Adyen's web service users do) rather
 * than one of its API keys: the password is compared by its keyed hash, in constant time.
 */
async function credentialOfPassword(tx: Tx, username: string, hash: string): Promise<Credential> {
  const stored = await tx.credentials.passwordOf(username);
  if (!stored || !timingSafeEqual(Buffer.from(stored.passwordHash, 'hex'), Buffer.from(hash, 'hex'))) throw new ApiError(ERR_UNAUTHORIZED);
  const credential = await tx.credentials.get(stored.credentialId);
  if (!credential || !credential.active) throw new ApiError(ERR_UNAUTHORIZED);
  return credential;
}

/**
 * The active credential whose client key this is: its current one, or one it replaced less than
 * 24 hours ago on its company's clock. Read from the database on every request, so that a
 * credential deactivated on any instance is refused at once.
 */
export async function authenticateClientKey(store: Store, clientKey: string, now: (companyId: string) => Date): Promise<Credential> {
  return store.read(async (tx) => {
    let credential = await tx.credentials.byClientKey(clientKey);
    if (!credential) {
      const retired = await tx.credentials.retiredClientKey(clientKey);
      credential = retired && (await tx.credentials.get(retired.credentialId));
      if (!retired || !credential || Date.parse(retired.expiresAt) <= now(credential.companyId).getTime()) throw new ApiError(ERR_UNAUTHORIZED);
    }
    if (!credential.active) throw new ApiError(ERR_UNAUTHORIZED);
    return credential;
  });
}

/** Whether the credential reaches the merchant account. */
export function reaches(credential: Credential, merchant: Merchant): boolean {
  if (merchant.companyId !== credential.companyId) return false;
  if (credential.merchantId !== null) return credential.merchantId === merchant.id;
  return credential.associatedMerchantAccounts.length === 0 || credential.associatedMerchantAccounts.includes(merchant.id);
}

/**
 * The merchant account a checkout request names, if the caller may use it; else 403 code 901.
 * The one the request's scope check read (TxContext.merchant) is used as it is.
 */
export async function requireMerchantAccount(tx: Tx, credential: Credential, merchantAccount: string): Promise<Merchant> {
  const known = tx.context.merchant;
  const merchant = known?.id === merchantAccount ? known : await tx.merchants.get(merchantAccount);
  if (!merchant || !reaches(credential, merchant)) throw new ApiError(ERR_INVALID_MERCHANT_ACCOUNT);
  return merchant;
}
