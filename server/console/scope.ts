import type { components } from '../../generated/console.js';
import type { Tx } from '../store/tx.js';
import type { ConsoleScope, Credential } from '../store/types.js';

export type ConsoleSessionView = components['schemas']['ConsoleSession'];

/**
 * What a credential sees in the console, by the rule every API applies (kernel/auth/credentials.ts
 * `reaches`): a company-level credential its company's merchant accounts, or only its
 * `associatedMerchantAccounts` when it has any; a merchant-level one its own merchant account.
 */
export function scopeOf(credential: Credential): ConsoleScope {
  const merchantAccounts =
    credential.merchantId !== null ? [credential.merchantId] : credential.associatedMerchantAccounts.length > 0 ? credential.associatedMerchantAccounts : null;
  return { companyId: credential.companyId, merchantAccounts, credentialId: credential.id };
}

/** Who is signed in: the credential, its reach and roles, and the session's CSRF token and end. */
export async function sessionView(tx: Tx, credential: Credential, csrfToken: string, expiresAt: string): Promise<ConsoleSessionView> {
  const scope = scopeOf(credential);
  const merchantAccounts = scope.merchantAccounts ?? (await tx.merchants.list(credential.companyId, 0, 1000)).items.map((merchant) => merchant.id);
  return {
    username: credential.username,
    companyId: credential.companyId,
    level: credential.merchantId === null ? 'company' : 'merchant',
    merchantAccounts: [...merchantAccounts].sort(),
    roles: [...credential.roles].sort(),
    csrfToken,
    expiresAt,
  };
}
