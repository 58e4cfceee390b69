import { reaches } from '../../kernel/auth/credentials.js';
import { ApiError, ERR_NOT_ALLOWED, ERR_NOT_FOUND_ENTITY } from '../../kernel/errors.js';
import type { Company, Credential, Merchant, Page } from '../../store/types.js';
import type { Tx } from '../../store/tx.js';
import type { PageRequest } from '../pagination.js';

/** The caller's company, or not found: another company's identifier is never confirmed to exist. */
export async function visibleCompany(tx: Tx, credential: Credential, companyId: string): Promise<Company> {
  const company = companyId === credential.companyId ? await tx.companies.get(companyId) : undefined;
  if (!company) throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Company ${companyId} not found` });
  return company;
}

/** The merchant accounts of the company that the credential reaches, a page at a time. */
export async function listVisibleMerchants(tx: Tx, credential: Credential, companyId: string, page: PageRequest): Promise<Page<Merchant>> {
  await visibleCompany(tx, credential, companyId);
  const only =
    credential.merchantId !== null
      ? [credential.merchantId]
      : credential.associatedMerchantAccounts.length > 0
        ? credential.associatedMerchantAccounts
        : undefined;
  return tx.merchants.list(companyId, (page.pageNumber - 1) * page.pageSize, page.pageSize, only);
}

/**
 * A merchant account the credential may manage: another company's is not found (its existence
 * is not confirmed); one of its own company outside a merchant-level credential's reach is forbidden.
 */
export async function visibleMerchant(tx: Tx, credential: Credential, merchantId: string): Promise<Merchant> {
  const merchant = await tx.merchants.get(merchantId);
  if (!merchant || merchant.companyId !== credential.companyId)
    throw new ApiError(ERR_NOT_FOUND_ENTITY, { message: `Merchant account ${merchantId} not found` });
  if (!reaches(credential, merchant))
    throw new ApiError(ERR_NOT_ALLOWED, { message: `Not allowed: the credential does not reach merchant account ${merchantId}` });
  return merchant;
}
