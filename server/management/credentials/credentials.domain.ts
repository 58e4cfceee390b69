import { randomBytes } from 'node:crypto';
import { newApiKey } from '../../kernel/auth/credentials.js';
import { parseOrigin } from '../../kernel/auth/origins.js';
import { ApiError, ERR_FIELD_INVALID, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { AllowedOrigin, Credential, Page } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import { visibleCompany, visibleMerchant } from '../accounts/accounts.domain.js';
import type { PageRequest } from '../pagination.js';

/** How long a rotated-out key keeps working: 24 hours, as in Adyen's key rotation. */
export const OLD_KEY_GRACE_MS = 24 * 60 * 60 * 1000;

export interface CredentialView {
  credential: Credential;
  origins: AllowedOrigin[];
}

async function withOrigins(tx: Tx, credential: Credential): Promise<CredentialView> {
  return { credential, origins: await tx.credentials.origins(credential.id) };
}

const notFound = (id: string) => new ApiError(ERR_NOT_FOUND_ENTITY, { message: `API credential ${id} not found` });

export async function listCompanyCredentials(tx: Tx, caller: Credential, companyId: string, page: PageRequest): Promise<Page<CredentialView>> {
  await visibleCompany(tx, caller, companyId);
  const { items, total } = await tx.credentials.list(companyId, null, (page.pageNumber - 1) * page.pageSize, page.pageSize);
  return { items: await Promise.all(items.map((c) => withOrigins(tx, c))), total };
}

export async function listMerchantCredentials(tx: Tx, caller: Credential, merchantId: string, page: PageRequest): Promise<Page<CredentialView>> {
  const merchant = await visibleMerchant(tx, caller, merchantId);
  const { items, total } = await tx.credentials.list(merchant.companyId, merchant.id, (page.pageNumber - 1) * page.pageSize, page.pageSize);
  return { items: await Promise.all(items.map((c) => withOrigins(tx, c))), total };
}

/** A company-level credential of a company the caller sees. */
export async function companyCredential(tx: Tx, caller: Credential, companyId: string, id: string): Promise<CredentialView> {
  await visibleCompany(tx, caller, companyId);
  const credential = await tx.credentials.get(id);
  if (!credential || credential.companyId !== companyId || credential.merchantId !== null) throw notFound(id);
  return withOrigins(tx, credential);
}

/** A credential of a merchant account the caller reaches. */
export async function merchantCredential(tx: Tx, caller: Credential, merchantId: string, id: string): Promise<CredentialView> {
  await visibleMerchant(tx, caller, merchantId);
  const credential = await tx.credentials.get(id);
  if (!credential || credential.merchantId !== merchantId) throw notFound(id);
  return withOrigins(tx, credential);
}

/**
 * Rotates a credential's key: the new key works at once and is returned once (only its hash is
 * kept); every key that was current keeps working for 24 hours by the server clock.
 */
export async function rotateApiKey(tx: Tx, now: Date, credential: Credential): Promise<string> {
  const graceEnds = new Date(now.getTime() + OLD_KEY_GRACE_MS).toISOString();
  for (const key of await tx.credentials.keys(credential.id)) {
    if (key.expiresAt === null) await tx.credentials.updateKey({ ...key, expiresAt: graceEnds });
  }
  const apiKey = newApiKey();
  await tx.credentials.insertKey({ keyHash: tx.credentials.hashKey(apiKey), credentialId: credential.id, createdAt: now.toISOString(), expiresAt: null });
  return apiKey;
}

/** POST /me/allowedOrigins */
export async function addAllowedOrigin(tx: Tx, now: Date, caller: Credential, domain: string): Promise<AllowedOrigin> {
  const parsed = parseOrigin(domain);
  if ('problem' in parsed) {
    throw new ApiError(ERR_FIELD_INVALID, {
      message: `Invalid field 'domain': ${parsed.problem}`,
      invalidFields: [{ name: 'domain', value: domain, message: parsed.problem }],
    });
  }
  const existing = await tx.credentials.origins(caller.id);
  if (existing.some((o) => o.domain === parsed.origin)) {
    throw new ApiError(ERR_FIELD_INVALID, {
      message: `Invalid field 'domain': ${parsed.origin} is already allowed`,
      invalidFields: [{ name: 'domain', value: domain, message: 'is already allowed' }],
    });
  }
  const origin: AllowedOrigin = {
    id: `S2-${randomBytes(6).toString('hex').toUpperCase()}`,
    credentialId: caller.id,
    domain: parsed.origin,
    createdAt: now.toISOString(),
  };
  await tx.credentials.insertOrigin(origin);
  return origin;
}

/** An allowed origin of the calling credential; another credential's is not found. */
export async function ownAllowedOrigin(tx: Tx, caller: Credential, id: string): Promise<AllowedOrigin> {
  const origin = await tx.credentials.getOrigin(id);
  if (!origin || origin.credentialId !== caller.id) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Allowed origin ${id} not found` });
  return origin;
}
