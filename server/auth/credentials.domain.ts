import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, ERR_INVALID_MERCHANT_ACCOUNT, ERR_UNAUTHORIZED } from '../http/errors.js';
import type { Credential, Merchant, Tx } from '../store/types.js';

/** API keys are stored as SHA-256: they are long random strings, so a slow hash adds nothing but latency. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new API key: 48 random bytes, shown once to its owner. */
export function newApiKey(): string {
  return `AQE${randomBytes(48).toString('base64url')}`;
}

export function newClientKey(): string {
  return `test_${randomBytes(24).toString('hex').toUpperCase()}`;
}

/** What the caller presented: an API key, and with Basic authentication the user name it was sent under. */
export interface Presented {
  apiKey: string;
  username?: string;
}

/**
 * Finds the active credential that owns the key. The lookup is by hash; the final comparison
 * is constant-time so that nothing about a stored hash leaks through timing.
 */
export async function authenticate(tx: Tx, presented: Presented, now: Date): Promise<Credential> {
  const hash = hashApiKey(presented.apiKey);
  const key = await tx.getApiKey(hash);
  if (!key || !timingSafeEqual(Buffer.from(key.keyHash, 'hex'), Buffer.from(hash, 'hex'))) throw new ApiError(ERR_UNAUTHORIZED);
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()) throw new ApiError(ERR_UNAUTHORIZED);
  const credential = await tx.getCredential(key.credentialId);
  if (!credential || !credential.active) throw new ApiError(ERR_UNAUTHORIZED);
  if (presented.username !== undefined && presented.username !== credential.username) throw new ApiError(ERR_UNAUTHORIZED);
  return credential;
}

/** Whether the credential reaches the merchant account. */
export function reaches(credential: Credential, merchant: Merchant): boolean {
  if (merchant.companyId !== credential.companyId) return false;
  if (credential.merchantId !== null) return credential.merchantId === merchant.id;
  return credential.associatedMerchantAccounts.length === 0 || credential.associatedMerchantAccounts.includes(merchant.id);
}

/** The merchant account a checkout request names, if the caller may use it; else 403 code 901. */
export async function requireMerchantAccount(tx: Tx, credential: Credential, merchantAccount: string): Promise<Merchant> {
  const merchant = await tx.getMerchant(merchantAccount);
  if (!merchant || !reaches(credential, merchant)) throw new ApiError(ERR_INVALID_MERCHANT_ACCOUNT);
  return merchant;
}
