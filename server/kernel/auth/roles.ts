/** The API credential roles (Adyen's names). Management roles carry the prefix `Management API - `. */
export const ROLES = {
  checkout: 'Checkout webservice role',
  merchantPal: 'Merchant PAL Webservice role',
  accountsRead: 'Management API - Accounts read',
  accountsReadWrite: 'Management API - Accounts read and write',
  apiCredentialsReadWrite: 'Management API - API credentials read and write',
  androidFilesRead: 'Management API - Android files read',
  androidFilesReadWrite: 'Management API - Android files read and write',
  terminalActionsRead: 'Management API - Terminal actions read',
  terminalActionsReadWrite: 'Management API - Terminal actions read and write',
  terminalSettingsRead: 'Management API - Terminal settings read',
  terminalSettingsReadWrite: 'Management API - Terminal settings read and write',
  terminalSettingsAdvancedReadWrite: 'Management API - Terminal settings Advanced read and write',
  splitConfigurationReadWrite: 'Management API - SplitConfiguration read and write',
  payoutSettingsRead: 'Management API - Payout Account Settings Read',
  payoutSettingsReadWrite: 'Management API - Payout Account Settings Read And Write',
  paymentMethodsRead: 'Management API - Payment methods read',
  paymentMethodsReadWrite: 'Management API - Payment methods read and write',
  webhooksRead: 'Management API - Webhooks read',
  webhooksReadWrite: 'Management API - Webhooks read and write',
  storesRead: 'Management API - Stores read',
  storesReadWrite: 'Management API - Stores read and write',
  assignTerminal: 'Management API - Assign Terminal',
  usersReadWrite: 'Management API - Users read and write',
} as const;

export type Role = (typeof ROLES)[keyof typeof ROLES];

export const ALL_ROLES: Role[] = Object.values(ROLES);
export const CHECKOUT_ROLES: Role[] = [ROLES.checkout, ROLES.merchantPal];
export const MANAGEMENT_ROLES: Role[] = ALL_ROLES.filter((r) => r.startsWith('Management API - '));

/**
 * What an operation needs: any one of the listed roles; `anyManagementRole`; or
 * `authenticated` (any valid credential, e.g. for its own details).
 */
export type Requirement = readonly Role[] | 'anyManagementRole' | 'authenticated';

export function satisfies(roles: readonly string[], requirement: Requirement): boolean {
  if (requirement === 'authenticated') return true;
  const accepted = requirement === 'anyManagementRole' ? MANAGEMENT_ROLES : requirement;
  return accepted.some((role) => roles.includes(role));
}

export function describeRequirement(requirement: Requirement): string {
  if (requirement === 'authenticated') return 'a valid credential';
  if (requirement === 'anyManagementRole') return 'any Management API role';
  return `one of the roles ${requirement.join(', ')}`;
}
