import { ApiError, ERR_NOT_FOUND_ENTITY } from '../http/errors.js';
import type { Company, Credential, Merchant, Page, Tx } from '../store/types.js';
import type { PageRequest } from './pagination.js';

/** The caller's company, or not found: another company's identifier is never confirmed to exist. */
export async function visibleCompany(tx: Tx, credential: Credential, companyId: string): Promise<Company> {
  const company = companyId === credential.companyId ? await tx.getCompany(companyId) : undefined;
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
  return tx.listMerchants(companyId, (page.pageNumber - 1) * page.pageSize, page.pageSize, only);
}
